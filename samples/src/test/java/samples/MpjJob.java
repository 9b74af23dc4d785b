package samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a sample as a real MPJ Express job, through the launch that {@code bin/sample} uses
 * (MPJ Express's starter in multicore mode, from {@code bin/lib/common.sh}), in a JVM of its own,
 * and checks what every run must show: it ended in time, with status 0, no rank threw, and
 * nothing was left in /dev/shm. MPJ Express's starter exits 0 even when a rank throws, so the
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
        final Set<Path> shmBefore = shmEntries();
        final Path log = Files.createTempFile("kupl-sample", ".log");
        try
        {
            // What bin/sample runs (bin/mpjrun's Java side), with the same MPJ_HOME from common.sh; no build.
            final String script = "source \"$1/bin/lib/common.sh\" && kupl_find_jdk && kupl_mpj_home && " +
                "shift && exec \"$JAVA_HOME/bin/java\" --enable-native-access=ALL-UNNAMED -cp \"$1\" " +
                "mpjrun.MpjRun -np \"$2\" -dev \"$3\" -cp \"$4\" \"${@:5}\"";
            final List<String> command = new ArrayList<>(List.of("bash", "-c", script, "kupl-sample",
                ROOT.toString(), samplesClasspath(), Integer.toString(ranks), device, System.getProperty("samples.classes"),
                mainClass.getName()));
            command.addAll(List.of(args));
            final ProcessBuilder builder = new ProcessBuilder(command)
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
            // The JDK running this test (22+, as the build requires) runs the samples too.
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            final Process process = builder.start();
            final boolean exited = process.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
            if (!exited)
            {
                // The ranks' JVM is a grandchild: end it too, so no rank outlives the test.
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
            }
            final Run run = new Run(mainClass.getSimpleName() + " (" + device + ")", ranks, exited ? process.exitValue() : -1,
                Files.readString(log));
            assertTrue(exited, run.explain("should finish within " + TIMEOUT_S + " s"));
            assertEquals(0, run.exitCode(), run.explain("should exit with status 0"));
            final Set<Path> leaked = shmEntries();
            leaked.removeAll(shmBefore);
            assertTrue(leaked.isEmpty(), run.explain("should leave nothing in /dev/shm, left " + leaked));
            assertFalse(run.output().contains("\tat "), run.explain("no rank should throw"));
            return run;
        }
        finally
        {
            Files.deleteIfExists(log);
        }
    }

    /** The samples' classes and what they need at run time, MPJ Express excepted (the starter adds it per rank). */
    private static String samplesClasspath() throws IOException
    {
        final String runtime = Files.readString(Path.of(System.getProperty("samples.runtime.classpath.file"))).trim();
        return System.getProperty("samples.classes") + (runtime.isEmpty() ? "" : File.pathSeparator + runtime);
    }

    private static Set<Path> shmEntries() throws IOException
    {
        try (Stream<Path> entries = Files.list(DEV_SHM))
        {
            return new HashSet<>(entries.toList());
        }
    }
}
