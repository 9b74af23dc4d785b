package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import mpjrun.JobSpec;
import mpjrun.ShmJob;
import mpjrun.process.EngineJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import xdev.shmdev.programs.Faulty;

/**
 * The launcher and the device with real JVM processes: exit statuses, a rank killed with
 * {@code kill -9} (the job ends within 5 s naming it, no process and no shared memory left),
 * a killed launcher, and survivors that notice a dead peer by themselves.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmJobTest
{
    private static final String TEST_CLASSES = Path.of(ShmJobTest.class.getProtectionDomain().getCodeSource()
        .getLocation().getPath()).toString();
    private static final Pattern PID = Pattern.compile("pid (\\d+) (\\d+)");
    private static final Duration END_WITHIN = Duration.ofSeconds(5);

    /** A private directory for the ranks' shared memory: whatever they leave behind would show here. */
    @RegisterExtension
    final PrivateShmDirectory shm = new PrivateShmDirectory("kupl-shmdev-test");

    private record Outcome(int status, String out, String err)
    {
        String all()
        {
            return "status " + status + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    private static Outcome runInProcess(final int processes, final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ShmJob.run(new JobSpec(processes, List.of(TEST_CLASSES), List.of(), Faulty.class.getName(),
            List.of(args), true), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aJobThatEndsNormallyExitsWithZeroAndPrefixesLines()
    {
        final Outcome outcome = runInProcess(3, "ok");
        assertEquals(0, outcome.status(), outcome::all);
        for (int rank = 0; rank < 3; rank++)
        {
            assertTrue(outcome.out().contains("[" + rank + "] done\n"), outcome::all);
        }
    }

    @Test
    void theFirstFailingRanksStatusIsTheJobsAndTheOthersAreStopped()
    {
        final Outcome exited = runInProcess(3, "exit", "2", "3");
        assertEquals(3, exited.status(), exited::all);
        assertTrue(exited.err().contains("mpjrun: rank 2 (pid ") && exited.err().contains("exited with status 3"),
            exited::all);
        assertNoneAlive(pids(exited.out()));

        final Outcome threw = runInProcess(2, "throw", "1");
        assertEquals(1, threw.status(), threw::all);
        assertTrue(threw.err().contains("[1] java.lang.IllegalStateException: rank 1 fails on purpose"), threw::all);
        assertTrue(threw.err().contains("mpjrun: rank 1 (pid "), threw::all);
    }

    @Test
    void aRankKilledWithSigkillEndsTheJobWithinFiveSeconds() throws Exception
    {
        final Process launcher = startLauncher(3, "spin");
        final StringBuffer output = collect(launcher);
        final List<Long> pids = awaitPids(output, 3);
        final long killedAt = System.nanoTime();
        ProcessHandle.of(pids.get(1)).orElseThrow().destroyForcibly();
        final boolean ended = launcher.waitFor(END_WITHIN.toMillis() + 2000, TimeUnit.MILLISECONDS);
        final Duration took = Duration.ofNanos(System.nanoTime() - killedAt);
        launcher.destroyForcibly();
        assertTrue(ended && took.compareTo(END_WITHIN) < 0, "job still running " + took + " after the kill\n" + output);
        assertEquals(137, launcher.exitValue(), output::toString);
        assertTrue(output.toString().contains("mpjrun: rank 1 (pid " + pids.get(1) + ") was killed by signal 9"),
            output::toString);
        assertNoneAlive(pids);
    }

    @Test
    void ranksEndWhenTheirLauncherIsKilled() throws Exception
    {
        final Process launcher = startLauncher(2, "spin");
        final StringBuffer output = collect(launcher);
        final List<Long> pids = awaitPids(output, 2);
        launcher.destroyForcibly();
        launcher.waitFor();
        final long deadline = System.nanoTime() + END_WITHIN.toNanos();
        for (final long pid : pids)
        {
            ProcessHandle.of(pid).ifPresent(rank -> rank.onExit().orTimeout(
                Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).join());
        }
        assertNoneAlive(pids);
    }

    @Test
    void survivorsFailNamingTheRankThatDied() throws Exception
    {
        try (EngineJob job = EngineJob.start(DeviceKillRank.class.getName(), 3, Map.of("KUPL_SHM_DIR", shm.path().toString()),
            List.of(), List.of(), false))
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (int rank = 0; rank < 3; rank++)
            {
                while (!job.output(rank).contains("ready"))
                {
                    assertTrue(System.nanoTime() < deadline, () -> "ranks not ready:\n" + job.outputs());
                    Thread.sleep(20);
                }
            }
            job.kill(1);
            final long killedAt = System.nanoTime();
            for (final int rank : new int[] {0, 2})
            {
                assertTrue(job.process(rank).waitFor(END_WITHIN.toMillis(), TimeUnit.MILLISECONDS),
                    () -> "rank " + rank + " did not notice rank 1's death:\n" + job.outputs());
                assertEquals(DeviceKillRank.DEATH_NOTICED, job.process(rank).exitValue(), job::outputs);
                assertTrue(job.output(rank).contains("rank 1 (pid " + job.pid(1) + ") has died"), job::outputs);
            }
            assertTrue(System.nanoTime() - killedAt < END_WITHIN.toNanos());
        }
    }

    private Process startLauncher(final int processes, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), LauncherMain.class.getName(),
            Integer.toString(processes), TEST_CLASSES, Faulty.class.getName()));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("KUPL_SHM_DIR", shm.path().toString());
        return builder.start();
    }

    private static StringBuffer collect(final Process process)
    {
        final StringBuffer output = new StringBuffer();
        Thread.ofPlatform().daemon().start(() ->
        {
            try (InputStream in = process.getInputStream())
            {
                final byte[] buffer = new byte[4096];
                for (int n; (n = in.read(buffer)) > 0; )
                {
                    output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            }
            catch (final IOException ignored)
            {
                // the process is gone
            }
        });
        return output;
    }

    private static List<Long> awaitPids(final StringBuffer output, final int processes) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true)
        {
            final List<Long> pids = pids(output.toString());
            if (pids.size() == processes && !pids.contains(null))
            {
                return pids;
            }
            assertTrue(System.nanoTime() < deadline, () -> "ranks did not start:\n" + output);
            Thread.sleep(20);
        }
    }

    /** The pids the ranks printed, by rank (null where a rank has not printed yet). */
    private static List<Long> pids(final String output)
    {
        final List<Long> pids = new ArrayList<>();
        final Matcher matcher = PID.matcher(output);
        while (matcher.find())
        {
            final int rank = Integer.parseInt(matcher.group(1));
            while (pids.size() <= rank)
            {
                pids.add(null);
            }
            pids.set(rank, Long.parseLong(matcher.group(2)));
        }
        return pids;
    }

    private static void assertNoneAlive(final List<Long> pids)
    {
        for (final Long pid : pids)
        {
            assertFalse(pid != null && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                "rank process " + pid + " is still running");
        }
    }
}
