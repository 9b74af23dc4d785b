package mpi.rma.internal;

import java.lang.invoke.VarHandle;

import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.vocabulary.Assertions;
import mpi.rma.internal.vocabulary.LockTypes;

/**
 * The passive-target epochs of one window ({@code Win.lock}, {@code unlock}, {@code lockAll}, {@code unlockAll},
 * MPI-4.1 §12.5.3): their checks, and which targets' locks this process holds and how. A lock taken with
 * {@code MODE_NOCHECK} is not taken at all, so unlock must know whether there is one to release: that is the
 * bookkeeping kept here, out of the facade, which only routes these calls and their errors.
 */
public final class PassiveLocks
{
    private final AccessChecks checks;
    private final Epochs epochs;
    private final TargetPath targets;
    /** The window's info said no_locks=true: every lock is refused. */
    private final boolean noLocks;
    /** Whether this process holds target i's lock (not with MODE_NOCHECK), and how. */
    private final boolean[] held;
    private final boolean[] exclusive;

    /** The locks of a window of {@code size} processes, reached through {@code targets}. */
    public PassiveLocks(final int size, final AccessChecks checks, final Epochs epochs, final TargetPath targets,
        final WindowHints hints)
    {
        this.checks = checks;
        this.epochs = epochs;
        this.targets = targets;
        this.noLocks = hints.noLocks();
        this.held = new boolean[size];
        this.exclusive = new boolean[size];
    }

    /** {@code Win.lock}: checks the arguments and the epoch, then returns once the lock is held. */
    public void lock(final String call, final int lockType, final int rank, final int assertion)
    {
        if (lockType != LockTypes.EXCLUSIVE && lockType != LockTypes.SHARED)
        {
            throw new RmaException(ErrorClass.ERR_LOCKTYPE, call + ": lockType=" + lockType +
                " is neither Win.LOCK_EXCLUSIVE nor Win.LOCK_SHARED");
        }
        AccessChecks.checkLockAssertion(call, assertion);
        checks.checkRank(call, "rank", rank, true);
        checkAllowed(call);
        epochs.checkLock(rank);
        final boolean isExclusive = lockType == LockTypes.EXCLUSIVE;
        if (rank != MPI.PROC_NULL && (assertion & Assertions.NOCHECK) == 0)
        {
            targets.lock(call, rank, isExclusive);
            held[rank] = true;
            exclusive[rank] = isExclusive;
        }
        epochs.locked(rank, isExclusive);
    }

    /** {@code Win.unlock}: completes the epoch's RMA calls at origin and target, and releases a lock held. */
    public void unlock(final String call, final int rank)
    {
        checks.checkRank(call, "rank", rank, true);
        epochs.checkUnlock(rank);
        VarHandle.fullFence();
        if (rank != MPI.PROC_NULL)
        {
            targets.unlock(call, rank, held[rank], exclusive[rank]);
            held[rank] = false;
        }
        epochs.unlocked(rank);
    }

    /** {@code Win.lockAll}: a shared lock on every rank, unless {@code MODE_NOCHECK}. */
    public void lockAll(final String call, final int assertion)
    {
        AccessChecks.checkLockAssertion(call, assertion);
        checkAllowed(call);
        epochs.checkLockAll();
        if ((assertion & Assertions.NOCHECK) == 0)
        {
            // In rank order, as every process does: two lockAlls never wait on each other.
            for (int peer = 0; peer < held.length; peer++)
            {
                targets.lock(call, peer, false);
                held[peer] = true;
                exclusive[peer] = false;
            }
        }
        epochs.lockedAll();
    }

    /** {@code Win.unlockAll}: ends the lockAll epoch, releasing every lock it took. */
    public void unlockAll(final String call)
    {
        epochs.checkUnlockAll();
        VarHandle.fullFence();
        for (int peer = 0; peer < held.length; peer++)
        {
            targets.unlock(call, peer, held[peer], false);
            held[peer] = false;
        }
        epochs.unlockedAll();
    }

    private void checkAllowed(final String call)
    {
        if (noLocks)
        {
            throw new RmaException(ErrorClass.ERR_RMA_SYNC, call + ": the window was made with info no_locks=true, " +
                "which promises that no process locks it");
        }
    }
}
