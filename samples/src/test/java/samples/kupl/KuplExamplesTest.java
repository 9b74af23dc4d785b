package samples.kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Runs the two KUPL seed examples on {@value #RANKS} ranks through the launch that
 * {@code bin/demo} uses (MPJ Express's starter in multicore mode, from {@code bin/lib/common.sh}),
 * in a JVM of their own, and checks what they print.
 *
 * <p>MPJ Express's multicore starter exits with status 0 even when a rank throws, so the
 * output is what proves a run right; the exit status is checked as well.
 */
class KuplExamplesTest
{
    private static final int RANKS = 4;
    private static final long TIMEOUT_S = 60;
    private static final Path ROOT = Path.of(System.getProperty("kupl.root", "..")).toAbsolutePath().normalize();
    private static final Path DEV_SHM = Path.of("/dev/shm");
    private static final Pattern FENCE_LINE = Pattern.compile(
        "rank (\\d+) iteration (\\d+): own counter (\\d+), waited .* ms in the fence, then saw counters \\[.*]: fence ok");

    @Test
    void shouldCheckSuccessOnEveryRankButRankZero() throws Exception
    {
        final Run run = runOnMulticore(KuplWinAllocExample.class);

        assertEquals(RANKS - 1, run.count("check success"), run.explain("every rank but 0 should print check success"));
        assertEquals(0, run.count("check fail"), run.explain("no rank should print check fail"));
    }

    @Test
    void shouldShowEveryRankSeeingEveryIncrementAfterEachFence() throws Exception
    {
        final Run run = runOnMulticore(KuplFenceExample.class);

        final Set<String> seen = new HashSet<>();
        for (final String line : run.lines())
        {
            final Matcher matcher = FENCE_LINE.matcher(line);
            if (matcher.matches())
            {
                final int iteration = Integer.parseInt(matcher.group(2));
                assertEquals(iteration + 1, Integer.parseInt(matcher.group(3)), run.explain("own counter in: " + line));
                assertTrue(seen.add(matcher.group(1) + "/" + iteration), run.explain("printed twice: " + line));
            }
        }
        assertEquals(RANKS * KuplFenceExample.ITERS, seen.size(),
            run.explain("every rank should print one 'fence ok' line per iteration"));
        assertEquals(0, run.count("FENCE BROKEN"), run.explain("no rank should see a broken fence"));
        for (int rank = 0; rank < RANKS; rank++)
        {
            assertEquals(1, run.count("rank " + rank + ": final counter " + KuplFenceExample.ITERS),
                run.explain("rank " + rank + " should end with its counter at " + KuplFenceExample.ITERS));
        }
    }

    /** Output and exit status of one launch, checked for a clean exit and no leak in /dev/shm. */
    private record Run(String mainClass, int exitCode, String output)
    {
        List<String> lines()
        {
            return output.lines().toList();
        }

        long count(final String text)
        {
            return output.lines().filter(line -> line.contains(text)).count();
        }

        String explain(final String expectation)
        {
            return mainClass + " on " + RANKS + " ranks: " + expectation + "; exit status " + exitCode +
                ", output:\n" + output;
        }
    }

    private static Run runOnMulticore(final Class<?> mainClass) throws IOException, InterruptedException
    {
        final Set<Path> shmBefore = shmEntries();
        final Path log = Files.createTempFile("kupl-sample", ".log");
        try
        {
            // Through common.sh, as bin/demo does: same MPJ_HOME, same starter options; no build.
            final String script = "source \"$1/bin/lib/common.sh\" && kupl_find_jdk && kupl_mpj_home && " +
                "kupl_run_multicore \"$2\" \"$3\" \"$4\"";
            final ProcessBuilder builder = new ProcessBuilder("bash", "-c", script,
                "kupl-sample", ROOT.toString(), Integer.toString(RANKS), samplesClasspath(), mainClass.getName())
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
            final Run run = new Run(mainClass.getSimpleName(), exited ? process.exitValue() : -1, Files.readString(log));
            assertTrue(exited, run.explain("should finish within " + TIMEOUT_S + " s"));
            assertEquals(0, run.exitCode(), run.explain("should exit with status 0"));
            final Set<Path> leaked = shmEntries();
            leaked.removeAll(shmBefore);
            assertTrue(leaked.isEmpty(), run.explain("should leave nothing in /dev/shm, left " + leaked));
            assertFalse(run.output().contains("Exception"), run.explain("no rank should throw"));
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
