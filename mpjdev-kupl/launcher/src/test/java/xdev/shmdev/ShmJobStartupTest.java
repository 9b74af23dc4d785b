package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import mpjrun.JobSpec;
import mpjrun.ShmJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import xdev.shmdev.programs.LateArrival;

/**
 * A {@code shm} job one of whose ranks never arrives at the hub while another has: the job ends
 * with status 1 and a message naming that rank, within seconds of its exit, or at
 * {@code KUPL_SHM_ARRIVAL_MS} after the first arrival if it hangs, and leaves no process and
 * nothing in the temporary directory behind.
 */
@Tag("slow")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmJobStartupTest
{
    private static final String TEST_CLASSES = Path.of(ShmJobStartupTest.class.getProtectionDomain().getCodeSource()
        .getLocation().getPath()).toString();
    /** A generous bound for "within seconds, not a hang": JVM starts on two shared cores included. */
    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final Pattern PID = Pattern.compile("pid (\\d+) (\\d+)");

    @Test
    void aRankThatExitsBeforeConnectingEndsTheJobNamingIt()
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ShmJob.run(new JobSpec(2, List.of(TEST_CLASSES), List.of(), LateArrival.class.getName(),
            List.of("exit", "1"), true), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        final String all = "status " + status + "\nstdout:\n" + out + "\nstderr:\n" + err;
        assertEquals(1, status, all);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(
            "mpjrun: the job could not start: rank 1 of 2 exited with status 0 before it joined the job, while " +
            "rank 0 waits for it in MPI.Init"), all);
        assertNoneAlive(pids(out.toString(StandardCharsets.UTF_8)));
    }

    @Test
    void aRankThatNeverArrivesEndsTheJobAtTheArrivalTimeoutNamingIt() throws Exception
    {
        final Path tmp = Files.createTempDirectory("kupl-startup-tmp-");
        try
        {
            final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), LauncherMain.class.getName(),
                "3", TEST_CLASSES, LateArrival.class.getName(), "sleep", "2"));
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put("KUPL_SHM_ARRIVAL_MS", "3000");
            final long startNs = System.nanoTime();
            final Process launcher = builder.start();
            final String output = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(launcher.waitFor(WITHIN.toMillis(), TimeUnit.MILLISECONDS), output);
            final Duration took = Duration.ofNanos(System.nanoTime() - startNs);

            assertEquals(1, launcher.exitValue(), output);
            assertTrue(output.contains("mpjrun: the job could not start: rank 2 of 3 did not arrive within 3000 ms"),
                output);
            assertTrue(took.compareTo(WITHIN) < 0, "took " + took + "\n" + output);
            assertNoneAlive(pids(output));
            try (Stream<Path> left = Files.list(tmp))
            {
                assertEquals(List.of(), left.toList(), "left in the temporary directory");
            }
        }
        finally
        {
            try (Stream<Path> paths = Files.walk(tmp))
            {
                for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.delete(path);
                }
            }
        }
    }

    private static List<Long> pids(final String output)
    {
        final List<Long> pids = new ArrayList<>();
        final Matcher matcher = PID.matcher(output);
        while (matcher.find())
        {
            pids.add(Long.parseLong(matcher.group(2)));
        }
        assertFalse(pids.isEmpty(), "no rank printed its pid:\n" + output);
        return pids;
    }

    private static void assertNoneAlive(final List<Long> pids)
    {
        for (final long pid : pids)
        {
            ProcessHandle.of(pid).ifPresent(process ->
            {
                // The launcher kills its ranks before it returns; give the kernel a moment to reap them.
                process.onExit().orTimeout(5, TimeUnit.SECONDS).join();
            });
        }
    }
}
