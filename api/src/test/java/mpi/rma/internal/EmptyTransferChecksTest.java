package mpi.rma.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.Datatype;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import org.junit.jupiter.api.Test;

/**
 * {@link AccessChecks} on transfers that move nothing (MPICH's badrma): they succeed with null buffers and
 * differing datatypes, reach no target, and still fail where MPI says every call fails.
 */
class EmptyTransferChecksTest
{
    /** Two processes of 400 bytes, unit 4: the window of the repro, Win.create(new int[100], 4, ...). */
    private final AccessChecks checks = new AccessChecks(new long[] {400, 400}, new int[] {4, 4}, false);
    private final Epochs epochs = new Epochs(2);

    @Test
    void shouldAcceptAnEmptyPutWithANullBufferOrDifferingTypesAndReachNoTarget()
    {
        epochs.fenced(0);

        assertEquals(AccessChecks.NO_TARGET, checks.transferOffset(epochs, "Win.put", null, 0, 0, MPI.INT, 1, 0, 0,
            MPI.INT, true));
        assertEquals(AccessChecks.NO_TARGET, checks.transferOffset(epochs, "Win.put", new double[1], 0, 0,
            MPI.DOUBLE, 1, 0, 0, MPI.INT, true));
        assertEquals(AccessChecks.NO_TARGET, checks.transferOffset(epochs, "Win.get", null, 0, 0, MPI.LONG, 1,
            1_000_000, 0, MPI.BYTE, false), "nothing is read, so any displacement is in range");
    }

    @Test
    void shouldTreatCopiesOfAZeroSizeTypeAsEmpty()
    {
        final Datatype nothing = Datatype.Contiguous(0, MPI.INT);
        epochs.fenced(0);

        assertEquals(AccessChecks.NO_TARGET, checks.transferOffset(epochs, "Win.put", null, 0, 5, nothing, 1, 0, 0,
            MPI.DOUBLE, true));
        assertNull(checks.resultTransfer(epochs, "Win.getAccumulate", null, 0, 3, nothing, null, 0, 0, MPI.INT, 1, 0,
            7, nothing, MPI.SUM));
        assertNull(checks.resultTransfer(epochs, "Win.getAccumulate", new long[1], 0, 1, MPI.LONG, null, 0, 0,
            MPI.INT, 1, 0, 0, MPI.INT, Win.NO_OP), "NO_OP ignores its origin: it moves nothing");
    }

    @Test
    void shouldStillRefuseAnEmptyTransferOutsideAnEpochToABadRankOrWithANegativeCountOrDisplacement()
    {
        assertEquals(ErrorClass.ERR_RMA_SYNC, errorOf(() -> checks.transferOffset(epochs, "Win.put", null, 0, 0,
            MPI.INT, 1, 0, 0, MPI.INT, true)));
        epochs.fenced(0);
        assertEquals(ErrorClass.ERR_RANK, errorOf(() -> checks.transferOffset(epochs, "Win.put", null, 0, 0,
            MPI.INT, 2, 0, 0, MPI.INT, true)));
        assertEquals(ErrorClass.ERR_COUNT, errorOf(() -> checks.transferOffset(epochs, "Win.put", null, 0, 0,
            MPI.INT, 1, 0, -1, MPI.INT, true)));
        assertEquals(ErrorClass.ERR_COUNT, errorOf(() -> checks.resultTransfer(epochs, "Win.getAccumulate", null, 0,
            0, MPI.INT, null, 0, -1, MPI.INT, 1, 0, 0, MPI.INT, MPI.SUM)));
        assertEquals(ErrorClass.ERR_DISP, errorOf(() -> checks.transferOffset(epochs, "Win.get", null, 0, 0,
            MPI.INT, 1, -1, 0, MPI.INT, false)));
        assertEquals(ErrorClass.ERR_TYPE, errorOf(() -> checks.transferOffset(epochs, "Win.put", null, 0, 0,
            null, 1, 0, 0, MPI.INT, true)));
    }

    @Test
    void shouldRefuseATransferWhereOnlyOneSideIsEmpty()
    {
        epochs.fenced(0);

        final RmaException e = assertThrows(RmaException.class, () -> checks.transferOffset(epochs, "Win.put",
            new int[1], 0, 1, MPI.INT, 1, 0, 0, MPI.INT, true));

        assertEquals(ErrorClass.ERR_COUNT, e.errorClass());
        assertTrue(e.getMessage().contains("originCount=1 and targetCount=0 differ"), e.getMessage());        assertEquals(ErrorClass.ERR_COUNT, errorOf(() -> checks.transferOffset(epochs, "Win.put", null, 0, 0,
            MPI.INT, 1, 0, 1, MPI.INT, true)), "an empty origin against one target int: the counts, not the buffer");
        assertEquals(ErrorClass.ERR_COUNT, errorOf(() -> checks.resultTransfer(epochs, "Win.getAccumulate", null, 0,
            0, MPI.INT, null, 0, 0, MPI.INT, 1, 0, 1, MPI.INT, Win.NO_OP)));
    }

    @Test
    void shouldAcceptAnEmptyTransferToProcNullWithoutLookingAtTheDisplacement()
    {
        epochs.fenced(0);

        assertEquals(AccessChecks.NO_TARGET, checks.transferOffset(epochs, "Win.put", null, 0, 0, MPI.INT,
            MPI.PROC_NULL, -1, 0, MPI.INT, true));
    }

    private static ErrorClass errorOf(final Runnable call)
    {
        return assertThrows(RmaException.class, call::run).errorClass();
    }
}
