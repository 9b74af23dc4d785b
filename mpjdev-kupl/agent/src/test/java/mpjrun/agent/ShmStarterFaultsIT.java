package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import mpjrun.LaunchedJob;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import xdev.shmdev.programs.InitOrNot;

/**
 * MPJ Express's own starter ({@code java -jar starter.jar -dev shm}, the agent given through
 * {@code JAVA_TOOL_OPTIONS}) when ranks do not call {@code MPI.Init} and when the job meets a fault,
 * as the device module's {@code mpjrun.ShmLauncherFaultsTest} checks {@code bin/mpjrun}: a program
 * without {@code MPI.Init} ends with 0; a rank that leaves without it while another waits in it, or
 * is killed before it joins, is named within seconds; the launcher stopped while a rank dies still
 * names that rank; SIGTERM to the starter ends every rank within seconds.
 */
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShmStarterFaultsIT
{
    private static final Duration REPORTED_WITHIN = Duration.ofSeconds(5);
    private static final Duration JOB_WITHIN = Duration.ofSeconds(60);
    private static final Duration SURVIVORS_FAIL_WITHIN = Duration.ofSeconds(30);
    private static Path agentJar;
    private static Path mpjHome;

    /** A private directory for the ranks' shared memory: whatever they leave behind would show here. */
    private Path shmDir;

    @BeforeAll
    static void findTheAgent() throws Exception
    {
        agentJar = PackagedAgent.jar();
        mpjHome = MpjHome.prepare(MpjHome.defaultDirectory());
    }

    @BeforeEach
    void makeShmDir() throws Exception
    {
        shmDir = Files.createTempDirectory(Path.of("/dev/shm"), "kupl-starter-faults-");
    }

    @AfterEach
    void checkAndRemoveShmDir() throws Exception
    {
        try (Stream<Path> left = Files.list(shmDir))
        {
            assertEquals(List.of(), left.toList(), "shared memory left behind");
        }
        finally
        {
            Files.deleteIfExists(shmDir);
        }
    }

    @Test
    void shouldEndWithZeroWhenNoRankCallsInit() throws Exception
    {
        try (LaunchedJob job = starter(3, "leave,work,work"))
        {
            assertEquals(0, job.awaitExit(JOB_WITHIN), job::output);
            assertTrue(job.output().contains("rank 2 worked"), job::output);
            assertFalse(job.output().contains("mpjrun:"), job::output);
        }
    }

    @Test
    void shouldFailNamingTheRankThatLeftWithoutInitWhileAnotherWaitsInInit() throws Exception
    {
        try (LaunchedJob job = starter(2, "init,leave-later"))
        {
            assertEquals(1, job.awaitExit(JOB_WITHIN), job::output);
            assertTrue(job.output().contains("mpjrun: the job could not start: rank 1 of 2 exited with status 0 " +
                "before it joined the job, while rank 0 waits for it in MPI.Init"), job::output);
        }
    }

    @Test
    void shouldNameARankKilledBeforeItJoinedWithinSeconds() throws Exception
    {
        try (LaunchedJob job = starter(3, "init,init,idle"))
        {
            final List<Long> pids = job.awaitPids(3);
            Thread.sleep(1_000);
            final long killedNs = System.nanoTime();
            LaunchedJob.signal(pids.get(2), "KILL");
            final int status = job.awaitExit(JOB_WITHIN);
            final Duration took = Duration.ofNanos(System.nanoTime() - killedNs);

            assertEquals(137, status, job::output);
            assertTrue(job.output().contains("mpjrun: rank 2 (pid " + pids.get(2) + ") was killed by signal 9 " +
                "(SIGKILL), exit status 137, before it joined the job"), job::output);
            assertTrue(took.compareTo(REPORTED_WITHIN) < 0, "reported " + took + " after the kill\n" + job.output());
            job.awaitEnded(pids, REPORTED_WITHIN);
        }
    }

    @Test
    void shouldNameTheRankThatDiedFirstWhenTheStarterWasStoppedWhileItDied() throws Exception
    {
        try (LaunchedJob job = starter(3, "init,join-idle,init"))
        {
            final List<Long> pids = job.awaitPids(3);
            for (int rank = 0; rank < 3; rank++)
            {
                job.awaitOutput("rank " + rank + " joined");
            }
            LaunchedJob.signal(job.pid(), "STOP");
            LaunchedJob.signal(pids.get(1), "KILL");
            job.awaitEnded(List.of(pids.get(0), pids.get(2)), SURVIVORS_FAIL_WITHIN);
            LaunchedJob.signal(job.pid(), "CONT");

            assertEquals(137, job.awaitExit(REPORTED_WITHIN), job::output);
            assertTrue(job.output().contains("mpjrun: rank 1 (pid " + pids.get(1) + ") was killed by signal 9"),
                job::output);
        }
    }

    @Test
    void shouldEndEveryRankWithinSecondsOfSigtermToTheStarter() throws Exception
    {
        try (LaunchedJob job = starter(3, "init,idle,work"))
        {
            final List<Long> pids = job.awaitPids(3);
            LaunchedJob.signal(job.pid(), "TERM");
            job.awaitEnded(pids, REPORTED_WITHIN);
            job.awaitExit(REPORTED_WITHIN);
        }
    }

    /** MPJ Express's starter running {@link InitOrNot} with {@code modes} on {@code processes} shm ranks. */
    private LaunchedJob starter(final int processes, final String modes) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(MpjJobs.java().toString(), "-jar",
            mpjHome.resolve("lib/starter.jar").toString(), "-np", Integer.toString(processes), "-dev", "shm",
            "-cp", Path.of(InitOrNot.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
            InitOrNot.class.getName(), modes));
        return LaunchedJob.start(command, Map.of("MPJ_HOME", mpjHome.toString(),
            "PATH", MpjJobs.java().getParent() + File.pathSeparator + System.getenv("PATH"),
            "JAVA_TOOL_OPTIONS", "-javaagent:" + agentJar, "KUPL_SHM_DIR", shmDir.toString()));
    }
}
