package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code bin/mpjrun} and its Java side {@link MpjRun}: bad command lines end with a message naming
 * the bad argument, the usage and exit status 2; good ones run.
 */
@Tag("slow")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MpjRunTest
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(40);
    private static final String MAIN = HelloAllgather.class.getName();

    /** What one in-process run of {@link MpjRun} printed and returned. */
    private record Run(int exitCode, String out, String err)
    {
    }

    @ParameterizedTest(name = "[{index}] {1}")
    // Quoted with ` (for the empty command line), since the messages hold ' and ".
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "``                                    | no arguments: give at least -np N and the main class, e.g. mpjrun -np 2 -cp my/classes my.Main",
        "-dev shm mpjrun.HelloAllgather   | -np is missing: give the number of ranks, e.g. -np 4",
        "-np                                   | -np needs a value: give it right after the option, e.g. -np 4",
        "-np 2 -cp                             | -cp needs a value: give it right after the option, e.g. -cp my/classes:lib/dep.jar",
        "-np 2 -jvmargs                        | -jvmargs needs a value: give it right after the option, e.g. -jvmargs \"-Xmx1g -ea\"",
        "-np 2 -machinesfile                   | -machinesfile needs a value: give it right after the option, e.g. -machinesfile machines (one host name a line)",
        "-np 0 mpjrun.HelloAllgather      | -np 0: give the number of ranks, 1 or more, e.g. -np 4",
        "-np -3 mpjrun.HelloAllgather     | -np -3: give the number of ranks, 1 or more, e.g. -np 4",
        "-np four mpjrun.HelloAllgather   | -np four: not a number; give the number of ranks, 1 or more",
        "-np 2 -dev tcp mpjrun.HelloAllgather | -dev tcp: unknown device; give -dev shm or one of MPJ Express's: multicore, niodev, hybdev or mxdev",
        "-np 2 -dev shm                        | the main class is missing: name the class whose main each rank runs after the options, e.g. mpjrun -np 2 -cp my/classes my.Main",
        "-np 2 -dev shm no.such.Main           | class no.such.Main not found in the class path (no -cp given; looked in the working directory); give -cp with its classes",
        "-np 2 -dev multicore no.such.Main     | class no.such.Main not found",
        "-np 2 -dev shm -Xmx1g mpjrun.HelloAllgather | -Xmx1g: unknown option for -dev shm; JVM options go in -jvmargs, e.g. -jvmargs \"-Xmx1g -ea\"",
        "-np 2 -dev niodev -prefix mpjrun.HelloAllgather | -prefix works with -dev shm only: MPJ Express's starter prints ranks' output as is; drop -prefix, or give -dev shm",
        "-np 2 -dev shm -jar app.jar           | -jar app.jar: -dev shm runs a class; give -cp app.jar and its main class",
        "-np 4 -dev multicore -nodes 2 mpjrun.HelloAllgather | -nodes with -dev multicore: multicore runs every rank as a thread of one JVM on this node; give -dev niodev, hybdev or shm to run across simulated nodes",
        "-np 4 -nodes 2 mpjrun.HelloAllgather  | -nodes with -dev multicore: multicore runs every rank as a thread of one JVM on this node",
        "-np 4 -dev mxdev -nodes 2 mpjrun.HelloAllgather | -nodes with -dev mxdev: mxdev needs Myrinet boards, which the simulated nodes do not have; give -dev niodev, hybdev or shm",
        "-np 2 -dev hybdev -nodes 3 mpjrun.HelloAllgather | -nodes 3 is more than -np 2: every node needs a rank; give -np 3 or more, or -nodes 2 or fewer",
        "-np 2 -dev hybdev -nodes 2 -machinesfile m mpjrun.HelloAllgather | -machinesfile and -nodes exclude each other: -nodes writes the machines file of its simulated nodes; give -nodes N for a simulated cluster, or -machinesfile FILE for real hosts",
        "-np 2 -dev niodev -nodes 0 mpjrun.HelloAllgather | -nodes 0: give the number of simulated nodes, 1 to 32, e.g. -nodes 2",
        "-np 2 -dev niodev -nodes x mpjrun.HelloAllgather | -nodes x: give the number of simulated nodes, 1 to 32, e.g. -nodes 2"})
    void shouldRejectABadCommandLineWithExitCode2(final String commandLine, final String message)
    {
        final Run run = run(commandLine.isBlank() ? new String[0] : commandLine.trim().split("\\s+"));

        assertEquals(MpjRun.EXIT_USAGE, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("mpjrun: " + message), run::err);
        assertTrue(run.err().contains("Usage: mpjrun -np N"), run::err);
    }

    @Test
    void shouldAcceptNodesWithEitherClusterDevice() throws UsageException
    {
        for (final ClusterDevice device : ClusterDevice.values())
        {
            final MpjRunArguments arguments = MpjRunArguments.parse("-np", "4", "-dev", device.text(), "-nodes", "2",
                "my.Main");

            assertEquals(2, arguments.nodes(), device::text);
            assertEquals(device, ClusterDevice.named(arguments.device()));
        }
    }

    @Test
    void shouldPrintTheUsageOnRequest()
    {
        final Run run = run("-h");

        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("Usage: mpjrun -np N") && run.out().contains("needs an MPJ Express daemon"),
            run::out);
        assertTrue(run.out().contains("  -np 4   " + String.join(" ", mpjrun.process.RankJvmDefaults.defaults(4,
            Runtime.getRuntime().availableProcessors()))) && run.out().contains("KUPL_RANK_JVM_DEFAULTS=off"), run::out);
    }

    @Test
    void shouldParseEveryOption() throws UsageException
    {
        final MpjRunArguments arguments = MpjRunArguments.parse("-np", "3", "-dev", "shm", "-cp", "a.jar:b", "-jvmargs",
            " -Xmx64m  -Dx=1 ", "-prefix", "my.Main", "-np", "x");

        assertEquals(new JobSpec(3, List.of("a.jar", "b"), List.of("-Xmx64m", "-Dx=1"), "my.Main", List.of("-np", "x"),
            true), arguments.toJobSpec());
    }

    @Test
    void shouldExitWith2FromTheScriptForABadCommandLine() throws Exception
    {
        final JobResult result = script("-np", "0", MAIN);

        assertEquals(MpjRun.EXIT_USAGE, result.launcherExitCode(), result.output());
        assertTrue(result.output().contains("mpjrun: -np 0: give the number of ranks"), result.output());
    }

    @Test
    void shouldRunAProgramThroughMpjExpressStarterFromTheScript() throws Exception
    {
        final JobResult result = script("-np", "2", "-dev", "multicore", "-cp", testClasses(), MAIN).requireSuccess();

        assertTrue(result.output().contains("rank 1 of 2: " + HelloAllgather.OK_LINE), result.output());
    }

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource(delimiter = '|', value = {
        "multicore | throw | 1   | mpjrun: rank 2 failed: java.lang.IllegalStateException: rank 2 fails on purpose",
        "multicore | throw | 1   | mpjrun: rank 2 failed (see the exception above)",
        "multicore | kill9 | 1   | mpjrun: ranks 0, 1, 2 never returned from main: the ranks' JVM was killed",
        "multicore | exit0 | 75  | mpjrun: rank 2 called System.exit(0) while ranks 0, 1 had not returned from main",
        "multicore | exit3 | 3   | mpjrun: rank 2 called System.exit(3)",
        "shm       | exit0 | 75  | which exited with status 0)",
        "shm       | throw | 1   | mpjrun: rank 2 (pid ",
        "shm       | kill9 | 137 | was killed by signal 9 (SIGKILL), exit status 137",
        "shm       | exit3 | 3   | exited with status 3"})
    void shouldExitNonZeroNamingTheRankThatFailed(final String device, final String failure, final int exitCode,
        final String message) throws Exception
    {
        final JobResult result = script("-np", "3", "-dev", device, "-cp", testClasses(), MAIN, failure);

        assertEquals(exitCode, result.launcherExitCode(), result.output());
        assertTrue(result.output().contains(message), result.output());
    }

    /** A program may print an exception's name and a stack frame and still succeed: the verdict is not the output's. */
    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource(delimiter = '|', value = {"multicore | caught", "shm | caught", "multicore | exit0AtEnd",
        "shm | exit0AtEnd"})
    void shouldExitWithZeroWhenEveryRankEndsWell(final String device, final String mode) throws Exception
    {
        final JobResult result = script("-np", "3", "-dev", device, "-cp", testClasses(), MAIN, mode);

        assertEquals(0, result.launcherExitCode(), result.output());
        assertTrue(result.output().contains("rank 2 of 3: " + HelloAllgather.OK_LINE), result.output());
        assertTrue(!result.output().contains("mpjrun:"), result.output());
    }

    /** A -jar program runs under StarterRankMain too (its manifest's Main-Class), so its ranks are judged alike. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"caught | 0 | rank 2 of 3: allgather ok",
        "throw  | 1 | mpjrun: rank 2 failed (see the exception above)"})
    void shouldJudgeAJarProgramByItsRanksReports(final String mode, final int exitCode, final String expected,
        @TempDir final Path directory) throws Exception
    {
        final Path jar = directory.resolve("app.jar");
        final Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, MAIN);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest))
        {
            out.flush();
        }

        final JobResult result = script("-np", "3", "-dev", "multicore", "-cp", testClasses(), "-jar", jar.toString(),
            mode);

        assertEquals(exitCode, result.launcherExitCode(), result.output());
        assertTrue(result.output().contains(expected), result.output());
    }

    @Test
    void shouldStreamAStarterJobsOutputAndExitWithZeroWhenEveryRankReturns() throws Exception
    {
        final JobResult result = script("-np", "3", "-dev", "multicore", "-cp", testClasses(), MAIN);

        assertEquals(0, result.launcherExitCode(), result.output());
        assertTrue(result.output().contains("rank 2 of 3: " + HelloAllgather.OK_LINE), result.output());
        assertTrue(!result.output().contains("mpjrun:"), result.output());
    }

    private static Run run(final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exitCode = MpjRun.run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Run(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** {@code bin/mpjrun} with this JVM's class path, so that it builds nothing. */
    private static JobResult script(final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(repositoryRoot().resolve("bin/mpjrun").toString()));
        command.addAll(List.of(args));
        return MpjJobs.runCommand(command, Map.of("KUPL_MPJRUN_CLASSPATH", System.getProperty("java.class.path"),
            "JAVA_HOME", System.getProperty("java.home")), Path.of(System.getProperty("user.dir")), JOB_TIMEOUT);
    }

    static Path repositoryRoot()
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

    static String testClasses()
    {
        return Path.of(System.getProperty("user.dir"), "target", "test-classes").toString() + File.pathSeparator;
    }
}
