package mpi.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.MPI;
import mpi.rma.internal.Epochs;
import org.junit.jupiter.api.Test;

/** {@link Epochs#checkPassiveAccess}: request-based calls need a lock or lockAll epoch to their target. */
class PassiveAccessTest
{
    private final Epochs epochs = new Epochs(3);

    @Test
    void shouldRefuseRequestBasedCallsOutsideAnyEpochSayingToLock()
    {
        final RmaException e = assertThrows(RmaException.class, () -> epochs.checkPassiveAccess("Win.rPut", 1));

        assertEquals(ErrorClass.ERR_RMA_SYNC, e.errorClass());
        assertTrue(e.getMessage().contains("Win.rPut: request-based RMA calls belong in a passive-target epoch, " +
            "and none to rank 1 is open: call win.lock(Win.LOCK_SHARED, 1, 0) or win.lockAll(0) first"),
            e.getMessage());
    }

    @Test
    void shouldRefuseThemInAFenceEpochThoughPutIsAllowedThere()
    {
        epochs.fenced(0);
        epochs.checkAccess("Win.put", 1);

        final RmaException e = assertThrows(RmaException.class, () -> epochs.checkPassiveAccess("Win.rGet", 1));

        assertTrue(e.getMessage().contains("(a fence epoch is: use win.put, get or accumulate there)"),
            e.getMessage());
    }

    @Test
    void shouldAllowThemToLockedTargetsAndInLockAll()
    {
        epochs.locked(2, false);
        epochs.checkPassiveAccess("Win.rGet", 2);
        assertThrows(RmaException.class, () -> epochs.checkPassiveAccess("Win.rGet", 0));
        epochs.unlocked(2);

        epochs.lockedAll();
        epochs.checkPassiveAccess("Win.rAccumulate", 0);
        epochs.checkPassiveAccess("Win.rAccumulate", MPI.PROC_NULL);
        epochs.unlockedAll();

        assertThrows(RmaException.class, () -> epochs.checkPassiveAccess("Win.rGet", MPI.PROC_NULL));
        epochs.locked(MPI.PROC_NULL, true);
        epochs.checkPassiveAccess("Win.rGet", MPI.PROC_NULL);
    }
}
