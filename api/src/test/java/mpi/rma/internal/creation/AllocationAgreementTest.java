package mpi.rma.internal.creation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import org.junit.jupiter.api.Test;

public class AllocationAgreementTest
{
    private static final long NODE = 42;

    @Test
    void shouldLayOutTheSizesAndUnitsEveryProcessGave()
    {
        final AllocationAgreement layout = AllocationAgreement.verdict(records(
            AllocationAgreement.record(16, 4, false, NODE, null),
            AllocationAgreement.record(0, 1, true, NODE, null),
            AllocationAgreement.record(8, 8, false, NODE, null)), null);

        assertArrayEquals(new long[] {16, 0, 8}, layout.sizes);
        assertArrayEquals(new int[] {4, 1, 8}, layout.dispUnits);
        assertTrue(layout.contiguous, "contiguous unless every process asks for noncontig");
    }

    @Test
    void shouldBeNoncontiguousWhenEveryProcessAsks()
    {
        final AllocationAgreement layout = AllocationAgreement.verdict(records(
            AllocationAgreement.record(16, 4, true, NODE, null),
            AllocationAgreement.record(0, 1, true, NODE, null)), null);

        assertFalse(layout.contiguous);
    }

    @Test
    void shouldNameTheRankAtFaultAndItsValueOnTheOthers()
    {
        final RmaException local = new RmaException(ErrorClass.ERR_SIZE, "size=-3 is negative");
        final long[] all = records(AllocationAgreement.record(8, 1, false, NODE, null),
            AllocationAgreement.record(-3, 1, false, NODE, local));

        final RmaException onOthers = assertThrows(RmaException.class, () -> AllocationAgreement.verdict(all, null));
        final RmaException onCulprit = assertThrows(RmaException.class, () -> AllocationAgreement.verdict(all, local));

        assertEquals(ErrorClass.ERR_SIZE, onOthers.errorClass());
        assertTrue(onOthers.getMessage().contains("rank 1 called it wrongly (its size=-3 is negative"),
            onOthers.getMessage());
        assertSame(local, onCulprit);
    }

    @Test
    void shouldRefuseProcessesOnDifferentNodesAsErrRmaShared()
    {
        final RmaException e = assertThrows(RmaException.class, () -> AllocationAgreement.verdict(records(
            AllocationAgreement.record(8, 1, false, NODE, null),
            AllocationAgreement.record(8, 1, false, NODE + 1, null)), null));

        assertEquals(ErrorClass.ERR_RMA_SHARED, e.errorClass());
        assertTrue(e.getMessage().contains("Shared.split"), e.getMessage());
    }

    private static long[] records(final long[]... perRank)
    {
        final long[] all = new long[perRank.length * perRank[0].length];
        for (int rank = 0; rank < perRank.length; rank++)
        {
            System.arraycopy(perRank[rank], 0, all, rank * perRank[rank].length, perRank[rank].length);
        }
        return all;
    }
}
