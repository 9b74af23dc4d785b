package kupl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A rank that leaves its fence loop early (an exception unwinding through
 * try-with-resources frees its window and destroys its comm) must not leave the others
 * waiting for ever in a fence it will never enter: they fail with a message naming it, free
 * in turn, and every process ends ({@link EarlyFreeRank}, {@link FreeBarrier}).
 */
class EarlyFreeTest
{
    @ParameterizedTest(name = "KUPL_SHM_FENCE_ALGORITHM={0}, {1} processes, rank {2} quits")
    @CsvSource({"1, 3, 1", "2, 3, 1", "2, 4, 0", "2, 2, 1"})
    @Timeout(60)
    void shouldFailTheOthersFencesWhenOneProcessFreesEarly(final String algorithm, final int processes,
        final int quitter) throws Exception
    {
        final Jobs.Finished job = Jobs.run(EarlyFreeRank.class, processes,
            Map.of("KUPL_SHM_FENCE_ALGORITHM", algorithm, "KUPL_SHM_LIVENESS_MS", "50"),
            Integer.toString(quitter), "5", "20");

        final int[] ones = new int[processes];
        java.util.Arrays.fill(ones, 1);
        assertArrayEquals(ones, job.exitCodes(), job.allOutputs());
        for (int rank = 0; rank < processes; rank++)
        {
            if (rank == quitter)
            {
                assertEquals(List.of("quit"), job.outputs().get(rank).lines().toList(), job.allOutputs());
            }
            else
            {
                final String output = job.outputs().get(rank);
                assertTrue(output.contains("fence failed: rank " + quitter + " freed the window after 5 fences"),
                    "rank " + rank + " should name the rank that freed early\n" + job.allOutputs());
            }
        }
    }
}
