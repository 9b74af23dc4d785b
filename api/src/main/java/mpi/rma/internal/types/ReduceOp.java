package mpi.rma.internal.types;

import mpi.MPI;
import mpi.Op;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * The operations of accumulate calls: MPJ Express's predefined reductions plus
 * {@link Win#REPLACE} and {@link Win#NO_OP}, each with the types it is defined on
 * (MPI-4.1 section 6.9.2 and 12.3.4) and its element arithmetic on raw longs
 * ({@link BasicType}).
 */
public enum ReduceOp
{
    SUM("MPI.SUM"), PROD("MPI.PROD"), MAX("MPI.MAX"), MIN("MPI.MIN"),
    LAND("MPI.LAND"), LOR("MPI.LOR"), LXOR("MPI.LXOR"),
    BAND("MPI.BAND"), BOR("MPI.BOR"), BXOR("MPI.BXOR"),
    REPLACE("Win.REPLACE"), NO_OP("Win.NO_OP");

    private final String mpiName;

    ReduceOp(final String mpiName)
    {
        this.mpiName = mpiName;
    }

    String mpiName()
    {
        return mpiName;
    }

    /**
     * The operation {@code op} is, checked against {@code type}.
     *
     * @param allowNoOp whether {@link Win#NO_OP} is allowed (getAccumulate, fetchAndOp) or not (accumulate).
     * @throws RmaException ERR_OP for null, user-defined, MAXLOC/MINLOC and operations not defined on the type.
     */
    public static ReduceOp of(final Op op, final BasicType type, final boolean allowNoOp, final String call)
    {
        final ReduceOp resolved = resolve(op, call);
        if (resolved == NO_OP && !allowNoOp)
        {
            throw new RmaException(ErrorClass.ERR_OP, call + ": op is Win.NO_OP, which only getAccumulate and " +
                "fetchAndOp accept; use Win.REPLACE or a reduction such as MPI.SUM");
        }
        if (!resolved.definedOn(type))
        {
            throw new RmaException(ErrorClass.ERR_OP, call + ": op " + resolved.mpiName + " is not defined on " +
                type.mpiName() + " (" + resolved.typesText() + ")");
        }
        return resolved;
    }

    private static ReduceOp resolve(final Op op, final String call)
    {
        if (op == null)
        {
            throw new RmaException(ErrorClass.ERR_OP, call + ": op is null: give MPI.SUM, Win.REPLACE, ...");
        }
        if (op == Win.REPLACE)
        {
            return REPLACE;
        }
        if (op == Win.NO_OP)
        {
            return NO_OP;
        }
        if (op == MPI.SUM)
        {
            return SUM;
        }
        if (op == MPI.PROD)
        {
            return PROD;
        }
        if (op == MPI.MAX)
        {
            return MAX;
        }
        if (op == MPI.MIN)
        {
            return MIN;
        }
        if (op == MPI.LAND)
        {
            return LAND;
        }
        if (op == MPI.LOR)
        {
            return LOR;
        }
        if (op == MPI.LXOR)
        {
            return LXOR;
        }
        if (op == MPI.BAND)
        {
            return BAND;
        }
        if (op == MPI.BOR)
        {
            return BOR;
        }
        if (op == MPI.BXOR)
        {
            return BXOR;
        }
        if (op == MPI.MAXLOC || op == MPI.MINLOC)
        {
            throw new RmaException(ErrorClass.ERR_OP, call + ": MPI.MAXLOC and MPI.MINLOC need pair datatypes, " +
                "which one-sided calls do not support");
        }
        throw new RmaException(ErrorClass.ERR_OP, call + ": op is a user-defined operation; accumulate calls " +
            "accept only predefined operations (MPI.SUM, MPI.MAX, ..., Win.REPLACE, Win.NO_OP)");
    }

    boolean definedOn(final BasicType type)
    {
        return switch (this)
        {
            case SUM, PROD, MAX, MIN -> type != BasicType.BOOLEAN;
            case LAND, LOR, LXOR -> type == BasicType.BOOLEAN || type.isInteger();
            case BAND, BOR, BXOR -> type.isInteger();
            case REPLACE, NO_OP -> true;
        };
    }

    private String typesText()
    {
        return switch (this)
        {
            case SUM, PROD, MAX, MIN -> "it needs a numeric type";
            case LAND, LOR, LXOR -> "it needs MPI.BOOLEAN or an integer type";
            case BAND, BOR, BXOR -> "it needs an integer type: MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT or MPI.LONG";
            case REPLACE, NO_OP -> "";
        };
    }

    /** The new target value when {@code operand} is combined into {@code current}, both raw longs of {@code type}. */
    public long apply(final BasicType type, final long current, final long operand)
    {
        if (this == REPLACE)
        {
            return operand;
        }
        if (this == NO_OP)
        {
            return current;
        }
        return switch (type)
        {
            case FLOAT -> Float.floatToRawIntBits(applyDouble(Float.intBitsToFloat((int)current),
                Float.intBitsToFloat((int)operand), true));
            case DOUBLE -> Double.doubleToRawLongBits(applyDouble(Double.longBitsToDouble(current),
                Double.longBitsToDouble(operand), false));
            default -> type.normalise(applyInteger(type, current, operand));
        };
    }

    private float applyDouble(final float current, final float operand, final boolean single)
    {
        return (float)applyDouble((double)current, (double)operand, single);
    }

    private double applyDouble(final double current, final double operand, final boolean single)
    {
        final double result = switch (this)
        {
            case SUM -> current + operand;
            case PROD -> current * operand;
            case MAX -> Math.max(current, operand);
            case MIN -> Math.min(current, operand);
            default -> throw new IllegalStateException(mpiName + " on floating point");
        };
        // A float sum computed in double and rounded once is the float sum: both operands are exact in double.
        return single ? (float)result : result;
    }

    private long applyInteger(final BasicType type, final long current, final long operand)
    {
        return switch (this)
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
            case REPLACE, NO_OP -> throw new IllegalStateException(type + " " + this);
        };
    }
}
