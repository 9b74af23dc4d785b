package mpi.rma.internal.types;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.PairType;
import mpi.rma.spi.common.ReduceOp;

/**
 * One (value, index) pair of a {@link PairType} in a target's memory, read, combined with an operand
 * pair and written back: the step of a pairwise {@link ReduceOp} (MAXLOC, MINLOC, REPLACE and NO_OP on
 * pairs). Not atomic by itself: the caller holds what makes the pair one element (the target's accumulate
 * lock in shared memory, the window's monitor on the message path), since the JVM has no atomic update of
 * 16 bytes and both halves must change together.
 */
public final class PairElements
{
    private PairElements()
    {
    }

    /**
     * Combines the pair {@code operands[operandIndex], operands[operandIndex + 1]} into the pair at byte
     * {@code at} of {@code memory} with {@code op}, first storing the old pair in {@code result[resultIndex...]}
     * unless result is null; operands are not read by a {@link ReduceOp#PAIR_NO_OP}.
     *
     * @param pauseNs a test's deliberate fault: a pause between the read and the write, 0 otherwise.
     */
    public static void combine(final BasicType type, final ReduceOp op, final MemorySegment memory, final long at,
        final Object operands, final int operandIndex, final Object result, final int resultIndex,
        final long pauseNs)
    {
        final long indexAt = at + type.sizeBytes();
        final long value = type.rawFromMemory(memory, at);
        final long index = type.rawFromMemory(memory, indexAt);
        if (pauseNs > 0)
        {
            LockSupport.parkNanos(pauseNs);
        }
        if (op.readsOrigin())
        {
            final long offeredValue = type.rawFromArray(operands, operandIndex);
            final long offeredIndex = type.rawFromArray(operands, operandIndex + 1);
            if (op.pairTakesOperand(type, value, index, offeredValue, offeredIndex))
            {
                type.rawToMemory(offeredValue, memory, at);
                type.rawToMemory(offeredIndex, memory, indexAt);
            }
        }
        if (result != null)
        {
            type.rawToArray(value, result, resultIndex);
            type.rawToArray(index, result, resultIndex + 1);
        }
    }
}
