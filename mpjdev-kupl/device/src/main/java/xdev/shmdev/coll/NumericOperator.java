package xdev.shmdev.coll;

import java.util.Map;

import mpi.Datatype;
import mpi.MPI;
import mpi.Op;

/**
 * MPJ Express 0.44's {@code SUM}, {@code PROD}, {@code MAX} and {@code MIN} on {@code INT}, {@code LONG},
 * {@code FLOAT} and {@code DOUBLE}, the reductions programs run most, written out so that a short vector can
 * be combined with values read straight from the staging slots ({@link SlotReduction}) instead of copies
 * into heap vectors handed to MPJ Express's operator objects through method handles.
 *
 * <p>Each is what its MPJ Express class's {@code perform} computes when a tree node combines a child's
 * vector {@code buf} into its partial result {@code arr}, with the operands in the same roles:
 * {@code SumDouble}: {@code arr[i] = buf[i] + arr[i]}; {@code ProdDouble}: {@code arr[i] = buf[i] * arr[i]};
 * {@code MaxDouble}: {@code if (buf[i] > arr[i]) arr[i] = buf[i]}; {@code MinDouble}:
 * {@code if (buf[i] < arr[i]) arr[i] = buf[i]}; the same for the other three types. So a NaN or a signed zero
 * ends where MPJ Express puts it (a comparison with NaN is false: the partial result is kept).
 * Only MPJ Express's own classes are recognised, by exact class, and only on the four single types (on a
 * pair type such as {@code MPI.DOUBLE2} the same classes combine only part of the vector); anything else is
 * combined by MPJ Express's objects ({@link MpjOperation}).
 */
enum NumericOperator
{
    SUM,
    PROD,
    MAX,
    MIN;

    private static final Map<Class<?>, NumericOperator> MPJ_CLASSES = Map.ofEntries(
        Map.entry(mpi.SumInt.class, SUM), Map.entry(mpi.SumLong.class, SUM),
        Map.entry(mpi.SumFloat.class, SUM), Map.entry(mpi.SumDouble.class, SUM),
        Map.entry(mpi.ProdInt.class, PROD), Map.entry(mpi.ProdLong.class, PROD),
        Map.entry(mpi.ProdFloat.class, PROD), Map.entry(mpi.ProdDouble.class, PROD),
        Map.entry(mpi.MaxInt.class, MAX), Map.entry(mpi.MaxLong.class, MAX),
        Map.entry(mpi.MaxFloat.class, MAX), Map.entry(mpi.MaxDouble.class, MAX),
        Map.entry(mpi.MinInt.class, MIN), Map.entry(mpi.MinLong.class, MIN),
        Map.entry(mpi.MinFloat.class, MIN), Map.entry(mpi.MinDouble.class, MIN));

    /**
     * The operator that MPJ Express's step object {@code step} (its worker's answer for {@code datatype})
     * computes, or null when it is not one of these sixteen.
     */
    static NumericOperator of(final Op step, final Datatype datatype)
    {
        final boolean singleNumericType =
            datatype == MPI.INT || datatype == MPI.LONG || datatype == MPI.FLOAT || datatype == MPI.DOUBLE;
        return singleNumericType && step != null ? MPJ_CLASSES.get(step.getClass()) : null;
    }

    double apply(final double child, final double partial)
    {
        return switch (this)
        {
            case SUM -> child + partial;
            case PROD -> child * partial;
            case MAX -> child > partial ? child : partial;
            case MIN -> child < partial ? child : partial;
        };
    }

    float apply(final float child, final float partial)
    {
        return switch (this)
        {
            case SUM -> child + partial;
            case PROD -> child * partial;
            case MAX -> child > partial ? child : partial;
            case MIN -> child < partial ? child : partial;
        };
    }

    long apply(final long child, final long partial)
    {
        return switch (this)
        {
            case SUM -> child + partial;
            case PROD -> child * partial;
            case MAX -> child > partial ? child : partial;
            case MIN -> child < partial ? child : partial;
        };
    }

    int apply(final int child, final int partial)
    {
        return switch (this)
        {
            case SUM -> child + partial;
            case PROD -> child * partial;
            case MAX -> child > partial ? child : partial;
            case MIN -> child < partial ? child : partial;
        };
    }
}
