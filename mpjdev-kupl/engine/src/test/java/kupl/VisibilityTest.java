package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fence's memory guarantee between real processes: each rank writes its segment, fences,
 * and reads every other rank's segment ({@link VisibilityRank}), over fence algorithms, shm
 * types, contiguity and job sizes. Every size from 1 to 5 runs with the defaults (rd, posix,
 * not contiguous); every other combination runs with 3 processes (an rd "extra" rank) and 4
 * (a power of two), which keeps the suite to a few seconds per combination.
 */
@Tag("slow")
class VisibilityTest
{
    private static final int ROUNDS = 20;

    static Stream<Arguments> configurations()
    {
        final List<Arguments> configurations = new ArrayList<>();
        for (int size = 1; size <= 5; size++)
        {
            configurations.add(Arguments.of(FenceAlgorithm.RD, ShmType.POSIX, false, size));
        }
        for (final FenceAlgorithm algorithm : FenceAlgorithm.values())
        {
            for (final ShmType type : ShmType.values())
            {
                for (final boolean contiguous : new boolean[] {false, true})
                {
                    if (algorithm == FenceAlgorithm.RD && type == ShmType.POSIX && !contiguous)
                    {
                        continue;
                    }
                    configurations.add(Arguments.of(algorithm, type, contiguous, 3));
                    configurations.add(Arguments.of(algorithm, type, contiguous, 4));
                }
            }
        }
        return configurations.stream();
    }

    @ParameterizedTest(name = "{0} {1} contiguous={2} processes={3}")
    @MethodSource("configurations")
    @Timeout(60)
    void shouldSeeEveryRanksWritesAfterFence(final FenceAlgorithm algorithm, final ShmType type,
        final boolean contiguous, final int processes) throws Exception
    {
        final Jobs.Finished job = Jobs.run(VisibilityRank.class, processes,
            Map.of("KUPL_SHM_FENCE_ALGORITHM", algorithm.envValue(), "KUPL_SHM_TYPE", type.envValue()),
            Integer.toString(ROUNDS), contiguous ? "1" : "0");

        job.assertAllPrinted("visibility ok");
        for (int rank = 0; rank < processes; rank++)
        {
            assertEquals(List.of(algorithm + " " + type), job.linesStartingWith(rank, "config "), job.allOutputs());
        }
    }
}
