package faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import mpjrun.MpjDevice;
import mpjrun.MpjJobs;

/**
 * A rank killed while the others are in passive-target epochs, the launcher stopped (SIGSTOP), so that only
 * the survivors can end the job: 4 rank JVMs on shm, each but the victim locking every rank's memory in turn
 * (exclusive), accumulating into it and unlocking, never a fence; the victim computes and holds no lock when it
 * is killed with SIGKILL. On windows whose memory is reached by loads and stores ({@code Win.allocateShared},
 * {@code Win.allocate}) no survivor ever waits for the dead rank, and by messages ({@code Win.create}) a rank's
 * lock of its own memory waits on its agent alone: each survivor must still end, naming the dead rank, within
 * about a second of the kill (docs/faults.md#what-a-dead-process-does-on-each-device).
 */
@Tag("slow")
class PassiveTargetDeathTest
{
    private static final long SEED = 39;
    /**
     * The promise is 1 s; the assertion leaves room for a 2-core machine that runs the other module tests (a
     * survivor's exit is a JVM's exit). Measured here: 150-490 ms.
     */
    private static final long LIMIT_MS = 2_000;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldEndEverySurvivorOfAPassiveTargetJobWithinASecondNamingTheDeadRank() throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.SHM), "MPJ Express is not installed (apt-get install libmpj-java)");
        final ByteArrayOutputStream table = new ByteArrayOutputStream();
        final List<TrialResult> trials;
        try (PrintStream out = new PrintStream(table, true, StandardCharsets.UTF_8))
        {
            // A hang limit well above the promise: a job that outlives it is reported, not waited out at length.
            trials = FaultInjection.run(FaultInjection.Settings.parse("--seed", Long.toString(SEED), "--trials", "2",
                "--np", "4", "--device", "shm", "--phase", "passive-shared,passive-allocate,passive-create",
                "--launcher", "stopped", "--hang-limit-s", "8"), out, System.err);
        }
        System.out.println(table.toString(StandardCharsets.UTF_8));
        assertEquals(6, trials.size());
        for (final TrialResult trial : trials)
        {
            final String report = trial.summary() + "\n" + trial.output();
            assertFalse(trial.hung(), () -> "the survivors went on: " + report);
            assertTrue(trial.timeToFailMs() <= LIMIT_MS, () -> "the survivors took " + trial.timeToFailMs() +
                " ms to end: " + report);
            assertTrue(trial.namedBySurvivors(), () -> "the survivors did not name the dead rank: " + report);
            assertEquals(0, trial.orphans(), () -> "orphans: " + report);
            assertEquals(List.of(), trial.leftFiles(), () -> "files left: " + report);
            assertEquals(List.of(), trial.rawEngineExceptions(), () -> "an engine exception reached the program: " +
                report);
        }
    }
}
