package faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import mpjrun.MpjDevice;
import mpjrun.MpjJobs;

/**
 * A fixed-seed subset of {@code bin/faults}: real jobs, one rank killed inside a phase, the launcher
 * running or stopped. Every job must end on its own, leave no process and no file, and, where the
 * survivors can know (the engine's and the shm device's liveness checks), name the dead rank.
 */
@Tag("slow")
class FaultInjectionTest
{
    private static final long SEED = 7;
    /**
     * How long seeds are tried for a hang: until one hangs or this has passed, not a fixed count, since the
     * odds depend on the machine's load (under 2 of the other module tests at once, 10 seeds in a row ended
     * at once; alone, the first seed hangs), and the load changes while the search runs.
     */
    private static final long HANG_SEARCH_NS = TimeUnit.SECONDS.toNanos(140);

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldEndEveryJobNamingTheDeadRankWithoutOrphansOrFiles() throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.SHM), "MPJ Express is not installed (apt-get install libmpj-java)");
        final List<TrialResult> trials = new ArrayList<>();
        trials.addAll(run("--device", "shm", "--phase", "fence,lock-epoch", "--launcher",
            "running,stopped"));
        // The shared-memory collectives' waits (a Bcast's progress words among them) find the dead rank themselves.
        trials.addAll(run("--device", "shm", "--phase", "collectives", "--launcher", "stopped"));
        trials.addAll(run("--device", "multicore", "--phase", "fence", "--launcher", "running,stopped"));
        trials.addAll(run("--device", "niodev", "--phase", "fence", "--launcher", "stopped"));
        assertEquals(8, trials.size());
        for (final TrialResult trial : trials)
        {
            final String report = trial.summary() + "\n" + trial.output();
            assertFalse(trial.hung(), () -> "hung: " + report);
            assertEquals(0, trial.orphans(), () -> "orphans: " + report);
            assertEquals(List.of(), trial.leftFiles(), () -> "files left: " + report);
            if (trial.device() == MpjDevice.SHM)
            {
                assertTrue(trial.launcherStopped() ? trial.namedBySurvivors() : trial.namedByLauncher(),
                    () -> "the dead rank is not named: " + report);
                // MPJ Express's exceptions (or mpi.rma's) whichever path failed, the engine's only as their cause.
                assertEquals(List.of(), trial.rawEngineExceptions(), () -> "an engine exception reached the program: " +
                    report);
            }
            if (trial.device() == MpjDevice.NIODEV)
            {
                // niodev's ranks die only through the engine's fence, which names the rank.
                assertTrue(trial.namedBySurvivors(), () -> "the dead rank is not named: " + report);
            }
        }
    }

    /**
     * The suite can fail: MPJ Express's niodev does not notice a peer that died during a large message, unless
     * the kill finds a survivor reading from the dead rank's socket (then the job ends at once). Where the kill
     * lands depends on the machine's timing, so seeds are tried in turn until a job hangs (two in three did
     * here on a quiet machine, none of ten beside two other module tests), and that job must be reported as
     * hung and failed.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldReportAHangWhenTheSurvivorsCannotTellThatARankDied() throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.NIODEV), "MPJ Express is not installed (apt-get install libmpj-java)");
        final List<TrialResult> trials = new ArrayList<>();
        final long searchStart = System.nanoTime();
        for (long seed = SEED; System.nanoTime() - searchStart < HANG_SEARCH_NS &&
            trials.stream().noneMatch(TrialResult::hung); seed++)
        {
            trials.addAll(run(seed, "--device", "niodev", "--phase", "large-message", "--launcher", "stopped",
                "--hang-limit-s", "3"));
        }
        final TrialResult hung = trials.stream().filter(TrialResult::hung).findFirst().orElseThrow(() ->
            new AssertionError("no hang in " + trials.size() + " seeds tried for " +
                TimeUnit.NANOSECONDS.toSeconds(HANG_SEARCH_NS) + " s: " + trials.stream().map(TrialResult::summary)
                .toList()));
        assertTrue(hung.failed(), hung::summary);
    }

    @Test
    void shouldFindTheRanksSaidDeadByNumberInTheRanksOrTheLaunchersLines()
    {
        final String output = """
            [mpjrun] the job did not end within 10 ms: rank 4 was killed
            mpjrun: rank 2 (pid 77) was killed by signal 9 (SIGKILL), exit status 137; stopping the other ranks
            xdev.XDevException: shm device: rank 1 (pid 76) has died (exited without MPI.Finalize); rank 0 gave up
            kupl.PeerDeathException: rank 3 died: its process is gone; rank 0 waited 250 ms
            mpi.rma.RmaException: the out-of-band allgather callback returned -1 on rank 5
            mpi.rma.RmaException: fence: rank=6 is gone
            mpjrun: rank 7 (pid 80) exited with status 1
            """;
        assertEquals(Set.of(2), FaultTrial.ranksSaidDead(output, true));
        assertEquals(Set.of(1, 3, 6), FaultTrial.ranksSaidDead(output, false), "rank 0 and 5 are not said dead");
        assertEquals(Set.of(12), FaultTrial.ranksSaidDead("rank 12 has died", false));
    }

    @Test
    void shouldFindEngineExceptionsThatReachedTheProgramButNotThoseThatAreCauses()
    {
        final String output = """
            Exception in thread "main" kupl.PeerDeathException: rank 1 died
            [rank 2] kupl.KuplException: a fence failed
            Exception in thread "main" mpi.MPIException: xdev.XDevException: shm device: Barrier failed: rank 1 died
            Caused by: xdev.XDevException: shm device: Barrier failed: rank 1 died
            Caused by: kupl.PeerDeathException: rank 1 died
            	at kupl.Waiter$Wait.run(Waiter.java:10)
            mpi.rma.RmaException: Win.fence: rank 1 died
            """;
        final TrialResult trial = new TrialResult(MpjDevice.SHM, Phase.FENCE, true, SEED, 1, false, 10, Set.of(1),
            Set.of(), 0, List.of(), output);

        assertEquals(List.of("Exception in thread \"main\" kupl.PeerDeathException: rank 1 died",
            "[rank 2] kupl.KuplException: a fence failed"), trial.rawEngineExceptions());
    }

    @Test
    void shouldTellTheVictimFromOtherRanksSaidDeadWithoutCountingThemAsAFault()
    {
        final TrialResult trial = new TrialResult(MpjDevice.SHM, Phase.FENCE, true, SEED, 1, false, 10, Set.of(0, 1),
            Set.of(1), 0, List.of(), "");
        assertTrue(trial.namedBySurvivors() && trial.namedByLauncher(), trial.summary());
        assertEquals(Set.of(0), trial.othersSaidDead());
        assertFalse(trial.failed(), trial.summary());
        final TrialResult unnamed = new TrialResult(MpjDevice.SHM, Phase.FENCE, true, SEED, 1, false, 10, Set.of(2),
            Set.of(), 0, List.of(), "");
        assertFalse(unnamed.namedBySurvivors() || unnamed.namedByLauncher(), unnamed.summary());
        assertTrue(new TrialResult(MpjDevice.SHM, Phase.FENCE, true, SEED, 1, false, 10, Set.of(), Set.of(), 1,
            List.of(), "").failed(), "an orphan is a fault");
        assertTrue(new TrialResult(MpjDevice.SHM, Phase.FENCE, true, SEED, 1, false, 10, Set.of(), Set.of(), 0,
            List.of("/dev/shm/x/y"), "").failed(), "a file left is a fault");
    }

    @Test
    void shouldRejectABadCommandLineNamingTheArgument()
    {
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> FaultInjection.Settings.parse("--phase", "fences")).getMessage().contains("phase=fences"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> FaultInjection.Settings.parse("--trials", "0")).getMessage().contains("--trials=0"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> FaultInjection.Settings.parse("--launcher", "paused")).getMessage().contains("launcher=paused"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> FaultInjection.Settings.parse("--trial-seed", "5")).getMessage().contains("one --device"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> FaultInjection.Settings.parse("--seed")).getMessage().contains("--seed needs a value"));
    }

    @Test
    void shouldGiveEveryTrialItsOwnSeedWhateverElseTheRunCovers()
    {
        final long shmFence = FaultInjection.trialSeed(SEED, MpjDevice.SHM, Phase.FENCE, true, 0);
        assertEquals(shmFence, FaultInjection.trialSeed(SEED, MpjDevice.SHM, Phase.FENCE, true, 0));
        assertFalse(shmFence == FaultInjection.trialSeed(SEED, MpjDevice.SHM, Phase.FENCE, false, 0));
        assertFalse(shmFence == FaultInjection.trialSeed(SEED, MpjDevice.SHM, Phase.FENCE, true, 1));
        assertFalse(shmFence == FaultInjection.trialSeed(SEED, MpjDevice.NIODEV, Phase.FENCE, true, 0));
        assertFalse(shmFence == FaultInjection.trialSeed(SEED, MpjDevice.SHM, Phase.FREE, true, 0));
    }

    private static List<TrialResult> run(final String... options) throws Exception
    {
        return run(SEED, options);
    }

    private static List<TrialResult> run(final long seed, final String... options) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("--seed", Long.toString(seed), "--trials", "1"));
        args.addAll(List.of(options));
        final ByteArrayOutputStream table = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(table, true, StandardCharsets.UTF_8))
        {
            return FaultInjection.run(FaultInjection.Settings.parse(args.toArray(String[]::new)), out, System.err);
        }
    }
}
