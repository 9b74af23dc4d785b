package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import mpjrun.HelloAllgather;
import mpjrun.JobResult;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's AOT cache for rank JVMs in real jobs, started as users start them (MPJ Express's starter
 * with the packaged agent jar, so that every library entry is a jar): the first job trains the cache
 * once, later jobs' ranks load MPJ Express's and the device's classes from it while the program's classes
 * come from a directory after them, their collectives still run through shared memory, and a corrupt cache
 * neither fails a job nor prints anything. The cache lives in a directory of the test's own
 * ({@code XDG_CACHE_HOME}); the training, seconds to a minute, runs once for the class.
 */
@Tag("slow")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RankAotCacheIT
{
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(4);
    /** A class of MPJ Express (one the agent leaves as it is) and one of the device that every rank loads. */
    private static final List<String> LIBRARY_CLASSES = List.of("mpjbuf.Buffer", "xdev.shmdev.ShmDevice");

    @TempDir
    static Path cacheHome;
    private static Path agentJar;
    private static Path mpjHome;
    private static JobResult trainingJob;

    @BeforeAll
    static void runTheFirstJob() throws Exception
    {
        agentJar = PackagedAgent.jar();
        mpjHome = MpjHome.prepare(MpjHome.defaultDirectory());
        trainingJob = starter(HelloAllgather.class.getName());
    }

    @Test
    @Order(1)
    void shouldTrainTheCacheInTheFirstJobAndRunIt() throws Exception
    {
        trainingJob.requireSuccess();
        assertTrue(trainingJob.output().contains("rank 1 of 2: " + HelloAllgather.OK_LINE), trainingJob.output());
        assertTrue(trainingJob.output().contains("mpjrun: AOT cache made in"), trainingJob.output());
        assertEquals(1, caches().size(), "caches in " + cacheDirectory() + ": " + caches());
    }

    @Test
    @Order(2)
    void shouldStartLaterRanksFromTheCacheWithTheProgramsClassDirectoryAfterIt() throws Exception
    {
        // To files: the job kit takes a printed line naming an exception class for a failure.
        final Path logs = Files.createDirectory(cacheHome.resolve("class-loads"));
        final JobResult result = starter("-Xlog:class+load:file=" + logs.resolve("rank%p.txt"),
            HelloAllgather.class.getName()).requireSuccess();
        final String loads = classLoads(logs);

        assertFalse(result.output().contains("making the rank JVMs' AOT cache"), result.output());
        for (final String library : LIBRARY_CLASSES)
        {
            assertEquals(2L, count(loads, "] " + library + " source: shared objects file"),
                library + " not from the cache in both ranks: " + lines(loads, library));
        }
        // The program's own class comes from its entry, appended after the cache's class path.
        assertEquals(2L, count(loads, "] " + HelloAllgather.class.getName() + " source: file:"),
            "HelloAllgather loaded from: " + lines(loads, HelloAllgather.class.getName()));
    }

    @Test
    @Order(3)
    void shouldRunCollectivesThroughSharedMemoryInRanksStartedFromTheCache() throws Exception
    {
        // With the launcher's woven classes (the default), and with the agent: the cache loads MPJ Express's
        // mpi.Intracomm before the agent is there, so the agent must reweave it.
        for (final String woven : List.of("on", "off"))
        {
            final JobResult result = starter(Map.of("KUPL_RANK_WOVEN_CLASSES", woven),
                CollectivesProgram.class.getName()).requireSuccess();

            final List<String> handled = lines(result.output(), CollectivesProgram.HANDLED);
            assertEquals(2, handled.size(), result.output());
            assertTrue(handled.stream().noneMatch(line -> line.endsWith(" 0")),
                "collectives ran MPJ Express's own algorithms (woven classes " + woven + "): " + handled);
        }
    }

    @Test
    @Order(4)
    void shouldRunQuietlyWithoutTheCacheWhenItIsCorrupt() throws Exception
    {
        final Path cache = caches().getFirst();
        Files.write(cache, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});

        final JobResult result = starter(HelloAllgather.class.getName()).requireSuccess();

        assertTrue(result.output().contains("rank 1 of 2: " + HelloAllgather.OK_LINE), result.output());
        assertFalse(result.output().contains("[aot]") || result.output().contains("AOT") ||
            result.output().contains("CDS"), result.output());
    }

    /** MPJ Express's starter on 2 shm ranks with the agent, the cache on in the test's own directory. */
    private static JobResult starter(final String... jvmOptionsAndClass) throws Exception
    {
        return starter(Map.of(), jvmOptionsAndClass);
    }

    /** As {@link #starter(String...)}, with {@code settings} added to the job's environment. */
    private static JobResult starter(final Map<String, String> settings, final String... jvmOptionsAndClass)
        throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(MpjJobs.java().toString(), "-jar",
            mpjHome.resolve("lib/starter.jar").toString(), "-np", "2", "-dev", "shm", "-cp", testClasses()));
        command.addAll(List.of(jvmOptionsAndClass));
        final Map<String, String> environment = new HashMap<>(settings);
        environment.putAll(Map.of("MPJ_HOME", mpjHome.toString(),
            "PATH", MpjJobs.java().getParent() + File.pathSeparator + System.getenv("PATH"),
            "JAVA_TOOL_OPTIONS", "-javaagent:" + agentJar,
            "KUPL_RANK_AOT_CACHE", "on", "XDG_CACHE_HOME", cacheHome.toString()));
        return MpjJobs.runCommand(command, environment, Path.of(System.getProperty("user.dir")), JOB_TIMEOUT);
    }

    private static Path cacheDirectory()
    {
        return cacheHome.resolve("mpj-kupl");
    }

    private static List<Path> caches() throws IOException
    {
        try (Stream<Path> files = Files.list(cacheDirectory()))
        {
            return files.filter(f -> f.toString().endsWith(".aot")).toList();
        }
    }

    private static String classLoads(final Path logs) throws IOException
    {
        final StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.list(logs))
        {
            for (final Path file : files.toList())
            {
                all.append(Files.readString(file));
            }
        }
        return all.toString();
    }

    private static long count(final String output, final String text)
    {
        return output.lines().filter(line -> line.contains(text)).count();
    }

    private static List<String> lines(final String output, final String text)
    {
        return output.lines().filter(line -> line.contains(text)).toList();
    }

    /** A class directory (this module's test classes) and the device module's test programs, as a user's -cp. */
    private static String testClasses()
    {
        try
        {
            return Path.of(System.getProperty("user.dir"), "target", "test-classes") + File.pathSeparator +
                Path.of(HelloAllgather.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (final java.net.URISyntaxException e)
        {
            throw new IllegalStateException(e);
        }
    }
}
