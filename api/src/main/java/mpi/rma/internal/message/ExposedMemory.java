package mpi.rma.internal.message;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

import mpi.rma.internal.shared.AtomicElements;
import mpi.rma.spi.common.BasicType;
import mpi.rma.internal.types.PairElements;
import mpi.rma.spi.common.ReduceOp;

/**
 * This process's memory in a window reached by messages ({@link MessageWindow}): every put,
 * get and accumulate that targets it, whether the target agent applies it for another process or
 * this process applies it to itself, runs under this object's monitor. One operation at a time
 * gives the accumulate family element-wise atomicity across all origins on any memory (a heap
 * array's segment has no 8-byte atomics when it is an {@code int[]}), and the monitor orders the
 * agent thread's stores before the user thread's later loads.
 *
 * <p>A window of {@code Win.create} or {@code Win.allocate} has one segment, and offsets are
 * bytes into it (checked by the origin). A dynamic window ({@code Win.createDynamic}) has the
 * regions attached to it ({@link AttachedRegions}), offsets are their addresses, and an access
 * that does not lie within attached memory (one region, or regions that touch) throws
 * {@link AccessFault} with nothing applied. Attach and
 * detach take the same monitor, so an access sees a region whole or not at all.
 *
 * <p>A derived target datatype's runs ({@link TargetRuns}) are applied in one hold of the monitor, so
 * a put or accumulate to them is as atomic as a dense one; on a dynamic window every run must lie
 * within attached memory before any is applied.
 *
 * <p>Memory in the node's shared memory ({@link #inSharedMemory}, a window made by {@code Win.allocate}
 * across nodes) is also updated by the other processes of the node, with loads and stores, which
 * no monitor of this process excludes: there the accumulate family goes through the node's
 * {@link AtomicElements}, as theirs does (docs/design.md#one-atomicity-and-one-lock-per-target).
 */
public final class ExposedMemory
{
    /** The one segment; {@link MemorySegment#NULL} for a dynamic window. */
    private final MemorySegment memory;
    /** {@link #memory} as the span of every access, made once so that no access allocates one. */
    private final AttachedSpan wholeMemory;
    /** The attached regions of a dynamic window; null otherwise. */
    private final AttachedRegions regions;
    /** The node's atomic element operations, for memory in shared memory; null for memory of this process only. */
    private final AtomicElements atomics;
    /** This process's index among the node's segments (its lock words), with {@link #atomics}. */
    private final int nodeRank;

    ExposedMemory(final MemorySegment memory)
    {
        this(memory, null, null, -1);
    }

    private ExposedMemory(final MemorySegment memory, final AttachedRegions regions, final AtomicElements atomics,
        final int nodeRank)
    {
        this.memory = memory;
        this.wholeMemory = AttachedSpan.of(memory);
        this.regions = regions;
        this.atomics = atomics;
        this.nodeRank = nodeRank;
    }

    /** This process's segment of the node's shared memory, where {@code nodeRank}'s lock words guard it. */
    public static ExposedMemory inSharedMemory(final MemorySegment segment, final AtomicElements atomics,
        final int nodeRank)
    {
        return new ExposedMemory(segment, null, atomics, nodeRank);
    }

    /** The memory of a dynamic window: nothing until something is attached. */
    static ExposedMemory dynamic()
    {
        return new ExposedMemory(MemorySegment.NULL, new AttachedRegions(), null, -1);
    }

    MemorySegment segment()
    {
        return memory;
    }

    boolean isDynamic()
    {
        return regions != null;
    }

    synchronized long attach(final String call, final MemorySegment attached)
    {
        return regions.attach(call, attached);
    }

    synchronized void detach(final String call, final MemorySegment attached)
    {
        regions.detach(call, attached);
    }

    synchronized long address(final String call, final MemorySegment attached, final long byteOffset)
    {
        return regions.address(call, attached, byteOffset);
    }

    synchronized void put(final BasicType type, final Object source, final int index, final int count,
        final long offset)
    {
        if (regions == null)
        {
            type.copyToMemory(source, index, memory, offset, count);
            return;
        }
        final AttachedSpan span = regions.span(offset, bytes(type, count));
        type.copyToMemory(source, index, span.memory(), 0, count);
        span.store();
    }

    synchronized void get(final BasicType type, final long offset, final Object destination, final int index,
        final int count)
    {
        if (regions == null)
        {
            type.copyFromMemory(memory, offset, destination, index, count);
            return;
        }
        type.copyFromMemory(regions.span(offset, bytes(type, count)).memory(), 0, destination, index, count);
    }

    /**
     * Stores {@code source[index...]} into the runs of a derived target ({@link TargetRuns}) whose
     * displacement is at {@code offset}; on a dynamic window nothing is stored unless every run lies
     * within attached memory.
     */
    synchronized void scatter(final BasicType type, final Object source, final int index, final TargetRuns runs,
        final long offset)
    {
        final RunPlacement placement = place(type, runs, offset);
        if (placement.whole != null)
        {
            runs.scatter(type, source, index, placement.whole.memory(), placement.base);
            placement.whole.store();
            return;
        }
        runs.forEachRun((at, count, from) ->
        {
            final AttachedSpan span = placement.span(at, bytes(type, count));
            type.copyToMemory(source, index + from, span.memory(), placement.at(at), count);
            span.store();
        });
    }

    /** Loads the runs of a derived target at {@code offset} into {@code destination[index...]}, as {@link #scatter}. */
    synchronized void gather(final BasicType type, final TargetRuns runs, final long offset, final Object destination,
        final int index)
    {
        final RunPlacement placement = place(type, runs, offset);
        if (placement.whole != null)
        {
            runs.gather(type, placement.whole.memory(), placement.base, destination, index);
            return;
        }
        runs.forEachRun((at, count, into) -> type.copyFromMemory(placement.span(at, bytes(type, count)).memory(),
            placement.at(at), destination, index + into, count));
    }

    /**
     * {@link #accumulate} into the runs of a derived target at {@code offset}: element {@code k} of the
     * operands (and of the result) meets the runs' element {@code k}, atomically per element as there.
     */
    void accumulate(final BasicType type, final ReduceOp op, final Object operands, final int operandIndex,
        final Object result, final int resultIndex, final TargetRuns runs, final long offset)
    {
        if (atomics != null)
        {
            runs.forEachRun((at, count, k) -> accumulateAtomically(type, op, operands, operandIndex + k, result,
                resultIndex + k, count, offset + at));
            return;
        }
        if (MessageFaults.tearsAccumulates())
        {
            final RunPlacement placement;
            synchronized (this)
            {
                placement = place(type, runs, offset);
            }
            combineRuns(type, op, operands, operandIndex, result, resultIndex, runs, placement, true);
            return;
        }
        synchronized (this)
        {
            combineRuns(type, op, operands, operandIndex, result, resultIndex, runs, place(type, runs, offset), false);
        }
    }

    private void combineRuns(final BasicType type, final ReduceOp op, final Object operands, final int operandIndex,
        final Object result, final int resultIndex, final TargetRuns runs, final RunPlacement placement,
        final boolean torn)
    {
        runs.forEachRun((at, count, k) ->
        {
            final AttachedSpan span = placement.span(at, bytes(type, count));
            combine(type, op, operands, operandIndex + k, result, resultIndex + k, count, span.memory(),
                placement.at(at), torn);
            if (placement.whole == null)
            {
                span.store();
            }
        });
        if (placement.whole != null)
        {
            placement.whole.store();
        }
    }

    /**
     * Where the runs of a derived target at {@code offset} lie. In a dynamic window, an access is
     * applied only if every run lies within attached memory: the span of all the runs is looked up
     * once (the common case: attached memory holds them all, gaps included), else each run, and the first
     * that does not lie within attached memory throws {@link AccessFault} before anything is applied.
     */
    private RunPlacement place(final BasicType type, final TargetRuns runs, final long offset)
    {
        if (regions == null)
        {
            return new RunPlacement(wholeMemory, offset, null, 0);
        }
        final long low = offset + runs.lowestByte();
        try
        {
            final AttachedSpan whole = regions.span(low, runs.endByte() - runs.lowestByte());
            // A copy across regions would write back the bytes between the runs too: each run gets its own.
            return whole.isCopy() ? new RunPlacement(null, 0, regions, offset) :
                new RunPlacement(whole, -runs.lowestByte(), null, 0);
        }
        catch (final AccessFault spanFault)
        {
            runs.forEachRun((at, count, k) -> regions.check(offset + at, bytes(type, count)));
            // Every run lies within attached memory, not all within one span: each run is looked up again as it
            // is applied.
            return new RunPlacement(null, 0, regions, offset);
        }
    }

    /**
     * The memory that the runs of one access land in: one span, the target displacement at byte
     * {@code base} of it (written back once, after every run); or, for runs in memory apart on a dynamic
     * window, each run's own span (written back after that run).
     */
    private record RunPlacement(AttachedSpan whole, long base, AttachedRegions regions, long offset)
    {
        AttachedSpan span(final long runOffset, final long runBytes)
        {
            return whole != null ? whole : regions.span(offset + runOffset, runBytes);
        }

        long at(final long runOffset)
        {
            return whole != null ? base + runOffset : 0;
        }
    }

    /**
     * Combines {@code operands[operandIndex...]} into {@code count} elements at {@code offset}
     * with {@code op}; stores the old elements in {@code result[resultIndex...]} unless result is null.
     * With {@link ReduceOp#NO_OP} the operands are not read (they may be null).
     */
    void accumulate(final BasicType type, final ReduceOp op, final Object operands, final int operandIndex,
        final Object result, final int resultIndex, final int count, final long offset)
    {
        // Under the torn-accumulates test fault the node's atomics tear themselves (AtomicElements); the torn
        // loop below is for memory without them.
        if (atomics != null)
        {
            accumulateAtomically(type, op, operands, operandIndex, result, resultIndex, count, offset);
            return;
        }
        final long start = regions == null ? offset : 0;
        if (MessageFaults.tearsAccumulates())
        {
            final AttachedSpan target;
            synchronized (this)
            {
                target = resolve(type, count, offset);
            }
            combine(type, op, operands, operandIndex, result, resultIndex, count, target.memory(), start, true);
            target.store();
            return;
        }
        synchronized (this)
        {
            final AttachedSpan target = resolve(type, count, offset);
            combine(type, op, operands, operandIndex, result, resultIndex, count, target.memory(), start, false);
            target.store();
        }
    }

    /** Each element by the node's atomic operations, as the node's own origins update it: no monitor. */
    private void accumulateAtomically(final BasicType type, final ReduceOp op, final Object operands,
        final int operandIndex, final Object result, final int resultIndex, final int count, final long offset)
    {
        if (op.pairwise())
        {
            for (int i = 0; i < count; i += 2)
            {
                atomics.applyPair(nodeRank, memory, offset + (long)i * type.sizeBytes(), type, op, operands,
                    operandIndex + i, result, resultIndex + i);
            }
            return;
        }
        for (int i = 0; i < count; i++)
        {
            final long operand = op == ReduceOp.NO_OP ? 0 : type.rawFromArray(operands, operandIndex + i);
            final long old = atomics.getAndApply(nodeRank, memory, offset + (long)i * type.sizeBytes(), type, op,
                operand);
            if (result != null)
            {
                type.rawToArray(old, result, resultIndex + i);
            }
        }
    }

    /**
     * The memory that {@code count} elements at {@code offset} lie in: the one segment, or the span of attached
     * memory from that address (store it after writing).
     */
    private AttachedSpan resolve(final BasicType type, final int count, final long offset)
    {
        return regions == null ? wholeMemory : regions.span(offset, bytes(type, count));
    }

    /**
     * The loop of {@link #accumulate} over {@code target} from byte {@code start}; {@code torn}: a test's
     * deliberate fault ({@link MessageFaults}), run outside the monitor, pausing between each read and write.
     */
    private static void combine(final BasicType type, final ReduceOp op, final Object operands,
        final int operandIndex, final Object result, final int resultIndex, final int count, final MemorySegment target,
        final long start, final boolean torn)
    {
        if (op.pairwise())
        {
            for (int i = 0; i < count; i += 2)
            {
                PairElements.combine(type, op, target, start + (long)i * type.sizeBytes(), operands, operandIndex + i,
                    result, resultIndex + i, torn ? MessageFaults.TORN_PAUSE_NS : 0);
            }
            return;
        }
        for (int i = 0; i < count; i++)
        {
            final long at = start + (long)i * type.sizeBytes();
            final long old = type.rawFromMemory(target, at);
            if (torn)
            {
                LockSupport.parkNanos(MessageFaults.TORN_PAUSE_NS);
            }
            if (op != ReduceOp.NO_OP)
            {
                type.rawToMemory(op.apply(type, old, type.rawFromArray(operands, operandIndex + i)), target, at);
            }
            if (result != null)
            {
                type.rawToArray(old, result, resultIndex + i);
            }
        }
    }

    /** Stores {@code replacement} at {@code offset} if the element there equals {@code expected}; returns the old. */
    long compareAndSwap(final BasicType type, final long offset, final long expected, final long replacement)
    {
        if (atomics != null)
        {
            return atomics.compareAndSwap(nodeRank, memory, offset, type, expected, replacement);
        }
        return compareAndSwapUnderMonitor(type, offset, expected, replacement);
    }

    private synchronized long compareAndSwapUnderMonitor(final BasicType type, final long offset,
        final long expected, final long replacement)
    {
        final AttachedSpan target = resolve(type, 1, offset);
        final long at = regions == null ? offset : 0;
        final long old = type.rawFromMemory(target.memory(), at);
        if (old == type.normalise(expected))
        {
            type.rawToMemory(replacement, target.memory(), at);
            target.store();
        }
        return old;
    }

    private static long bytes(final BasicType type, final int count)
    {
        return (long)count * type.sizeBytes();
    }
}
