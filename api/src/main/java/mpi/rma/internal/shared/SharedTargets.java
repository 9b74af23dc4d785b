package mpi.rma.internal.shared;

import java.lang.foreign.MemorySegment;

import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.SharedSegment;
import mpi.rma.internal.AccessChecks;
import mpi.rma.internal.CollectiveFailure;
import mpi.rma.internal.TargetPath;
import mpi.rma.internal.creation.MixedTargets;
import mpi.rma.internal.sync.PscwFlags;
import mpi.rma.internal.sync.PscwPath;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.types.TypeLayout;
import mpi.rma.internal.types.TypedMoves;
import mpi.rma.spi.SharedMemory;
import mpi.rma.internal.vocabulary.MemoryModels;

/**
 * The shared-memory path of a window made by {@code Win.allocateShared}, or by {@code Win.allocate} on
 * the processes of one node (and, within the node, of one that spans nodes: {@link MixedTargets}): every
 * target's segment is
 * mapped into this process, so RMA calls are loads and stores ({@link TypedMoves}), the accumulate
 * family is atomic per element ({@link AtomicElements}), passive-target locks are lock words in the
 * segment ({@link TargetLocks}), and collective calls agree on failure through the client area
 * ({@link CollectiveFailure}). Every call is complete when it returns, so flushes have nothing to do.
 *
 * <p>Since such calls may never wait, each first asks the provider whether a process of the window has died
 * ({@link SharedMemory#checkProcesses}, a load): without that, a process could go on locking a dead process's
 * memory and accumulating into it for as long as it runs (docs/faults.md#what-a-dead-process-does-on-each-device).
 */
public final class SharedTargets implements TargetPath
{
    private final int rank;
    private final long[] sizes;
    private final int[] dispUnits;
    private final SharedMemory memory;
    private final MemorySegment[] segments;
    private final TargetLocks locks;
    private final AtomicElements atomics;
    private final CollectiveFailure failures;
    private final PscwFlags pscw;
    /** {@code Win.FLAVOR_SHARED} or {@code Win.FLAVOR_ALLOCATE}. */
    private final int flavor;
    private boolean released;

    public SharedTargets(final int rank, final long[] sizes, final int[] dispUnits, final SharedMemory memory,
        final int flavor)
    {
        this.flavor = flavor;
        this.rank = rank;
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.memory = memory;
        this.segments = new MemorySegment[sizes.length];
        for (int peer = 0; peer < sizes.length; peer++)
        {
            segments[peer] = memory.segment(peer);
        }
        this.locks = new TargetLocks(memory, rank);
        this.atomics = new AtomicElements(locks);
        this.failures = new CollectiveFailure(memory.clientArea());
        this.pscw = new PscwFlags(memory, rank, sizes.length, PscwFlags.identity(sizes.length));
    }

    @Override
    public void put(final String call, final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount, final int target, final long offset, final TypeLayout targetType, final int targetCount)
    {
        memory.checkProcesses(call);
        TypedMoves.put(origin, originOffset, originType, originCount, segments[target], offset, targetType,
            targetCount);
    }

    @Override
    public void get(final String call, final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount, final int target, final long offset, final TypeLayout targetType, final int targetCount)
    {
        memory.checkProcesses(call);
        AccessChecks.checkNoOverlap(call, "origin", originType, originCount, "§12.3.2");
        TypedMoves.get(origin, originOffset, originType, originCount, segments[target], offset, targetType,
            targetCount);
    }

    @Override
    public void accumulate(final String call, final ReduceOp op, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        memory.checkProcesses(call);
        TypedMoves.accumulate(atomics, op, origin, originOffset, originType, originCount, null, 0, null, 0, target,
            segments[target], offset, targetType, targetCount);
    }

    @Override
    public void getAccumulate(final String call, final ReduceOp op, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final Object result, final int resultOffset,
        final TypeLayout resultType, final int resultCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        memory.checkProcesses(call);
        TypedMoves.accumulate(atomics, op, origin, originOffset, originType, originCount, result, resultOffset,
            resultType, resultCount, target, segments[target], offset, targetType, targetCount);
    }

    @Override
    public void fetchAndOp(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int target, final long offset)
    {
        memory.checkProcesses(call);
        final long operand = op == ReduceOp.NO_OP ? 0 : type.rawFromArray(origin, originOffset);
        type.rawToArray(atomics.getAndApply(target, segments[target], offset, type, op, operand), result,
            resultOffset);
    }

    @Override
    public long compareAndSwap(final String call, final BasicType type, final long compare, final long replacement,
        final int target, final long offset)
    {
        memory.checkProcesses(call);
        return atomics.compareAndSwap(target, segments[target], offset, type, compare, replacement);
    }

    @Override
    public void fence(final String call, final RmaException localError)
    {
        final long round = failures.next();
        if (localError != null)
        {
            failures.record(round, rank, localError.errorClass());
        }
        memory.fence();
        if (localError != null)
        {
            throw localError;
        }
        failures.check(round, call);
    }

    @Override
    public void lock(final String call, final int target, final boolean exclusive)
    {
        memory.checkProcesses(call);
        locks.acquire(target, exclusive);
    }

    @Override
    public void unlock(final String call, final int target, final boolean held, final boolean exclusive)
    {
        memory.checkProcesses(call);
        if (held)
        {
            locks.release(target, exclusive);
        }
    }

    @Override
    public void flush(final String call, final int target)
    {
        // Calls on shared memory complete when they return: the caller's memory fence is all a flush needs; a
        // flush that involves a dead process fails all the same.
        memory.checkProcesses(call);
    }

    @Override
    public void free(final String call, final RmaException localError)
    {
        final long round = failures.next();
        if (localError != null)
        {
            failures.record(round, rank, localError.errorClass());
        }
        try
        {
            memory.fence();
        }
        catch (final RuntimeException e)
        {
            // A process died: nothing can be agreed any more; release what this process holds.
            released = true;
            try
            {
                memory.free();
            }
            catch (final RuntimeException ignored)
            {
                // The memory is released even if free's own wait fails; the fence's error is the one to report.
            }
            throw e;
        }
        if (localError != null)
        {
            throw localError;
        }
        failures.check(round, call);
        released = true;
        memory.free();
    }

    @Override
    public boolean released()
    {
        return released;
    }

    @Override
    public SharedSegment sharedQuery(final int peer)
    {
        if (peer != MPI.PROC_NULL)
        {
            return segmentOf(peer);
        }
        for (int candidate = 0; candidate < sizes.length; candidate++)
        {
            if (sizes[candidate] > 0)
            {
                return segmentOf(candidate);
            }
        }
        return segmentOf(0);
    }

    @Override
    public MemorySegment localMemory()
    {
        return segments[rank];
    }

    @Override
    public int flavor()
    {
        return flavor;
    }

    @Override
    public int model()
    {
        return MemoryModels.UNIFIED;
    }

    @Override
    public PscwPath pscw()
    {
        return pscw;
    }

    /**
     * The flags of post and complete over this path's processes, with their ranks in a larger window
     * ({@code names}) for messages: for {@link MixedTargets}, which uses these instead of {@link #pscw()}.
     */
    public PscwFlags pscwNamed(final int[] names)
    {
        return new PscwFlags(memory, rank, sizes.length, names);
    }

    /** The atomic element operations every origin on the node uses, for the target agent to use too. */
    public AtomicElements atomics()
    {
        return atomics;
    }

    public SharedSegment segmentOf(final int peer)
    {
        return new SharedSegment(sizes[peer], dispUnits[peer], segments[peer]);
    }
}
