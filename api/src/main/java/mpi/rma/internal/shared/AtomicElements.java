package mpi.rma.internal.shared;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

import mpi.rma.internal.message.MessageFaults;
import mpi.rma.spi.common.BasicType;
import mpi.rma.internal.types.PairElements;
import mpi.rma.spi.common.ReduceOp;

/**
 * Element-wise atomic read-modify-write on a target segment: the heart of accumulate,
 * getAccumulate, fetchAndOp and compareAndSwap (MPI-4.1 section 12.7.1).
 *
 * <p>Naturally aligned 4- and 8-byte elements are updated lock-free with compare-and-set on
 * their bits (float and double too, so that a NaN never stalls the loop), with the hardware's
 * fetch-and-add and swap where they apply. The JVM has no atomic update of 1- and 2-byte
 * elements, nor of misaligned ones (a contiguous window puts a segment wherever the previous
 * one ends): those take the target's accumulate lock. Whether an element is lock-free depends
 * only on its type and address, so two processes updating one element always agree.
 *
 * <p>A (value, index) pair of a pair type ({@code MPI.INT2}, ...) is one element too: MAXLOC, MINLOC,
 * REPLACE and NO_OP update both halves together under the target's accumulate lock
 * ({@link #applyPair}), 16-byte pairs having no hardware update in the JVM. MPI asks atomicity only
 * between accumulates of the same predefined datatype (MPI-4.1 section 12.7.1), so pairs need not exclude
 * the lock-free updates of their halves as basic types.
 */
public final class AtomicElements
{
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final TargetLocks locks;

    AtomicElements(final TargetLocks locks)
    {
        this.locks = locks;
    }

    /**
     * Combines {@code operand} into the element at {@code offset} with {@code op}; returns the old value (raw).
     */
    public long getAndApply(final int target, final MemorySegment memory, final long offset, final BasicType type,
        final ReduceOp op, final long operand)
    {
        if (MessageFaults.tearsAccumulates())
        {
            return tornGetAndApply(memory, offset, type, op, operand);
        }
        if (isLockFree(memory, offset, type))
        {
            return type.sizeBytes() == Integer.BYTES ? getAndApplyInt(memory, offset, type, op, (int)operand) :
                getAndApplyLong(memory, offset, type, op, operand);
        }
        locks.lockAccumulate(target);
        try
        {
            final long old = type.rawFromMemory(memory, offset);
            if (op != ReduceOp.NO_OP)
            {
                type.rawToMemory(op.apply(type, old, operand), memory, offset);
            }
            return old;
        }
        finally
        {
            locks.unlockAccumulate(target);
        }
    }

    /**
     * Combines the pair {@code operands[operandIndex...]} into the pair at {@code offset} with the pairwise
     * {@code op} as one element, first storing the old pair in {@code result[resultIndex...]} unless result is
     * null ({@link PairElements#combine}).
     */
    public void applyPair(final int target, final MemorySegment memory, final long offset, final BasicType type,
        final ReduceOp op, final Object operands, final int operandIndex, final Object result, final int resultIndex)
    {
        if (MessageFaults.tearsAccumulates())
        {
            PairElements.combine(type, op, memory, offset, operands, operandIndex, result, resultIndex,
                MessageFaults.TORN_PAUSE_NS);
            return;
        }
        locks.lockAccumulate(target);
        try
        {
            PairElements.combine(type, op, memory, offset, operands, operandIndex, result, resultIndex, 0);
        }
        finally
        {
            locks.unlockAccumulate(target);
        }
    }

    /**
     * A test's deliberate fault ({@link MessageFaults}): a read, a pause and a write, with no lock, so that concurrent
     * updates of the element are lost. Across nodes a target's agent is the only thread applying messages, and the
     * node's own origins, updating the element here, finish their few hundred updates in microseconds; torn only
     * on the agent's side, the two rarely overlapped, and the atomicity cases passed by chance.
     */
    private static long tornGetAndApply(final MemorySegment memory, final long offset, final BasicType type,
        final ReduceOp op, final long operand)
    {
        final long old = type.rawFromMemory(memory, offset);
        LockSupport.parkNanos(MessageFaults.TORN_PAUSE_NS);
        if (op != ReduceOp.NO_OP)
        {
            type.rawToMemory(op.apply(type, old, operand), memory, offset);
        }
        return old;
    }

    /** Stores {@code replacement} if the element equals {@code expected}; returns the old value (raw). */
    public long compareAndSwap(final int target, final MemorySegment memory, final long offset, final BasicType type,
        final long expected, final long replacement)
    {
        if (isLockFree(memory, offset, type))
        {
            return type.sizeBytes() == Integer.BYTES ?
                (int)INT.compareAndExchange(memory, offset, (int)expected, (int)replacement) :
                (long)LONG.compareAndExchange(memory, offset, expected, replacement);
        }
        locks.lockAccumulate(target);
        try
        {
            final long old = type.rawFromMemory(memory, offset);
            if (old == type.normalise(expected))
            {
                type.rawToMemory(replacement, memory, offset);
            }
            return old;
        }
        finally
        {
            locks.unlockAccumulate(target);
        }
    }

    static boolean isLockFree(final MemorySegment memory, final long offset, final BasicType type)
    {
        final int size = type.sizeBytes();
        return (size == Integer.BYTES || size == Long.BYTES) && ((memory.address() + offset) & (size - 1)) == 0;
    }

    private static long getAndApplyInt(final MemorySegment memory, final long offset, final BasicType type,
        final ReduceOp op, final int operand)
    {
        switch (op)
        {
            case NO_OP:
                return (int)INT.getVolatile(memory, offset);
            case REPLACE:
                return (int)INT.getAndSet(memory, offset, operand);
            case SUM:
                if (type == BasicType.INT)
                {
                    return (int)INT.getAndAdd(memory, offset, operand);
                }
                break;
            default:
                break;
        }
        int current = (int)INT.getVolatile(memory, offset);
        while (true)
        {
            final int next = (int)op.apply(type, current, operand);
            final int witness = (int)INT.compareAndExchange(memory, offset, current, next);
            if (witness == current)
            {
                return current;
            }
            current = witness;
        }
    }

    private static long getAndApplyLong(final MemorySegment memory, final long offset, final BasicType type,
        final ReduceOp op, final long operand)
    {
        switch (op)
        {
            case NO_OP:
                return (long)LONG.getVolatile(memory, offset);
            case REPLACE:
                return (long)LONG.getAndSet(memory, offset, operand);
            case SUM:
                if (type == BasicType.LONG)
                {
                    return (long)LONG.getAndAdd(memory, offset, operand);
                }
                break;
            default:
                break;
        }
        long current = (long)LONG.getVolatile(memory, offset);
        while (true)
        {
            final long next = op.apply(type, current, operand);
            final long witness = (long)LONG.compareAndExchange(memory, offset, current, next);
            if (witness == current)
            {
                return current;
            }
            current = witness;
        }
    }
}
