package mpi.rma.internal;

import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.sync.PscwEpochs;
import mpi.rma.internal.vocabulary.Assertions;

/**
 * This process's synchronisation state on one window (MPI-4.1 section 12.5): which access
 * epochs are open, and the rules for opening and closing them. Every violation is
 * {@link ErrorClass#ERR_RMA_SYNC} with a message that says what to call instead.
 *
 * <p>A fence opens a fence epoch unless it has {@code Win.MODE_NOSUCCEED}. A lock or lockAll may
 * follow a fence only while no RMA call was made since (the fence epoch then ends, as in
 * MPICH); a fence may not come while a lock epoch is open
 * (docs/design.md#lock-after-fence-only-if-no-rma-since). {@code MPI.PROC_NULL} is a target like
 * any other here: calls to it need an epoch, and then do nothing (docs/design.md#proc-null-targets).
 * The epochs of post, start, complete and wait ({@link PscwEpochs}) follow the locks' rules: start
 * and post may follow a fence only while no RMA call was made since; no fence while one is open;
 * no lock while start's access epoch is open, and no start while a lock epoch is.
 */
public final class Epochs
{
    private static final byte UNLOCKED = 0;
    private static final byte SHARED = 1;
    private static final byte EXCLUSIVE = 2;

    private final byte[] lockTypes;
    private int locksHeld;
    private boolean procNullLocked;
    private boolean lockAll;
    private boolean fenceEpoch;
    private boolean fencedEver;
    private boolean rmaSinceFence;
    private final PscwEpochs pscw;

    public Epochs(final int ranks)
    {
        this.lockTypes = new byte[ranks];
        this.pscw = new PscwEpochs(ranks);
    }

    /** The epochs of post, start, complete and wait. */
    public PscwEpochs pscw()
    {
        return pscw;
    }

    /** Throws unless an RMA call to {@code target} (a rank or PROC_NULL) is inside an access epoch. */
    public void checkAccess(final String call, final int target)
    {
        if (lockAll || fenceEpoch || (target == MPI.PROC_NULL ? procNullLocked : lockTypes[target] != UNLOCKED) ||
            pscw.grants(target))
        {
            rmaSinceFence |= fenceEpoch;
            return;
        }
        final String outsideStartGroup = pscw.refusal(target);
        if (outsideStartGroup != null)
        {
            throw sync(call + ": " + outsideStartGroup);
        }
        final String targetText = target == MPI.PROC_NULL ? "MPI.PROC_NULL" : "rank " + target;
        final String why;
        if (locksHeld > 0 || procNullLocked)
        {
            why = "this process holds locks, but not on " + targetText;
        }
        else if (fencedEver)
        {
            why = "the last fence had MODE_NOSUCCEED or was followed by a lock, start or post, so no fence epoch " +
                "is open";
        }
        else
        {
            why = "no fence has been called on this window yet";
        }
        throw sync(call + ": no access epoch to " + targetText + " is open (" + why + "): call win.fence(0) " +
            "on every process first, or win.lock(Win.LOCK_SHARED, " + (target == MPI.PROC_NULL ? "MPI.PROC_NULL" : target) +
            ", 0) or win.lockAll(0)");
    }

    /** Throws unless a fence is allowed now. */
    public void checkFence()
    {
        if (lockAll || locksHeld > 0 || procNullLocked)
        {
            throw sync("Win.fence: a passive-target epoch is open (" + lockText() + "): close it with " +
                (lockAll ? "win.unlockAll()" : "win.unlock(rank)") + " before fencing");
        }
        final String open = pscw.openText();
        if (open != null)
        {
            throw sync("Win.fence: " + open + " is open: end it before fencing");
        }
    }

    public void fenced(final int assertion)
    {
        fencedEver = true;
        fenceEpoch = (assertion & Assertions.NOSUCCEED) == 0;
        rmaSinceFence = false;
    }

    public void checkLock(final int target)
    {
        checkNoFenceTraffic("Win.lock");
        checkNoStartEpoch("Win.lock");
        if (lockAll)
        {
            throw sync("Win.lock: rank " + target + " is already locked by this process's lockAll; call win.unlockAll() " +
                "first, or use the lockAll epoch");
        }
        if (target == MPI.PROC_NULL ? procNullLocked : lockTypes[target] != UNLOCKED)
        {
            throw sync("Win.lock: this process already holds a lock on " +
                (target == MPI.PROC_NULL ? "MPI.PROC_NULL" : "rank " + target) + "; unlock it first");
        }
    }

    public void locked(final int target, final boolean exclusive)
    {
        fenceEpoch = false;
        if (target == MPI.PROC_NULL)
        {
            procNullLocked = true;
            return;
        }
        lockTypes[target] = exclusive ? EXCLUSIVE : SHARED;
        locksHeld++;
    }

    /** Throws unless this process holds a lock on {@code target}; returns whether it is exclusive. */
    public boolean checkUnlock(final int target)
    {
        if (lockAll)
        {
            throw sync("Win.unlock: rank " + target + " is locked by lockAll; close that epoch with win.unlockAll()");
        }
        if (target == MPI.PROC_NULL ? !procNullLocked : lockTypes[target] == UNLOCKED)
        {
            throw sync("Win.unlock: this process holds no lock on " +
                (target == MPI.PROC_NULL ? "MPI.PROC_NULL" : "rank " + target) + ": call win.lock first");
        }
        return target != MPI.PROC_NULL && lockTypes[target] == EXCLUSIVE;
    }

    public void unlocked(final int target)
    {
        if (target == MPI.PROC_NULL)
        {
            procNullLocked = false;
            return;
        }
        lockTypes[target] = UNLOCKED;
        locksHeld--;
    }

    public void checkLockAll()
    {
        checkNoFenceTraffic("Win.lockAll");
        checkNoStartEpoch("Win.lockAll");
        if (lockAll || locksHeld > 0 || procNullLocked)
        {
            throw sync("Win.lockAll: a passive-target epoch is already open (" + lockText() + "); close it first");
        }
    }

    public void lockedAll()
    {
        fenceEpoch = false;
        lockAll = true;
    }

    public void checkUnlockAll()
    {
        if (!lockAll)
        {
            throw sync("Win.unlockAll: no lockAll epoch is open" + (locksHeld > 0 ?
                " (this process holds locks from win.lock: close them with win.unlock(rank))" : ": call win.lockAll first"));
        }
    }

    public void unlockedAll()
    {
        lockAll = false;
    }

    /** Throws unless a flush to {@code target} (a rank, or -1 for all) is inside a passive-target epoch. */
    public void checkFlush(final String call, final int target)
    {
        final boolean open = lockAll || (target == -1 ? locksHeld > 0 || procNullLocked :
            target == MPI.PROC_NULL ? procNullLocked : lockTypes[target] != UNLOCKED);
        if (!open)
        {
            throw sync(call + ": flushes belong in a passive-target epoch" + (target >= 0 ? " to rank " + target : "") +
                ", and none is open: call win.lock or win.lockAll first (fence epochs complete at the fence)");
        }
    }

    /**
     * Throws unless a passive-target epoch to {@code target} (a rank or PROC_NULL) is open: request-based calls
     * ({@code Win.rPut} and the others) belong in one only (MPI-4.1 §12.3.5), fence epochs included.
     */
    public void checkPassiveAccess(final String call, final int target)
    {
        if (lockAll || (target == MPI.PROC_NULL ? procNullLocked : lockTypes[target] != UNLOCKED))
        {
            return;
        }
        final String targetText = target == MPI.PROC_NULL ? "MPI.PROC_NULL" : "rank " + target;
        throw sync(call + ": request-based RMA calls belong in a passive-target epoch, and none to " + targetText +
            " is open" + (fenceEpoch ? " (a fence epoch is: use win.put, get or accumulate there)" : "") +
            ": call win.lock(Win.LOCK_SHARED, " + (target == MPI.PROC_NULL ? "MPI.PROC_NULL" : target) +
            ", 0) or win.lockAll(0) first");
    }

    /** Whether lockAll's epoch is open (the target locks are then shared ones on every rank). */
    boolean lockAllOpen()
    {
        return lockAll;
    }

    public void checkFree()
    {
        if (lockAll || locksHeld > 0 || procNullLocked)
        {
            throw sync("Win.free: a passive-target epoch is open (" + lockText() + "): close it before freeing");
        }
        final String open = pscw.openText();
        if (open != null)
        {
            throw sync("Win.free: " + open + " is open: end it before freeing");
        }
        if (fenceEpoch && rmaSinceFence)
        {
            throw sync("Win.free: RMA calls were made since the last fence and no fence completed them: " +
                "call win.fence(Win.MODE_NOSUCCEED) before freeing");
        }
    }

    /** Throws unless win.start may open an access epoch now: not inside a lock epoch, nor twice. */
    public void checkStart()
    {
        checkNoFenceTraffic("Win.start");
        if (lockAll || locksHeld > 0 || procNullLocked)
        {
            throw sync("Win.start: a passive-target epoch is open (" + lockText() + "): close it with " +
                (lockAll ? "win.unlockAll()" : "win.unlock(rank)") + " before win.start");
        }
        pscw.checkStart();
    }

    public void started(final int[] group)
    {
        fenceEpoch = false;
        pscw.started(group);
    }

    /** Throws unless win.post may open an exposure epoch now. */
    public void checkPost()
    {
        checkNoFenceTraffic("Win.post");
        pscw.checkPost();
    }

    public void posted(final int[] group)
    {
        fenceEpoch = false;
        pscw.posted(group);
    }

    private void checkNoStartEpoch(final String call)
    {
        if (pscw.accessOpen())
        {
            throw sync(call + ": " + pscw.accessText() + " is open, and access epochs do not overlap: call " +
                "win.complete() first");
        }
    }

    private void checkNoFenceTraffic(final String call)
    {
        if (fenceEpoch && rmaSinceFence)
        {
            throw sync(call + ": a fence epoch with RMA calls is open: end it with win.fence(Win.MODE_NOSUCCEED) " +
                "before starting " + (call.equals("Win.post") ? "an exposure" : call.equals("Win.start") ? "an access" :
                "a passive-target") + " epoch");
        }
    }

    private String lockText()
    {
        if (lockAll)
        {
            return "lockAll";
        }
        final StringBuilder text = new StringBuilder("locks on");
        for (int rank = 0; rank < lockTypes.length; rank++)
        {
            if (lockTypes[rank] != UNLOCKED)
            {
                text.append(" rank ").append(rank).append(lockTypes[rank] == EXCLUSIVE ? " (exclusive)" : " (shared)");
            }
        }
        if (procNullLocked)
        {
            text.append(" MPI.PROC_NULL");
        }
        return text.toString();
    }

    private static RmaException sync(final String message)
    {
        return new RmaException(ErrorClass.ERR_RMA_SYNC, message);
    }
}
