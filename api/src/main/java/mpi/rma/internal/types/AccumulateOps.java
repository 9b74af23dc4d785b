package mpi.rma.internal.types;

import mpi.Datatype;
import mpi.Op;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.PairType;
import mpi.rma.spi.common.ReduceOp;

/**
 * The operation of an accumulate call, checked against its datatypes: a pair type
 * ({@link PairType}) on the side that decides makes the operation pairwise ({@link ReduceOp#ofPair}), and
 * then every other datatype given must be that same pair type, since a pair is one element of it
 * (MPI-4.1 §12.3.4: origin, target and result carry one predefined datatype); a pair type on a side that
 * does not decide is refused likewise. Any other datatype takes {@link ReduceOp#of}.
 */
public final class AccumulateOps
{
    private AccumulateOps()
    {
    }

    /** accumulate and rAccumulate: the origin's datatype decides, and the target's must match. */
    public static ReduceOp forAccumulate(final Op op, final Datatype originType, final TypeLayout originLayout,
        final Datatype targetType, final String call)
    {
        final PairType pair = PairType.of(originType);
        if (pair == null)
        {
            final ReduceOp reduce = ReduceOp.of(op, originLayout.basic(), false, call);
            refusePairBeside(call, "targetType", targetType, "originType", originLayout);
            return reduce;
        }
        final ReduceOp reduce = ReduceOp.ofPair(op, pair, false, call);
        checkSamePair(call, "targetType", targetType, pair, "originType");
        return reduce;
    }

    /**
     * getAccumulate, rGetAccumulate: the target's datatype decides; the result's must match, and the
     * origin's too unless the op is NO_OP (whose origin is not read).
     */
    public static ReduceOp forGetAccumulate(final Op op, final Datatype originType, final Datatype resultType,
        final Datatype targetType, final TypeLayout targetLayout, final String call)
    {
        final PairType pair = PairType.of(targetType);
        if (pair == null)
        {
            final ReduceOp reduce = ReduceOp.of(op, targetLayout.basic(), true, call);
            if (reduce.readsOrigin())
            {
                refusePairBeside(call, "originType", originType, "targetType", targetLayout);
            }
            refusePairBeside(call, "resultType", resultType, "targetType", targetLayout);
            return reduce;
        }
        final ReduceOp reduce = ReduceOp.ofPair(op, pair, true, call);
        if (reduce.readsOrigin())
        {
            checkSamePair(call, "originType", originType, pair, "targetType");
        }
        checkSamePair(call, "resultType", resultType, pair, "targetType");
        return reduce;
    }

    private static void checkSamePair(final String call, final String what, final Datatype given,
        final PairType pair, final String deciding)
    {
        if (given != pair.datatype())
        {
            throw new RmaException(ErrorClass.ERR_TYPE, call + ": " + deciding + " is the pair type " +
                pair.mpiName() + " but " + what + " is " + describe(given) + ": give " + pair.mpiName() +
                " on every side, with a count of pairs (a pair is one element of it, MPI-4.1 §12.3.4)");
        }
    }

    private static void refusePairBeside(final String call, final String what, final Datatype given,
        final String deciding, final TypeLayout decidingLayout)
    {
        final PairType pair = PairType.of(given);
        if (pair != null)
        {
            throw new RmaException(ErrorClass.ERR_TYPE, call + ": " + what + " is the pair type " + pair.mpiName() +
                " but " + deciding + " is " + decidingLayout.name() + ": give " + pair.mpiName() +
                " on every side, with a count of pairs (a pair is one element of it, MPI-4.1 §12.3.4)");
        }
    }

    private static String describe(final Datatype datatype)
    {
        if (datatype == null)
        {
            return "null";
        }
        final BasicType basic = BasicType.ofBasic(datatype);
        return basic != null ? basic.mpiName() : "a derived datatype (a type built from pairs is its base elements " +
            "to one-sided calls)";
    }
}
