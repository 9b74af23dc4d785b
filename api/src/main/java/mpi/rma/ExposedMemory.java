package mpi.rma;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * This process's memory in a window reached by messages ({@link MessageWindow}): every put,
 * get and accumulate that targets it, whether the target agent applies it for another process or
 * this process applies it to itself, runs under this object's monitor. One operation at a time
 * gives the accumulate family element-wise atomicity across all origins on any memory (a heap
 * array's segment has no 8-byte atomics when it is an {@code int[]}), and the monitor orders the
 * agent thread's stores before the user thread's later loads.
 */
final class ExposedMemory
{
    /** How long a torn accumulate ({@link MessageFaults}) pauses between its read and its write. */
    private static final long TORN_PAUSE_NS = 20_000;

    private final MemorySegment memory;

    ExposedMemory(final MemorySegment memory)
    {
        this.memory = memory;
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
        if (MessageFaults.tearsAccumulates())
        {
            accumulateTorn(type, op, operands, operandIndex, result, resultIndex, count, offset);
            return;
        }
        synchronized (this)
        {
            accumulateLocked(type, op, operands, operandIndex, result, resultIndex, count, offset);
        }
    }

    /** A test's deliberate fault ({@link MessageFaults}): each element read, a pause, then written, unlocked. */
    private void accumulateTorn(final BasicType type, final ReduceOp op, final Object operands,
        final int operandIndex, final Object result, final int resultIndex, final int count, final long offset)
    {
        for (int i = 0; i < count; i++)
        {
            final long at = offset + (long)i * type.sizeBytes();
            final long old = type.rawFromMemory(memory, at);
            LockSupport.parkNanos(TORN_PAUSE_NS);
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

    private void accumulateLocked(final BasicType type, final ReduceOp op, final Object operands,
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

    /** Stores {@code replacement} at {@code offset} if the element there equals {@code expected}; returns the old. */
    synchronized long compareAndSwap(final BasicType type, final long offset, final long expected,
        final long replacement)
    {
        final long old = type.rawFromMemory(memory, offset);
        if (old == type.normalise(expected))
        {
            type.rawToMemory(replacement, memory, offset);
        }
        return old;
    }
}
