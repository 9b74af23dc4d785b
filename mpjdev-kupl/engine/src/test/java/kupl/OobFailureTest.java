package kupl;

import static kupl.FailureJobs.DEATH_NOTICE;
import static kupl.FailureJobs.JOB_TIMEOUT;
import static kupl.FailureJobs.KUPL_ERROR_EXIT;
import static kupl.FailureJobs.awaitOutput;
import static kupl.FailureJobs.env;
import static kupl.FailureJobs.outputWith;
import static kupl.FailureJobs.ranksBut;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import kupl.FailureJobs.ExitTimes;
import kupl.bootstrap.LocalJob;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A process whose out-of-band connection breaks (it exits, or closes its hub connection and
 * stays alive) before comm creation or before allocation: the other processes' comm create
 * or allocate returns an error within {@link FailureJobs#DEATH_NOTICE} rather than waiting
 * for ever.
 */
@Tag("slow")
@Timeout(60)
class OobFailureTest
{
    private static final int RANKS = 3;

    private static Path shmDir;

    @BeforeAll
    static void createSegmentDirectory() throws IOException
    {
        shmDir = FailureJobs.createShmDir("kupl-oob-failure-");
    }

    @AfterAll
    static void removeSegmentDirectory() throws IOException
    {
        FailureJobs.removeShmDir(shmDir);
    }

    static Stream<Arguments> shouldFailTheOthersWhenAProcessLeavesTheHub()
    {
        return Stream.of(
            Arguments.of(2, "before-connect", "exit", "leaving before connecting"),
            Arguments.of(1, "before-create", "exit", "leaving"),
            Arguments.of(0, "before-create", "close", "closed"),
            Arguments.of(0, "before-alloc", "exit", "leaving"),
            Arguments.of(2, "before-alloc", "close", "closed"));
    }

    @ParameterizedTest(name = "rank {0} leaves {1} ({2})")
    @MethodSource
    void shouldFailTheOthersWhenAProcessLeavesTheHub(final int victim, final String when, final String how,
        final String mark) throws Exception
    {
        try (LocalJob job = FailureJobs.start(OobDropRank.class, RANKS, env(shmDir), Integer.toString(victim), when, how))
        {
            final ExitTimes exits = new ExitTimes(job);
            awaitOutput(job, victim, mark, JOB_TIMEOUT);
            final long leftNs = System.nanoTime();
            for (final int survivor : ranksBut(job, victim))
            {
                if (!job.process(survivor).waitFor(DEATH_NOTICE.toMillis() + 2_000, TimeUnit.MILLISECONDS))
                {
                    // Closing the job (try-with-resources) kills what is left.
                    throw new AssertionError("rank " + survivor + " still waits " + DEATH_NOTICE.plusSeconds(2) +
                        " after rank " + victim + " left the hub " + when + "\n" + job.outputs());
                }
                final String output = outputWith(job, survivor, "error: ");
                final String context = "rank " + survivor + "\n" + job.outputs();
                assertEquals(KUPL_ERROR_EXIT, job.process(survivor).exitValue(), context);
                // A process that exits while others are still connecting makes the hub give up on
                // the job, so those find it unreachable.
                if ("before-alloc".equals(when) && "exit".equals(how))
                {
                    // The comm knows its ranks by now: the failed step names the one that died.
                    assertTrue(output.contains("error: PeerDeathException: rank " + victim + " died") &&
                        output.contains("dead rank: " + victim), context);
                }
                else
                {
                    assertTrue(output.contains("error: KuplException: ") && output.contains("out-of-band") ||
                        !"before-alloc".equals(when) && output.contains("error: hub unreachable"), context);
                }
                final long exitMs = exits.millisSince(survivor, leftNs);
                assertTrue(exitMs < DEATH_NOTICE.toMillis(), "rank " + survivor + " took " + exitMs + " ms\n" + context);
            }
        }
    }
}
