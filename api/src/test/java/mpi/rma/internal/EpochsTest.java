package mpi.rma.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

public class EpochsTest
{
    private final Epochs epochs = new Epochs(4);

    @Test
    void shouldRefuseRmaBeforeAnyFenceAndAfterNoSucceed()
    {
        assertSync("no fence has been called", () -> epochs.checkAccess("Win.put", 1));
        epochs.fenced(0);
        epochs.checkAccess("Win.put", 1);
        epochs.checkAccess("Win.put", MPI.PROC_NULL);
        epochs.fenced(Win.MODE_NOSUCCEED);
        assertSync("MODE_NOSUCCEED", () -> epochs.checkAccess("Win.get", 1));
    }

    @Test
    void shouldOpenAccessToLockedTargetsOnly()
    {
        epochs.checkLock(2);
        epochs.locked(2, true);

        epochs.checkAccess("Win.put", 2);
        assertSync("holds locks, but not on rank 1", () -> epochs.checkAccess("Win.put", 1));
        assertSync("already holds a lock on rank 2", () -> epochs.checkLock(2));
        assertSync("a passive-target epoch is open (locks on rank 2 (exclusive))", epochs::checkFence);
        assertSync("already open", epochs::checkLockAll);
        assertSync("close it before freeing", epochs::checkFree);
        assertSync("holds no lock on rank 1", () -> epochs.checkUnlock(1));
        epochs.checkFlush("Win.flush", 2);
        epochs.checkFlush("Win.flushAll", -1);
        assertSync("none is open", () -> epochs.checkFlush("Win.flush", 3));
        assertTrue(epochs.checkUnlock(2));
        epochs.unlocked(2);
        epochs.checkFence();
        epochs.checkFree();
    }

    @Test
    void shouldKeepLockAllAndSingleLocksApart()
    {
        epochs.checkLockAll();
        epochs.lockedAll();

        epochs.checkAccess("Win.accumulate", 3);
        assertTrue(epochs.lockAllOpen());
        assertSync("locked by this process's lockAll", () -> epochs.checkLock(0));
        assertSync("close that epoch with win.unlockAll()", () -> epochs.checkUnlock(0));
        epochs.checkUnlockAll();
        epochs.unlockedAll();
        assertFalse(epochs.lockAllOpen());
        assertSync("no lockAll epoch is open", epochs::checkUnlockAll);
    }

    @Test
    void shouldLetALockFollowAFenceOnlyWithoutRmaSinceIt()
    {
        epochs.fenced(0);
        epochs.checkLock(1);
        epochs.fenced(0);
        epochs.checkAccess("Win.put", 1);

        assertSync("end it with win.fence(Win.MODE_NOSUCCEED)", () -> epochs.checkLock(1));
        assertSync("call win.fence(Win.MODE_NOSUCCEED) before freeing", epochs::checkFree);
        epochs.fenced(Win.MODE_NOSUCCEED);
        epochs.checkLock(1);
        epochs.checkFree();
    }

    @Test
    void shouldEndTheFenceEpochWhenALockEpochStarts()
    {
        epochs.fenced(0);
        epochs.locked(1, false);
        epochs.unlocked(1);

        assertSync("no fence epoch is open", () -> epochs.checkAccess("Win.get", 1));
    }

    @Test
    void shouldTreatProcNullAsATargetOfItsOwn()
    {
        epochs.checkLock(MPI.PROC_NULL);
        epochs.locked(MPI.PROC_NULL, true);

        epochs.checkAccess("Win.put", MPI.PROC_NULL);
        epochs.checkFlush("Win.flush", MPI.PROC_NULL);
        assertFalse(epochs.checkUnlock(MPI.PROC_NULL));
        epochs.unlocked(MPI.PROC_NULL);
        assertSync("holds no lock on MPI.PROC_NULL", () -> epochs.checkUnlock(MPI.PROC_NULL));
    }

    @Test
    void shouldOpenAccessToTheStartGroupOnly()
    {
        epochs.checkStart();
        epochs.started(new int[] {1, 3});

        epochs.checkAccess("Win.put", 1);
        epochs.checkAccess("Win.get", 3);
        epochs.checkAccess("Win.put", MPI.PROC_NULL);
        assertSync("rank 2 is not in the group given to win.start to ranks [1, 3]",
            () -> epochs.checkAccess("Win.put", 2));
        assertSync("already open: call win.complete() first", epochs::checkStart);
        assertSync("access epochs do not overlap: call win.complete() first", () -> epochs.checkLock(1));
        assertSync("access epochs do not overlap", epochs::checkLockAll);
        assertSync("end it with win.complete()", epochs::checkFence);
        assertSync("end it before freeing", epochs::checkFree);
        assertEquals(2, epochs.pscw().checkComplete().length);
        epochs.pscw().completed();

        assertSync("no access epoch from win.start is open: call win.start(group, 0) first",
            epochs.pscw()::checkComplete);
        assertSync("no fence has been called", () -> epochs.checkAccess("Win.put", 1));
        epochs.checkFence();
        epochs.checkFree();
    }

    @Test
    void shouldKeepTheExposureEpochUntilWait()
    {
        assertSync("Win.waitFor: no exposure epoch from win.post is open: call win.post(group, 0) first",
            () -> epochs.pscw().checkWait("Win.waitFor"));
        assertSync("Win.test: no exposure epoch", () -> epochs.pscw().checkWait("Win.test"));
        epochs.checkPost();
        epochs.posted(new int[] {0});

        assertSync("already open: call win.waitFor()", epochs::checkPost);
        assertSync("an exposure epoch from win.post to ranks [0] (end it with win.waitFor())", epochs::checkFence);
        assertSync("end it before freeing", epochs::checkFree);
        // An exposure epoch does not stop this process from accessing others.
        epochs.checkLock(2);
        epochs.checkStart();
        epochs.pscw().checkWait("Win.waitFor");
        epochs.pscw().waited();

        epochs.checkFence();
        epochs.checkFree();
    }

    @Test
    void shouldRefuseStartInsideALockEpochAndAfterFenceTraffic()
    {
        epochs.locked(2, false);
        assertSync("close it with win.unlock(rank) before win.start", epochs::checkStart);
        epochs.unlocked(2);
        epochs.fenced(0);
        epochs.checkAccess("Win.put", 1);

        assertSync("before starting an access epoch", epochs::checkStart);
        assertSync("before starting an exposure epoch", epochs::checkPost);
        epochs.fenced(Win.MODE_NOSUCCEED);
        epochs.checkStart();
    }

    @Test
    void shouldEndAnIdleFenceEpochWhenStartOrPostOpensOne()
    {
        epochs.fenced(0);
        epochs.started(new int[] {1});
        epochs.pscw().completed();

        assertSync("no fence epoch is open", () -> epochs.checkAccess("Win.get", 1));
    }

    private static void assertSync(final String messagePart, final Executable call)
    {
        final RmaException e = assertThrows(RmaException.class, call);
        assertEquals(ErrorClass.ERR_RMA_SYNC, e.errorClass());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }
}
