package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import xdev.shmdev.PrivateShmDirectory;
import xdev.shmdev.programs.InitOrNot;

/**
 * {@code bin/mpjrun -dev shm} when ranks do not call {@code MPI.Init}, and when the job meets a
 * fault: real launchers and rank JVMs ({@link InitOrNot}), signalled from here.
 *
 * <p>The rule for ranks without {@code MPI.Init}: joining the job is collective, so a rank that
 * has called {@code MPI.Init} can go on only once every rank has. A rank that ends with 0
 * without joining is therefore a failure only if some rank joins (before or after): then the job
 * ends, naming it. While no rank has joined, nobody waits for anybody, and a program that never
 * calls {@code MPI.Init} (MPJ Express's {@code BufferTest3}) ends with 0 as on its own devices.
 *
 * <p>Times are bounded generously (these 2-core machines are shared and noisy): a fault must be
 * reported within {@link #REPORTED_WITHIN}; it typically takes 0.1-0.5 s.
 */
@Tag("slow")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ShmLauncherFaultsTest
{
    private static final Duration REPORTED_WITHIN = Duration.ofSeconds(5);
    private static final Duration JOB_WITHIN = Duration.ofSeconds(60);
    /** Survivors notice a dead rank within KUPL_SHM_LIVENESS_MS (250 ms); this allows for a loaded machine. */
    private static final Duration SURVIVORS_FAIL_WITHIN = Duration.ofSeconds(30);
    private static final String MAIN = InitOrNot.class.getName();

    /** A private directory for the ranks' shared memory: whatever they leave behind would show here. */
    @RegisterExtension
    final PrivateShmDirectory shm = new PrivateShmDirectory("kupl-launcher-faults-");

    @Test
    void shouldEndWithZeroWhenNoRankCallsInitAndEveryRankEndsWell() throws Exception
    {
        // Rank 0 is gone long before the others end: nobody waits for it, since nobody joins.
        try (LaunchedJob job = mpjrun(4, "leave,work,work,work"))
        {
            final int status = job.awaitExit(JOB_WITHIN);

            assertEquals(0, status, job::output);
            assertTrue(job.output().contains("rank 1 worked") && job.output().contains("rank 3 worked"), job::output);
            assertFalse(job.output().contains("mpjrun:"), job::output);
        }
    }

    @Test
    void shouldFailNamingTheRankThatLeftWithoutInitWhileAnotherWaitsInInit() throws Exception
    {
        // Rank 0 joins at once; rank 1 returns 3 s later without MPI.Init, so rank 0 could never start.
        try (LaunchedJob job = mpjrun(2, "init,leave-later"))
        {
            final List<Long> pids = job.awaitPids(2);
            final long startNs = System.nanoTime();
            final int status = job.awaitExit(JOB_WITHIN);
            final Duration took = Duration.ofNanos(System.nanoTime() - startNs);

            assertEquals(1, status, job::output);
            assertTrue(job.output().contains("mpjrun: the job could not start: rank 1 of 2 exited with status 0 " +
                "before it joined the job, while rank 0 waits for it in MPI.Init, which needs every rank to join"),
                job::output);
            // At once, not at the arrival timeout (60 s): 3 s of rank 1's sleep, then the report.
            assertTrue(took.compareTo(Duration.ofSeconds(3).plus(REPORTED_WITHIN)) < 0, "took " + took + "\n" +
                job.output());
            job.awaitEnded(pids, REPORTED_WITHIN);
        }
    }

    @Test
    void shouldNameARankKilledBeforeItJoinedWithinSeconds() throws Exception
    {
        try (LaunchedJob job = mpjrun(4, "init,idle,init,init"))
        {
            final List<Long> pids = job.awaitPids(4);
            // Long enough for ranks 0, 2 and 3 to be waiting for rank 1 in MPI.Init, usually.
            Thread.sleep(1_000);
            final long killedNs = System.nanoTime();
            LaunchedJob.signal(pids.get(1), "KILL");
            final int status = job.awaitExit(JOB_WITHIN);
            final Duration took = Duration.ofNanos(System.nanoTime() - killedNs);

            assertEquals(137, status, job::output);
            assertTrue(job.output().contains("mpjrun: rank 1 (pid " + pids.get(1) + ") was killed by signal 9 " +
                "(SIGKILL), exit status 137, before it joined the job"), job::output);
            assertFalse(job.output().contains("not one of its ranks"), job::output);
            assertTrue(took.compareTo(REPORTED_WITHIN) < 0, "reported " + took + " after the kill\n" + job.output());
            job.awaitEnded(pids, REPORTED_WITHIN);
        }
    }

    @Test
    void shouldNameTheRankThatDiedFirstWhenTheLauncherWasStoppedWhileItDied() throws Exception
    {
        // Read after a stop, the exits come in no particular order: one trial could name rank 1 by chance.
        for (int trial = 0; trial < 3; trial++)
        {
            try (LaunchedJob job = mpjrun(4, "init,join-idle,init,init"))
            {
                final List<Long> pids = job.awaitPids(4);
                for (int rank = 0; rank < 4; rank++)
                {
                    job.awaitOutput("rank " + rank + " joined");
                }
                LaunchedJob.signal(job.pid(), "STOP");
                LaunchedJob.signal(pids.get(1), "KILL");
                // The survivors notice rank 1's death in their barrier and fail, while the launcher cannot look.
                job.awaitEnded(List.of(pids.get(0), pids.get(2), pids.get(3)), SURVIVORS_FAIL_WITHIN);
                LaunchedJob.signal(job.pid(), "CONT");
                final int status = job.awaitExit(REPORTED_WITHIN);

                assertEquals(137, status, job::output);
                assertTrue(job.output().contains("mpjrun: rank 1 (pid " + pids.get(1) + ") was killed by signal 9 " +
                    "(SIGKILL), exit status 137\n"), job::output);
                assertTrue(job.output().contains("rank 1 died"), "no survivor noticed the death:\n" + job.output());
            }
        }
    }

    @Test
    void shouldEndEveryRankWithinSecondsOfSigtermToTheLauncher() throws Exception
    {
        // Ranks 0 and 2 wait in MPI.Init for ranks 1 and 3, which compute without it (as BufferBench1 does).
        try (LaunchedJob job = mpjrun(4, "init,idle,init,idle"))
        {
            final List<Long> pids = job.awaitPids(4);
            Thread.sleep(1_000);
            LaunchedJob.signal(job.pid(), "TERM");
            job.awaitEnded(pids, REPORTED_WITHIN);

            assertEquals(143, job.awaitExit(REPORTED_WITHIN), job::output);
        }
    }

    /** {@code bin/mpjrun -np N -dev shm -cp <test classes> InitOrNot MODES}, building nothing. */
    private LaunchedJob mpjrun(final int processes, final String modes) throws IOException
    {
        return LaunchedJob.start(List.of(MpjRunTest.repositoryRoot().resolve("bin/mpjrun").toString(),
            "-np", Integer.toString(processes), "-dev", "shm", "-cp", MpjRunTest.testClasses(), MAIN, modes),
            Map.of("KUPL_MPJRUN_CLASSPATH", System.getProperty("java.class.path"),
                "JAVA_HOME", System.getProperty("java.home"), "KUPL_SHM_DIR", shm.path().toString()));
    }
}
