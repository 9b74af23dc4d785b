package kupl;

import static kupl.FailureJobs.DEATH_NOTICE;
import static kupl.FailureJobs.JOB_TIMEOUT;
import static kupl.FailureJobs.KUPL_ERROR_EXIT;
import static kupl.FailureJobs.awaitOutput;
import static kupl.FailureJobs.env;
import static kupl.FailureJobs.outputWith;
import static kupl.FailureJobs.ranksBut;
import static kupl.FailureJobs.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;

import kupl.FailureJobs.ExitTimes;
import kupl.bootstrap.LocalJob;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A process killed with SIGKILL while the others wait for it in a fence: the others must
 * not hang, but fail within {@link FailureJobs#DEATH_NOTICE} with a {@link PeerDeathException}
 * naming the dead rank, whatever the fence algorithm and liveness interval.
 */
@Timeout(90)
class PeerDeathTest
{
    private static Path shmDir;

    @BeforeAll
    static void createSegmentDirectory() throws IOException
    {
        shmDir = FailureJobs.createShmDir("kupl-peer-death-");
    }

    @AfterAll
    static void removeSegmentDirectory() throws IOException
    {
        FailureJobs.removeShmDir(shmDir);
    }

    static Stream<Arguments> shouldNameARankKilledWhileTheOthersWaitInAFence()
    {
        // An empty KUPL_SHM_LIVENESS_MS is the default interval (250 ms).
        return Stream.of(Arguments.of("1", ""), Arguments.of("1", "20"), Arguments.of("2", ""), Arguments.of("2", "20"));
    }

    @ParameterizedTest(name = "KUPL_SHM_FENCE_ALGORITHM={0} KUPL_SHM_LIVENESS_MS={1}")
    @MethodSource
    void shouldNameARankKilledWhileTheOthersWaitInAFence(final String algorithm, final String livenessMs)
        throws Exception
    {
        final int victim = 2;
        try (LocalJob job = start(FaultRank.class, 4,
            env(shmDir, "KUPL_SHM_FENCE_ALGORITHM", algorithm, "KUPL_SHM_LIVENESS_MS", livenessMs),
            "victim=" + victim, "action=sleep-after-fence", "rounds=forever"))
        {
            final ExitTimes exits = new ExitTimes(job);
            awaitOutput(job, victim, "ready", JOB_TIMEOUT);
            awaitOutput(job, ranksBut(job, victim), "fencing");
            // The survivors are now waiting in the second fence, which the victim never enters.
            Thread.sleep(100);
            final long killNs = System.nanoTime();
            job.kill(victim);

            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertSurvivorsNameTheDeadRank(job, exits, codes, victim, killNs, "");
        }
    }

    @ParameterizedTest(name = "KUPL_SHM_FENCE_ALGORITHM={0}")
    @ValueSource(strings = {"1", "2"})
    void shouldNameARankKilledAtARandomMomentOfAFenceLoop(final String algorithm) throws Exception
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        final int size = 3 + random.nextInt(2);
        final int victim = random.nextInt(size);
        final long delayMs = random.nextInt(400);
        final String scenario = "seed " + seed + ": " + size + " processes, rank " + victim + " killed " + delayMs +
            " ms into the fence loop";
        try (LocalJob job = start(FaultRank.class, size, env(shmDir, "KUPL_SHM_FENCE_ALGORITHM", algorithm),
            "rounds=forever"))
        {
            final ExitTimes exits = new ExitTimes(job);
            awaitOutput(job, FailureJobs.allRanks(job), "fencing");
            Thread.sleep(delayMs);
            final long killNs = System.nanoTime();
            job.kill(victim);

            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertSurvivorsNameTheDeadRank(job, exits, codes, victim, killNs, scenario);
        }
    }

    /** Every survivor failed with a PeerDeathException naming {@code victim}, in time. */
    static void assertSurvivorsNameTheDeadRank(final LocalJob job, final ExitTimes exits, final int[] codes,
        final int victim, final long killNs, final String scenario) throws InterruptedException
    {
        for (final int survivor : ranksBut(job, victim))
        {
            outputWith(job, survivor, "dead rank: ");
        }
        final String context = (scenario.isEmpty() ? "" : scenario + "\n") + job.outputs();
        assertEquals(137, codes[victim], "the victim should have been killed by SIGKILL\n" + context);
        for (final int survivor : ranksBut(job, victim))
        {
            final String output = job.output(survivor);
            assertEquals(KUPL_ERROR_EXIT, codes[survivor], "rank " + survivor + " should fail with an engine error\n" +
                context);
            assertTrue(output.contains("error: PeerDeathException: rank " + victim + " died"),
                "rank " + survivor + " should report the death of rank " + victim + "\n" + context);
            assertTrue(output.contains("dead rank: " + victim), "rank " + survivor + "'s exception should name rank " +
                victim + "\n" + context);
            final long exitMs = exits.millisSince(survivor, killNs);
            assertTrue(exitMs < DEATH_NOTICE.toMillis(), "rank " + survivor + " exited " + exitMs +
                " ms after the kill, more than " + DEATH_NOTICE + "\n" + context);
        }
    }
}
