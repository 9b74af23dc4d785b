package kupl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Collective calls agree on failure: when one process cannot take part in a window
 * allocation (bad size, settings that differ from the others'), every process's allocation
 * fails, with the same message naming the process at fault, and none is left waiting
 * ({@link CollectiveFailureRank}). Where the comm itself is sound, a good allocation then
 * works again.
 */
@Tag("slow")
class CollectiveFailureTest
{
    private static final int PROCESSES = 3;

    @ParameterizedTest(name = "{0} on rank {1}")
    @CsvSource(delimiter = '|', value = {
        "negative-size | 2 | win alloc (sizes) failed on rank 2: size=-7 is negative: give 0 or more bytes",
        "negative-size | 0 | win alloc (sizes) failed on rank 0: size=-7 is negative: give 0 or more bytes",
        "too-big       | 1 | win alloc (creating shared memory) failed on rank 1: not enough shared memory: the window needs 1024.00 GiB"})
    @Timeout(60)
    void shouldFailOnEveryRankWithSameMessageAndRecover(final String scenario, final int badRank,
        final String expected) throws Exception
    {
        final Jobs.Finished job = Jobs.run(CollectiveFailureRank.class, PROCESSES, Map.of(), scenario,
            Integer.toString(badRank));

        job.assertAllPrinted("recovered");
        for (int rank = 0; rank < PROCESSES; rank++)
        {
            final List<String> failures = job.linesStartingWith(rank, "alloc failed: ");
            assertEquals(1, failures.size(), job.allOutputs());
            assertTrue(failures.get(0).startsWith(expected), "rank " + rank + ": " + failures.get(0) + "\n" +
                job.allOutputs());
        }
        assertEquals(job.linesStartingWith(0, "alloc failed: "), job.linesStartingWith(PROCESSES - 1, "alloc failed: "),
            "the same message everywhere\n" + job.allOutputs());
    }

    @ParameterizedTest(name = "{0} differs on rank {1}")
    @CsvSource({"fence-algorithm, 0", "fence-algorithm, 2", "shm-type, 1", "contiguity, 1"})
    @Timeout(60)
    void shouldFailOnEveryRankWhenSettingsDiffer(final String scenario, final int badRank) throws Exception
    {
        final Jobs.Finished job = Jobs.run(CollectiveFailureRank.class, PROCESSES, Map.of(), scenario,
            Integer.toString(badRank));

        assertArrayEquals(new int[PROCESSES], job.exitCodes(), job.allOutputs());
        // Every process compares everyone with rank 0: the first that differs is named.
        final int named = badRank == 0 ? 1 : badRank;
        for (int rank = 0; rank < PROCESSES; rank++)
        {
            final List<String> failures = job.linesStartingWith(rank, "alloc failed: ");
            assertEquals(1, failures.size(), job.allOutputs());
            assertTrue(failures.get(0).startsWith("win alloc failed: rank " + named + " uses other settings than rank 0"),
                failures.get(0) + "\n" + job.allOutputs());
        }
        if (scenario.equals("contiguity"))
        {
            job.assertAllPrinted("recovered");
        }
    }

    /**
     * Segment sizes that are each valid but add up past {@code Long.MAX_VALUE} in one sls
     * object: every rank must fail with the same error, none may wait for the others.
     */
    @Test
    @Timeout(60)
    void shouldFailOnEveryRankWhenSegmentsAddUpPastLongRange() throws Exception
    {
        final KuplConfig sls = KuplConfig.defaults().withShmType(ShmType.SLS);

        final List<ThreadOob.Outcome<String>> outcomes = ThreadOob.run(2, Duration.ofSeconds(20), (rank, oob) ->
        {
            try (ShmComm comm = ShmComm.create(2, rank, ThreadOob.pid(), oob, null, sls))
            {
                try
                {
                    comm.allocate(1L << 62, false).close();
                    return "alloc succeeded";
                }
                catch (final KuplException e)
                {
                    return e.getMessage();
                }
            }
        });

        final List<String> messages = new ArrayList<>();
        outcomes.forEach(o -> messages.add(String.valueOf(o.orThrow())));
        assertAll(
            () -> assertEquals(messages.get(0), messages.get(1), messages.toString()),
            () -> assertTrue(messages.get(0).contains("4611686018427387904"), messages.toString()));
    }

    @Test
    @Timeout(30)
    void shouldFailCommCreateOnEveryThreadWhenOneGivesWrongPid() throws Exception
    {
        final List<ThreadOob.Outcome<ShmComm>> outcomes = ThreadOob.run(3, Duration.ofSeconds(20), (rank, oob) ->
            ShmComm.create(3, rank, rank == 1 ? 1 : ThreadOob.pid(), oob, null));

        for (final ThreadOob.Outcome<ShmComm> outcome : outcomes)
        {
            final KuplException error = assertInstanceOf(KuplException.class, outcome.failure(), outcomes.toString());
            assertEquals("comm create (exchange of identities) failed on rank 1: pid argument 1 is not this process's id " +
                ThreadOob.pid(), error.getMessage());
        }
    }
}
