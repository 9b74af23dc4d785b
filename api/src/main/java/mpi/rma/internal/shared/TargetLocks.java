package mpi.rma.internal.shared;

import java.lang.foreign.MemorySegment;

import mpi.rma.spi.SharedMemory;

/**
 * The locks in shared memory behind {@code Win.lock}, {@code Win.lockAll} and the accumulates
 * that cannot be lock-free: a reader-writer word per target (exclusive bit, shared count) and a
 * small spin lock per target. Waiting goes through the provider, so a holder that dies makes
 * the waiters fail instead of waiting for ever.
 */
public final class TargetLocks
{
    static final long EXCLUSIVE = 1L << 32;

    private final SharedMemory memory;
    private final MemorySegment area;
    private final int ownRank;

    TargetLocks(final SharedMemory memory, final int ownRank)
    {
        this.memory = memory;
        this.area = memory.clientArea();
        this.ownRank = ownRank;
    }

    void acquire(final int target, final boolean exclusive)
    {
        final long offset = ClientArea.passiveLockOffset(target);
        if (!tryAcquire(offset, exclusive))
        {
            memory.awaitCondition(() -> tryAcquire(offset, exclusive),
                (exclusive ? "an exclusive" : "a shared") + " lock on rank " + target);
        }
    }

    void release(final int target, final boolean exclusive)
    {
        // getAndAdd is a full barrier: what this process did under the lock is visible to the next holder.
        ClientArea.getAndAdd(area, ClientArea.passiveLockOffset(target), exclusive ? -EXCLUSIVE : -1);
    }

    private boolean tryAcquire(final long offset, final boolean exclusive)
    {
        final long current = ClientArea.getAcquire(area, offset);
        if (exclusive)
        {
            return current == 0 && ClientArea.compareAndSet(area, offset, 0, EXCLUSIVE);
        }
        return (current & EXCLUSIVE) == 0 && ClientArea.compareAndSet(area, offset, current, current + 1);
    }

    /** Takes the accumulate lock of {@code target}, for element updates that have no lock-free form. */
    void lockAccumulate(final int target)
    {
        final long offset = ClientArea.accumulateLockOffset(target);
        final long holder = ownRank + 1L;
        if (!ClientArea.compareAndSet(area, offset, 0, holder))
        {
            memory.awaitCondition(() -> ClientArea.getAcquire(area, offset) == 0 &&
                ClientArea.compareAndSet(area, offset, 0, holder), "the accumulate lock of rank " + target);
        }
    }

    void unlockAccumulate(final int target)
    {
        ClientArea.setRelease(area, ClientArea.accumulateLockOffset(target), 0);
    }
}
