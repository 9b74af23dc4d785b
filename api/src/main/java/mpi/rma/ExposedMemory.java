package mpi.rma;

import java.lang.foreign.MemorySegment;

/**
 * This process's memory in a window reached by messages ({@link MessageWindow}): every put,
 * get and accumulate that targets it, whether the target agent applies it for another process or
 * this process applies it to itself, runs under this object's monitor. One operation at a time
 * gives the accumulate family element-wise atomicity across all origins on any memory (a heap
 * array's segment has no 8-byte atomics when it is an {@code int[]}), and the monitor orders the
 * agent thread's stores before the user thread's later loads.
 *
 * <p>Memory in the node's shared memory ({@link #inSharedMemory}, a window made by {@link Win#allocate}
 * across nodes) is also updated by the other processes of the node, with loads and stores, which
 * no monitor of this process excludes: there the accumulate family goes through the node's
 * {@link AtomicElements}, as theirs does (docs/design.md#one-atomicity-and-one-lock-per-target).
 */
final class ExposedMemory
{
    private final MemorySegment memory;
    /** The node's atomic element operations, for memory in shared memory; null for memory of this process only. */
    private final AtomicElements atomics;
    /** This process's index among the node's segments (its lock words), with {@link #atomics}. */
    private final int nodeRank;

    ExposedMemory(final MemorySegment memory)
    {
        this(memory, null, -1);
    }

    private ExposedMemory(final MemorySegment memory, final AtomicElements atomics, final int nodeRank)
    {
        this.memory = memory;
        this.atomics = atomics;
        this.nodeRank = nodeRank;
    }

    /** This process's segment of the node's shared memory, where {@code nodeRank}'s lock words guard it. */
    static ExposedMemory inSharedMemory(final MemorySegment segment, final AtomicElements atomics,
        final int nodeRank)
    {
        return new ExposedMemory(segment, atomics, nodeRank);
    }

    MemorySegment segment()
    {
        return memory;
    }

    synchronized void put(final BasicType type, final Object source, final int index, final int count,
        final long offset)
    {
        type.copyToMemory(source, index, memory, offset, count);
    }

    synchronized void get(final BasicType type, final long offset, final Object destination, final int index,
        final int count)
    {
        type.copyFromMemory(memory, offset, destination, index, count);
    }

    /**
     * Combines {@code operands[operandIndex...]} into {@code count} elements at {@code offset}
     * with {@code op}; stores the old elements in {@code result[resultIndex...]} unless result is null.
     * With {@link ReduceOp#NO_OP} the operands are not read (they may be null).
     */
    void accumulate(final BasicType type, final ReduceOp op, final Object operands, final int operandIndex,
        final Object result, final int resultIndex, final int count, final long offset)
    {
        if (atomics != null)
        {
            accumulateAtomically(type, op, operands, operandIndex, result, resultIndex, count, offset);
            return;
        }
        accumulateUnderMonitor(type, op, operands, operandIndex, result, resultIndex, count, offset);
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

    private void accumulateAtomically(final BasicType type, final ReduceOp op, final Object operands,
        final int operandIndex, final Object result, final int resultIndex, final int count, final long offset)
    {
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

    private synchronized void accumulateUnderMonitor(final BasicType type, final ReduceOp op, final Object operands,
        final int operandIndex, final Object result, final int resultIndex, final int count, final long offset)
    {
        for (int i = 0; i < count; i++)
        {
            final long at = offset + (long)i * type.sizeBytes();
            final long old = type.rawFromMemory(memory, at);
            if (op != ReduceOp.NO_OP)
            {
                type.rawToMemory(op.apply(type, old, type.rawFromArray(operands, operandIndex + i)), memory, at);
            }
            if (result != null)
            {
                type.rawToArray(old, result, resultIndex + i);
            }
        }
    }

    private synchronized long compareAndSwapUnderMonitor(final BasicType type, final long offset,
        final long expected, final long replacement)
    {
        final long old = type.rawFromMemory(memory, offset);
        if (old == type.normalise(expected))
        {
            type.rawToMemory(replacement, memory, offset);
        }
        return old;
    }
}
