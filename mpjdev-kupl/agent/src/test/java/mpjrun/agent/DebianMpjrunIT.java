package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import mpjrun.JobResult;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's own {@code /usr/bin/mpjrun}, which sets {@code MPJ_HOME=/usr/share/mpj} (no log4j there), with the
 * packaged agent in {@code JAVA_TOOL_OPTIONS}: {@code mpjrun -np 2 -dev shm} runs the sample
 * {@code samples.rma.FenceExample}, compiled here from the samples' sources (that module builds after this one).
 * Without the agent's {@link StarterClassPath} the starter fails with
 * {@code NoClassDefFoundError: org/apache/log4j/Layout}. Skipped where Debian's mpjrun is not installed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DebianMpjrunIT
{
    private static final Path DEBIAN_MPJRUN = Path.of("/usr/bin/mpjrun");
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);
    private static final String SAMPLE = "samples.rma.FenceExample";

    @Test
    void shouldRunASampleOnShmThroughDebiansMpjrunWithTheAgentInJavaToolOptions(@TempDir final Path classes)
        throws Exception
    {
        assumeTrue(Files.isExecutable(DEBIAN_MPJRUN), () -> "skipped: no " + DEBIAN_MPJRUN + " (Debian's " +
            "libmpj-java installs it: as root, 'apt-get install -y libmpj-java')");
        final Path agentJar = PackagedAgent.jar();
        compileSample(classes);
        final String apiJar = apiOnClassPath();

        final JobResult result = MpjJobs.runCommand(List.of(DEBIAN_MPJRUN.toString(), "-np", "2", "-dev", "shm",
            "-cp", classes + File.pathSeparator + apiJar, SAMPLE),
            Map.of("JAVA_TOOL_OPTIONS", "-javaagent:" + agentJar,
                // The starter and its ranks run plain java: this JDK (22+) first, as docs/running.md says.
                "PATH", MpjJobs.java().getParent() + File.pathSeparator + System.getenv("PATH")),
            Path.of(System.getProperty("user.dir")), JOB_TIMEOUT);

        assertFalse(result.output().contains("NoClassDefFoundError"), result.output());
        result.requireSuccess();
        assertEquals(0, result.launcherExitCode(), result.output());
        for (int rank = 0; rank < 2; rank++)
        {
            final String line = "rank " + rank + ": final counter 5";
            assertTrue(result.output().lines().anyMatch(line::equals), () -> "no line '" + line + "' in\n" +
                result.output());
        }
        System.out.printf("Debian's mpjrun, -dev shm, 2 ranks of %s: %d ms%n", SAMPLE, result.elapsed().toMillis());
    }

    @Test
    void shouldNameTheAptPackageOfALibraryThatIsNowhere(@TempDir final Path emptyJavaDir)
    {
        final ClassLoader nothing = new ClassLoader(null)
        {
        };

        final IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> StarterClassPath.missing(nothing, emptyJavaDir));

        assertTrue(e.getMessage().startsWith("MPJ Express's starter needs log4j-1.2.jar, commons-cli.jar, " +
            "commons-io.jar, commons-codec.jar, which neither its MPJ_HOME/lib nor " + emptyJavaDir + " has: as root, " +
            "'apt-get install -y liblog4j1.2-java libcommons-cli-java libcommons-io-java libcommons-codec-java'"),
            e.getMessage());
    }

    /** FenceExample and the one samples class it uses, against this JVM's class path (the API and MPJ Express). */
    private static void compileSample(final Path classes) throws IOException
    {
        final Path sources = repositoryRoot().resolve("samples/src/main/java/samples");
        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        final int status = compiler.run(null, null, null, "-d", classes.toString(), "-cp",
            System.getProperty("java.class.path"), "-proc:none",
            sources.resolve("rma/FenceExample.java").toString(), sources.resolve("FenceReport.java").toString());
        assertEquals(0, status, "the sample did not compile");
    }

    /** Where this JVM has mpi.rma from (its jar or classes): what a user adds to -cp beside the program. */
    private static String apiOnClassPath() throws URISyntaxException
    {
        return Path.of(mpi.rma.Win.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private static Path repositoryRoot()
    {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve("bin/mpjrun")))
            {
                return dir;
            }
        }
        throw new IllegalStateException("no bin/mpjrun at or above " + System.getProperty("user.dir"));
    }
}
