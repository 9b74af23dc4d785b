package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/**
 * Calls in the wrong synchronisation state, and lock argument errors
 * (docs/conformance-checklist.md#epoch-errors).
 */
public final class EpochErrorCases
{
    private EpochErrorCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.EPOCH_ERRORS)
            .add("epoch.unlock-without-lock", Behaviour.EPOCH_LOCK_STATE,
                "unlock(r) without a lock on r: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.3; MPICH errors/rma/win_sync_unlock", EpochErrorCases::unlockWithoutLock)
            .add("epoch.lock-twice", Behaviour.EPOCH_LOCK_STATE,
                "locking a target this rank already holds: MPI_ERR_RMA_SYNC (and the first lock still works)",
                "MPI-4.1 §12.5.3; MPICH errors/rma/win_sync_lock_pt", EpochErrorCases::lockTwice)
            .add("epoch.flush-outside-epoch", Behaviour.EPOCH_FLUSH_STATE,
                "flush, flushAll, flushLocal, flushLocalAll outside a passive-target epoch: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.4 (flush only within passive target epochs); MPICH MPIDIG_EPOCH_CHECK_PASSIVE",
                EpochErrorCases::flushOutsideEpoch)
            .add("epoch.flush-unlocked-target", 2, Behaviour.EPOCH_FLUSH_STATE,
                "lock(0) then flush(1): MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.4", EpochErrorCases::flushUnlockedTarget)
            .add("epoch.put-unlocked-target", 2, Behaviour.EPOCH_REQUIRED,
                "lock(0) then a put to rank 1: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5 (RMA only inside an access epoch to that target)", EpochErrorCases::putUnlockedTarget)
            .add("epoch.unlock-inside-lock-all", Behaviour.EPOCH_LOCK_STATE,
                "unlock(r) inside a lockAll epoch: MPI_ERR_RMA_SYNC (only unlockAll closes it)",
                "MPI-4.1 §12.5.3", EpochErrorCases::unlockInsideLockAll)
            .add("epoch.lock-all-twice", Behaviour.EPOCH_LOCK_STATE,
                "lockAll while a lockAll epoch is open: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.3; MPICH MPIDIG_ACCESS_EPOCH_CHECK_NONE", EpochErrorCases::lockAllTwice)
            .add("epoch.lock-all-while-locked", Behaviour.EPOCH_LOCK_STATE,
                "lockAll while holding lock(r): MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.3", EpochErrorCases::lockAllWhileLocked)
            .add("epoch.unlock-all-without", Behaviour.EPOCH_LOCK_STATE,
                "unlockAll without lockAll: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.3", EpochErrorCases::unlockAllWithout)
            .add("epoch.every-call-needs-epoch", Behaviour.EPOCH_REQUIRED,
                "get, accumulate, getAccumulate, fetchAndOp and compareAndSwap before any epoch, and a put after a " +
                    "lock epoch and after a post/start epoch have closed: each MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5 (every RMA call inside an access epoch); MPICH errors/rma/win_sync_op",
                EpochErrorCases::everyCallNeedsEpoch)
            .add("epoch.lock-bad-type", Behaviour.EPOCH_LOCK_ARGUMENTS,
                "lock type 0 (neither EXCLUSIVE nor SHARED): MPI_ERR_LOCKTYPE",
                "MPI-4.1 §12.5.3, §12.6.2; docs/design.md#error-classes", EpochErrorCases::lockBadType)
            .add("epoch.lock-bad-assertion", Behaviour.EPOCH_LOCK_ARGUMENTS,
                "lock with MODE_NOSTORE (a fence assertion): MPI_ERR_ASSERT",
                "MPI-4.1 §12.5.5; Open MPI win_lock.c.in", EpochErrorCases::lockBadAssertion)
            .add("epoch.lock-bad-rank", Behaviour.EPOCH_LOCK_ARGUMENTS,
                "lock of rank = group size: MPI_ERR_RANK",
                "MPI-4.1 §12.6.2; Open MPI win_lock.c.in", EpochErrorCases::lockBadRank)
            .add("epoch.no-locks-hint", Behaviour.EPOCH_LOCK_ARGUMENTS,
                "lock on a window made with no_locks=true: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.2.1 (no_locks); Open MPI win_lock.c.in", EpochErrorCases::noLocksHint)
            .add("epoch.lock-in-busy-fence-epoch", Behaviour.EPOCH_MODE_SWITCH,
                "fence(0), a put, then lock: MPI_ERR_RMA_SYNC (end the fence epoch with NOSUCCEED first)",
                "MPI-4.1 §12.5 (access epochs disjoint); MPICH MPIDIG_FENCE_EPOCH_CHECK; docs/design.md#lock-after-fence-only-if-no-rma-since",
                EpochErrorCases::lockInBusyFenceEpoch)
            .add("epoch.get-after-lock-in-fence", Behaviour.EPOCH_MODE_SWITCH,
                "fence(0), then lock/get/unlock: the fence epoch is over, a further get is MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5; MPICH MPIDIG_FENCE_EPOCH_CHECK; docs/design.md#lock-after-fence-only-if-no-rma-since",
                EpochErrorCases::getAfterLockInFence)
            .add("epoch.usable-after-error", Behaviour.EPOCH_RECOVERABLE,
                "after an MPI_ERR_RMA_SYNC (unlock without lock) the window works: lock, put, unlock, value there",
                "MPI-4.1 §12.6 (errors with ERRORS_RETURN leave the object usable)", EpochErrorCases::usableAfterError)
            .list();
    }

    private static void unlockWithoutLock(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "unlock without lock", () -> win.unlock(c.rank()));
    }

    private static void lockTwice(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "second lock", () -> win.lock(Win.LOCK_SHARED, c.rank(), 0));
        win.unlock(c.rank());
    }

    private static void flushOutsideEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "flush in a fence epoch", () -> win.flush(c.rank()));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "flushAll", win::flushAll);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "flushLocal", () -> win.flushLocal(c.rank()));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "flushLocalAll", win::flushLocalAll);
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void flushUnlockedTarget(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lock(Win.LOCK_SHARED, 0, 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "flush(1) under lock(0)", () -> win.flush(1));
        win.unlock(0);
    }

    private static void putUnlockedTarget(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lock(Win.LOCK_SHARED, 0, 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "put to 1 under lock(0)",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, 1, 0, 1, MPI.LONG));
        win.unlock(0);
    }

    private static void unlockInsideLockAll(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lockAll(0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "unlock inside lockAll", () -> win.unlock(c.rank()));
        win.unlockAll();
    }

    private static void lockAllTwice(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lockAll(0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "second lockAll", () -> win.lockAll(0));
        win.unlockAll();
    }

    private static void lockAllWhileLocked(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "lockAll under lock", () -> win.lockAll(0));
        win.unlock(c.rank());
    }

    private static void unlockAllWithout(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "unlockAll", win::unlockAll);
    }

    private static void everyCallNeedsEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final long at = c.disp(win, c.rank(), 0);
        final long[] one = {1};
        final long[] result = new long[1];
        c.expectError(ErrorClass.ERR_RMA_SYNC, "get", () -> win.get(result, 0, 1, MPI.LONG, c.rank(), at,
            1, MPI.LONG));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "accumulate", () -> win.accumulate(one, 0, 1, MPI.LONG,
            c.rank(), at, 1, MPI.LONG, MPI.SUM));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "getAccumulate", () -> win.getAccumulate(one, 0, 1,
            MPI.LONG, result, 0, 1, MPI.LONG, c.rank(), at, 1, MPI.LONG, MPI.SUM));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "fetchAndOp", () -> win.fetchAndOp(one, 0, result, 0,
            MPI.LONG, c.rank(), at, MPI.SUM));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "compareAndSwap", () -> win.compareAndSwap(one, 0, one, 0,
            result, 0, MPI.LONG, c.rank(), at));
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        win.unlock(c.rank());
        c.expectError(ErrorClass.ERR_RMA_SYNC, "put after unlock", () -> win.put(one, 0, 1, MPI.LONG,
            c.rank(), at, 1, MPI.LONG));
        final mpi.Group self = win.getGroup().Incl(new int[] {c.rank()});
        win.post(self, 0);
        win.start(self, 0);
        win.complete();
        c.expectError(ErrorClass.ERR_RMA_SYNC, "put after complete", () -> win.put(one, 0, 1, MPI.LONG,
            c.rank(), at, 1, MPI.LONG));
        win.waitFor();
        c.checkEquals(0, Memory.getLong(c.memory(win), 0), "own long after the refused calls");
    }

    private static void lockBadType(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_LOCKTYPE, "lock type 0", () -> win.lock(0, c.rank(), 0));
    }

    private static void lockBadAssertion(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_ASSERT, "lock(NOSTORE)",
            () -> win.lock(Win.LOCK_SHARED, c.rank(), Win.MODE_NOSTORE));
        c.expectError(ErrorClass.ERR_ASSERT, "lockAll(NOPUT)", () -> win.lockAll(Win.MODE_NOPUT));
    }

    private static void lockBadRank(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_RANK, "lock(size)", () -> win.lock(Win.LOCK_SHARED, c.size(), 0));
    }

    private static void noLocksHint(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8, CaseContext.info("no_locks", "true"));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "lock with no_locks",
            () -> win.lock(Win.LOCK_SHARED, c.rank(), 0));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "lockAll with no_locks", () -> win.lockAll(0));
    }

    private static void lockInBusyFenceEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        win.put(new long[] {1}, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "lock after a put in a fence epoch",
            () -> win.lock(Win.LOCK_SHARED, c.rank(), 0));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void getAfterLockInFence(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        win.get(new long[1], 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG);
        win.unlock(c.rank());
        c.expectError(ErrorClass.ERR_RMA_SYNC, "get after the lock epoch",
            () -> win.get(new long[1], 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void usableAfterError(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "unlock without lock", () -> win.unlock(c.rank()));
        win.lock(Win.LOCK_EXCLUSIVE, c.rank(), 0);
        win.put(new long[] {3}, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG);
        win.unlock(c.rank());
        c.checkEquals(3, Memory.getLong(c.memory(win), 0), "value");
    }
}
