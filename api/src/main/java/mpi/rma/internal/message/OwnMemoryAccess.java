package mpi.rma.internal.message;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.ProcessFailures;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;

/**
 * The operations of {@link MessageWindow} whose target is this process: applied directly to its
 * {@link ExposedMemory}, under the same monitor as the agent, never by a message to itself; and the lock of that
 * memory, taken in the same {@link PassiveLockQueue} as the agent's. An access fault (a dynamic window's address with
 * nothing attached) throws at once, naming this rank.
 */
final class OwnMemoryAccess
{
    private final ExposedMemory exposed;
    private final PassiveLockQueue lockQueue;
    private final int rank;

    OwnMemoryAccess(final ExposedMemory exposed, final PassiveLockQueue lockQueue, final int rank)
    {
        this.exposed = exposed;
        this.lockQueue = lockQueue;
        this.rank = rank;
    }

    /** A put of dense elements to {@code offset}, or into the runs from {@code offset} when {@code runs} is not null. */
    void put(final String call, final BasicType type, final Object origin, final int originOffset, final int count,
        final long offset, final TargetRuns runs)
    {
        try
        {
            if (runs == null)
            {
                exposed.put(type, origin, originOffset, count, offset);
            }
            else
            {
                exposed.scatter(type, origin, originOffset, runs, offset);
            }
        }
        catch (final AccessFault fault)
        {
            throw fault.immediate(call, rank);
        }
    }

    /** A get into dense {@code origin}; {@code runs} as for put. */
    void get(final String call, final BasicType type, final Object origin, final int originOffset, final int count,
        final long offset, final TargetRuns runs)
    {
        try
        {
            if (runs == null)
            {
                exposed.get(type, offset, origin, originOffset, count);
            }
            else
            {
                exposed.gather(type, runs, offset, origin, originOffset);
            }
        }
        catch (final AccessFault fault)
        {
            throw fault.immediate(call, rank);
        }
    }

    /**
     * An accumulate ({@code result} null) or get-accumulate of dense operands; {@code runs} as for put.
     */
    void accumulate(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int count, final long offset,
        final TargetRuns runs)
    {
        try
        {
            if (runs == null)
            {
                exposed.accumulate(type, op, origin, originOffset, result, resultOffset, count, offset);
            }
            else
            {
                exposed.accumulate(type, op, origin, originOffset, result, resultOffset, runs, offset);
            }
        }
        catch (final AccessFault fault)
        {
            throw fault.immediate(call, rank);
        }
    }

    /** Compare-and-swap of one element; returns the old value (raw). */
    long compareAndSwap(final String call, final BasicType type, final long compare, final long replacement,
        final long offset)
    {
        try
        {
            return exposed.compareAndSwap(type, offset, compare, replacement);
        }
        catch (final AccessFault fault)
        {
            throw fault.immediate(call, rank);
        }
    }

    /** Returns once this process holds its own memory's lock, shared or exclusive. */
    void lock(final String call, final boolean exclusive)
    {
        try
        {
            lockQueue.acquireLocal(exclusive);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new RmaException(ErrorClass.ERR_OTHER, call + ": interrupted while waiting for the lock of " +
                "this process's own memory", e);
        }
        catch (final RuntimeException agentFailure)
        {
            throw ProcessFailures.classify(call, "this process's RMA agent", agentFailure);
        }
    }

    /** Releases this process's own lock and tells the origins it passes to (over {@code channel}) that they hold it. */
    void unlock(final String call, final boolean exclusive, final RequestChannel channel)
    {
        channel.tellGranted(call, lockQueue.release(exclusive));
    }
}
