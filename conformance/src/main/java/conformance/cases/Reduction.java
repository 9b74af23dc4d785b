package conformance.cases;

import mpi.MPI;
import mpi.Op;
import mpi.rma.Win;

/**
 * The operations of the accumulate family, with the types MPI-4.1 §6.9.2 defines them on (Java's byte,
 * char, short, int and long count as integers, boolean as logical) and the result each gives: the
 * suite's own reference, written from the standard's table, against which the cases check what a
 * window's memory holds.
 */
enum Reduction
{
    SUM, PROD, MAX, MIN, LAND, LOR, LXOR, BAND, BOR, BXOR, REPLACE, NO_OP;

    /** The op a call takes, read when a case runs. */
    Op op()
    {
        return switch (this)
        {
            case SUM -> MPI.SUM;
            case PROD -> MPI.PROD;
            case MAX -> MPI.MAX;
            case MIN -> MPI.MIN;
            case LAND -> MPI.LAND;
            case LOR -> MPI.LOR;
            case LXOR -> MPI.LXOR;
            case BAND -> MPI.BAND;
            case BOR -> MPI.BOR;
            case BXOR -> MPI.BXOR;
            case REPLACE -> Win.REPLACE;
            case NO_OP -> Win.NO_OP;
        };
    }

    String mpiName()
    {
        return this == REPLACE || this == NO_OP ? "Win." + name() : "MPI." + name();
    }

    /** Whether MPI defines it on {@code kind}: arithmetic on numbers, logical on integers and booleans, bitwise on integers. */
    boolean appliesTo(final Kind kind)
    {
        return switch (this)
        {
            case SUM, PROD, MAX, MIN -> kind != Kind.BOOLEAN;
            case LAND, LOR, LXOR -> kind.integer || kind == Kind.BOOLEAN;
            case BAND, BOR, BXOR -> kind.integer;
            case REPLACE, NO_OP -> true;
        };
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
