package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code kupl_shm_peer_fence} between processes ({@link PeerFenceRank}): values passed back
 * and forth through shared memory with nothing but peer fences in between, for many
 * iterations; in the 3-process jobs only ranks 0 and 2 take part while rank 1 waits in a
 * full fence on the same window, which must neither block nor disturb them.
 */
class PeerFenceTest
{
    private static final int ITERATIONS = 2000;

    static Stream<Arguments> jobs()
    {
        return Stream.of(
            Arguments.of(2, 0, 1, Map.of()),
            Arguments.of(2, 1, 0, Map.of("KUPL_SHM_TYPE", "sls")),
            Arguments.of(3, 0, 2, Map.of()),
            Arguments.of(3, 2, 0, Map.of("KUPL_SHM_FENCE_ALGORITHM", "1", "KUPL_SHM_TYPE", "sls")));
    }

    @ParameterizedTest(name = "{0} processes, ranks {1} and {2}, {3}")
    @MethodSource("jobs")
    @Timeout(60)
    void shouldPassValuesBetweenPeersThroughPeerFences(final int processes, final int rankA, final int rankB,
        final Map<String, String> env) throws Exception
    {
        final Jobs.Finished job = Jobs.run(PeerFenceRank.class, processes, env,
            Integer.toString(ITERATIONS), Integer.toString(rankA), Integer.toString(rankB));

        job.assertAllPrinted("peer fence ok");
        for (int rank = 0; rank < processes; rank++)
        {
            // Peer fences are not full fences: only the final fence counts.
            assertEquals(List.of("completed 1 full fence(s)"), job.linesStartingWith(rank, "rank " + rank + " "),
                job.allOutputs());
        }
    }
}
