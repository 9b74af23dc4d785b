package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Several windows and several comms alive at once, between processes: twenty windows of
 * different sizes on one comm, freed in another order than allocated
 * ({@link ManyWindowsRank}); and comms over overlapping process sets, each with its own
 * out-of-band sub-group, whose fences must not interfere ({@link OverlappingCommsRank}).
 */
class CommsAndWindowsTest
{
    @ParameterizedTest(name = "{0} contiguous={1}")
    @CsvSource({"posix, 0", "sls, 1"})
    @Timeout(60)
    void shouldKeepManyWindowsUsableAndFreeThemInAnyOrder(final String shmType, final String contiguous)
        throws Exception
    {
        final Jobs.Finished job = Jobs.run(ManyWindowsRank.class, 3, Map.of("KUPL_SHM_TYPE", shmType), contiguous);

        job.assertAllPrinted("many windows ok");
    }

    @Test
    @Timeout(60)
    void shouldFenceCommsOverOverlappingProcessSetsIndependently() throws Exception
    {
        final Jobs.Finished job = Jobs.run(OverlappingCommsRank.class, 4, Map.of());

        job.assertAllPrinted("overlapping comms ok");
        assertEquals(List.of("all: rank 0 of 4", "{0,1}: rank 0 of 2"), job.linesStartingWith(0, "comm "),
            job.allOutputs());
        assertEquals(List.of("all: rank 1 of 4", "{0,1}: rank 1 of 2", "{1,2,3}: rank 0 of 3"),
            job.linesStartingWith(1, "comm "), job.allOutputs());
        assertEquals(List.of("all: rank 2 of 4", "{1,2,3}: rank 1 of 3"), job.linesStartingWith(2, "comm "),
            job.allOutputs());
        assertEquals(List.of("all: rank 3 of 4", "{1,2,3}: rank 2 of 3"), job.linesStartingWith(3, "comm "),
            job.allOutputs());
    }
}
