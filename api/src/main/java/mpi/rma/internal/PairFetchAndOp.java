package mpi.rma.internal;

import mpi.Op;
import mpi.rma.spi.common.PairType;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.types.TypeLayout;
import mpi.rma.internal.types.TypeLayouts;

/**
 * {@code MPI_Fetch_and_op} on a pair type ({@code MPI.INT2}, ...): one (value, index) pair, which is
 * a getAccumulate of one element of the pair type (MPI-4.1 §12.3.4.3), taken by the same paths so that it is
 * atomic with the pair accumulates of every flavour.
 */
public final class PairFetchAndOp
{
    private PairFetchAndOp()
    {
    }

    /**
     * Checks the arguments ({@code origin} is not read with NO_OP) and applies {@code op} to the pair at
     * {@code targetDisp}, its old value landing in {@code result[resultOffset]} and {@code result[resultOffset + 1]}.
     */
    public static void apply(final String call, final AccessChecks checks, final Epochs epochs,
        final TargetPath targets, final PairType pair, final Object origin, final int originOffset,
        final Object result, final int resultOffset, final int targetRank, final long targetDisp, final Op op)
    {
        final ReduceOp reduce = ReduceOp.ofPair(op, pair, true, call);
        final TypeLayout layout = TypeLayouts.of(pair.datatype(), call + ": type");
        if (reduce.readsOrigin())
        {
            AccessChecks.checkBuffer(call, "origin", origin, originOffset, 1, layout);
        }
        AccessChecks.checkBuffer(call, "result", result, resultOffset, 1, layout);
        final long offset = checks.accessOffset(call, epochs, targetRank, targetDisp, 1, layout);
        if (offset != AccessChecks.NO_TARGET)
        {
            targets.getAccumulate(call, reduce, origin, originOffset, reduce.readsOrigin() ? layout : null, 1, result,
                resultOffset, layout, 1, targetRank, offset, layout, 1);
        }
    }
}
