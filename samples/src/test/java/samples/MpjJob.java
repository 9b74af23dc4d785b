package samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import mpjrun.JobResult;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;

/**
 * Runs a sample as a real MPJ Express job, through the launch that {@code bin/sample} uses
 * ({@code bin/mpjrun}'s Java side, {@code mpjrun.MpjRun}), in a JVM of its own started by the job kit,
 * and checks what every run must show: it ended in time, with status 0, no rank threw, and
 * nothing was left in shared memory: each run gets a {@code KUPL_SHM_DIR} of its own under /dev/shm,
 * which must be empty afterwards (all of /dev/shm would also show other jobs' files). MPJ Express's starter exits 0 even when a rank throws, so the
 * output is what proves a run right.
 */
public final class MpjJob
{
    /** The repository root. */
    public static final Path ROOT = Path.of(System.getProperty("kupl.root", "..")).toAbsolutePath().normalize();

    private static final long TIMEOUT_S = 60;
    private static final Path DEV_SHM = Path.of("/dev/shm");

    private MpjJob()
    {
    }

    /** Output and exit status of one launch. */
    public record Run(String mainClass, int ranks, int exitCode, String output)
    {
        public List<String> lines()
        {
            return output.lines().toList();
        }

        public long count(final String text)
        {
            return output.lines().filter(line -> line.contains(text)).count();
        }

        public String explain(final String expectation)
        {
            return mainClass + " on " + ranks + " ranks: " + expectation + "; exit status " + exitCode +
                ", output:\n" + output;
        }
    }

    /** Runs {@code mainClass} on {@code ranks} ranks over the shm device, as bin/sample does by default. */
    public static Run run(final Class<?> mainClass, final int ranks, final String... args)
        throws IOException, InterruptedException
    {
        return run("shm", mainClass, ranks, args);
    }

    /**
     * Runs {@code mainClass} on {@code ranks} ranks of {@code device} ("shm" or "multicore") with
     * {@code args}, and checks the run ended cleanly.
     */
    public static Run run(final String device, final Class<?> mainClass, final int ranks, final String... args)
        throws IOException, InterruptedException
    {
        return launch(List.of("-dev", device), device, mainClass, ranks, true, args);
    }

    /**
     * Runs {@code mainClass} on {@code ranks} ranks of niodev across {@code nodes} simulated nodes, as
     * {@code bin/mpjrun -np RANKS -dev niodev -nodes NODES} does (root and network namespaces needed:
     * the caller skips where {@code mpjrun.SimulatedCluster.unavailableReason()} says why), and checks
     * the run ended cleanly.
     */
    public static Run runOnNodes(final Class<?> mainClass, final int ranks, final int nodes, final String... args)
        throws IOException, InterruptedException
    {
        return launch(List.of("-dev", "niodev", "-nodes", Integer.toString(nodes)), "niodev, " + nodes + " nodes",
            mainClass, ranks, true, args);
    }

    /**
     * Runs {@code mainClass} as {@link #runOnNodes} does, on {@code device} ("niodev" or "hybdev"), for a sample
     * that fails there: checks only that the run ended in time, with a status other than 0, and left nothing.
     */
    public static Run failOnNodes(final String device, final Class<?> mainClass, final int ranks, final int nodes,
        final String... args) throws IOException, InterruptedException
    {
        return launch(List.of("-dev", device, "-nodes", Integer.toString(nodes)), device + ", " + nodes + " nodes",
            mainClass, ranks, false, args);
    }

    private static Run launch(final List<String> launcherOptions, final String label, final Class<?> mainClass,
        final int ranks, final boolean succeeds, final String... args) throws IOException, InterruptedException
    {
        final Path shmDir = Files.createTempDirectory(DEV_SHM, "kupl-samples-test");
        // What bin/sample runs (bin/mpjrun's Java side) with the same MPJ_HOME (mpjrun.MpjHome); no build.
        final List<String> command = new ArrayList<>(List.of(MpjJobs.java().toString(),
            "--enable-native-access=ALL-UNNAMED", "-D" + MpjHome.DIRECTORY_PROPERTY + "=" + ROOT.resolve("target/mpj-home"),
            "-cp", samplesClasspath(), "mpjrun.MpjRun", "-np", Integer.toString(ranks)));
        command.addAll(launcherOptions);
        command.addAll(List.of("-cp", System.getProperty("samples.classes"), mainClass.getName()));
        command.addAll(List.of(args));
        final JobResult result;
        final Set<Path> leaked;
        try
        {
            result = MpjJobs.runCommand(command, Map.of("KUPL_SHM_DIR", shmDir.toString()), ROOT,
                Duration.ofSeconds(TIMEOUT_S));
        }
        finally
        {
            leaked = entries(shmDir);
            for (final Path file : leaked)
            {
                Files.deleteIfExists(file);
            }
            Files.delete(shmDir);
        }
        final Run run = new Run(mainClass.getSimpleName() + " (" + label + ")", ranks,
            result.timedOut() ? -1 : result.launcherExitCode(), result.output());
        assertFalse(result.timedOut(), run.explain("should finish within " + TIMEOUT_S + " s"));
        assertTrue(leaked.isEmpty(), run.explain("should leave nothing in KUPL_SHM_DIR, left " + leaked));
        if (!succeeds)
        {
            assertNotEquals(0, run.exitCode(), run.explain("should fail"));
            return run;
        }
        assertEquals(0, run.exitCode(), run.explain("should exit with status 0"));
        // No stack frame among the job kit's failure lines, which leave out the trace MPJ Express's starter may print
        // at the end of a good cluster job (mpjrun.StarterEndOfStream); Mistakes prints exception names on purpose.
        assertTrue(result.failureLines().stream().noneMatch(line -> line.contains("\tat ")),
            run.explain("no rank should throw, but " + result.failureLines()));
        return run;
    }

    /** The samples' classes and what they need at run time, MPJ Express excepted (the starter adds it per rank). */
    private static String samplesClasspath() throws IOException
    {
        final String runtime = Files.readString(Path.of(System.getProperty("samples.runtime.classpath.file"))).trim();
        return System.getProperty("samples.classes") + (runtime.isEmpty() ? "" : File.pathSeparator + runtime);
    }

    private static Set<Path> entries(final Path dir) throws IOException
    {
        try (Stream<Path> entries = Files.list(dir))
        {
            return new HashSet<>(entries.toList());
        }
    }
}
