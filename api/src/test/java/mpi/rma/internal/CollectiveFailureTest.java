package mpi.rma.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import org.junit.jupiter.api.Test;

public class CollectiveFailureTest
{
    private final HeapSharedMemory memory = new HeapSharedMemory(2, 8);

    @Test
    void shouldFailOnlyTheCallThatWasRecorded()
    {
        final CollectiveFailure culprit = new CollectiveFailure(memory.clientArea());
        final CollectiveFailure other = new CollectiveFailure(memory.clientArea());
        final long call = culprit.next();
        other.next();
        culprit.record(call, 3, ErrorClass.ERR_ASSERT);

        final RmaException e = assertThrows(RmaException.class, () -> other.check(call, "Win.fence"));
        assertEquals(ErrorClass.ERR_ASSERT, e.errorClass());
        assertTrue(e.getMessage().contains("because rank 3 called it wrongly"), e.getMessage());
        other.check(other.next(), "Win.fence");
    }

    @Test
    void shouldNotLetTheNextCallsFailureHideThisOne()
    {
        final CollectiveFailure fast = new CollectiveFailure(memory.clientArea());
        final CollectiveFailure slow = new CollectiveFailure(memory.clientArea());
        final long first = fast.next();
        slow.next();
        fast.record(first, 1, ErrorClass.ERR_ASSERT);
        // The fast process leaves the fence, fails its next call too, before the slow one has looked.
        fast.record(fast.next(), 1, ErrorClass.ERR_RMA_SYNC);

        assertEquals(ErrorClass.ERR_ASSERT, assertThrows(RmaException.class, () -> slow.check(first,
            "f")).errorClass());
        assertEquals(ErrorClass.ERR_RMA_SYNC,
            assertThrows(RmaException.class, () -> slow.check(slow.next(), "f")).errorClass());
    }
}
