package conformance.cases;

import mpi.Op;
import mpi.rma.spi.common.ReduceOp;

/**
 * The operations of the accumulate family, keyed by the project's one table of reductions (which gives each
 * its object, its name and the types MPI-4.1 §6.9.2 defines it on: Java's byte, char, short, int and long count
 * as integers, boolean as logical), and the result each gives ({@link #apply}): the suite's own reference,
 * written from the standard's table, against which the cases check what a window's memory holds.
 */
enum Reduction
{
    SUM(ReduceOp.SUM), PROD(ReduceOp.PROD), MAX(ReduceOp.MAX), MIN(ReduceOp.MIN), LAND(ReduceOp.LAND),
    LOR(ReduceOp.LOR), LXOR(ReduceOp.LXOR), BAND(ReduceOp.BAND), BOR(ReduceOp.BOR), BXOR(ReduceOp.BXOR),
    REPLACE(ReduceOp.REPLACE), NO_OP(ReduceOp.NO_OP);

    /** The operation in the project's one table of reductions; {@link #apply} is the suite's own reference. */
    private final ReduceOp reduceOp;

    Reduction(final ReduceOp reduceOp)
    {
        this.reduceOp = reduceOp;
    }

    /** The op a call takes, read when a case runs. */
    Op op()
    {
        return reduceOp.op();
    }

    String mpiName()
    {
        return reduceOp.mpiName();
    }

    /** Whether MPI defines it on {@code kind}: arithmetic on numbers, logical on integers and booleans, bitwise on integers. */
    boolean appliesTo(final Kind kind)
    {
        return reduceOp.definedOn(kind.basic);
    }

    /** The target's new value when {@code operand} is combined into {@code current} ({@link Kind}'s longs). */
    long apply(final Kind kind, final long current, final long operand)
    {
        if (this == REPLACE)
        {
            return operand;
        }
        if (this == NO_OP)
        {
            return current;
        }
        if (kind == Kind.FLOAT)
        {
            final float a = Float.intBitsToFloat((int)current);
            final float b = Float.intBitsToFloat((int)operand);
            return Float.floatToRawIntBits(switch (this)
            {
                case SUM -> a + b;
                case PROD -> a * b;
                case MAX -> Math.max(a, b);
                case MIN -> Math.min(a, b);
                default -> throw new IllegalArgumentException(this + " on " + kind);
            });
        }
        if (kind == Kind.DOUBLE)
        {
            final double a = Double.longBitsToDouble(current);
            final double b = Double.longBitsToDouble(operand);
            return Double.doubleToRawLongBits(switch (this)
            {
                case SUM -> a + b;
                case PROD -> a * b;
                case MAX -> Math.max(a, b);
                case MIN -> Math.min(a, b);
                default -> throw new IllegalArgumentException(this + " on " + kind);
            });
        }
        return kind.normalise(switch (this)
        {
            case SUM -> current + operand;
            case PROD -> current * operand;
            case MAX -> Math.max(current, operand);
            case MIN -> Math.min(current, operand);
            case LAND -> current != 0 && operand != 0 ? 1 : 0;
            case LOR -> current != 0 || operand != 0 ? 1 : 0;
            case LXOR -> (current != 0) != (operand != 0) ? 1 : 0;
            case BAND -> current & operand;
            case BOR -> current | operand;
            case BXOR -> current ^ operand;
            default -> throw new IllegalArgumentException(this + " on " + kind);
        });
    }
}
