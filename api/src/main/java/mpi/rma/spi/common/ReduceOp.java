package mpi.rma.spi.common;

import mpi.MPI;
import mpi.Op;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.vocabulary.ExtraOps;

/**
 * The project's one table of reductions: the operations of accumulate calls, MPJ Express's predefined
 * reductions plus {@code Win.REPLACE} and {@code Win.NO_OP}, each with the object a program passes ({@link
 * #op()}), the types it is defined on (MPI-4.1 section 6.9.2 and 12.3.4) and its element arithmetic on raw
 * longs ({@link BasicType}).
 *
 * <p>The last four are pairwise: their element is a (value, index) pair of a {@link PairType}, updated as
 * one (the api's {@code PairElements}). REPLACE and NO_OP on a pair type resolve to {@link #PAIR_REPLACE} and
 * {@link #PAIR_NO_OP}, so that the op alone, sent by ordinal across nodes, tells every path to step by pairs.
 */
public enum ReduceOp
{
    SUM("MPI.SUM"), PROD("MPI.PROD"), MAX("MPI.MAX"), MIN("MPI.MIN"),
    LAND("MPI.LAND"), LOR("MPI.LOR"), LXOR("MPI.LXOR"),
    BAND("MPI.BAND"), BOR("MPI.BOR"), BXOR("MPI.BXOR"),
    REPLACE("Win.REPLACE"), NO_OP("Win.NO_OP"),
    MAXLOC("MPI.MAXLOC"), MINLOC("MPI.MINLOC"), PAIR_REPLACE("Win.REPLACE"), PAIR_NO_OP("Win.NO_OP");

    private static final ReduceOp[] VALUES = values();

    private final String mpiName;

    ReduceOp(final String mpiName)
    {
        this.mpiName = mpiName;
    }

    public String mpiName()
    {
        return mpiName;
    }

    /** The object a program passes for this operation: MPJ Express's, or {@code Win}'s REPLACE and NO_OP. */
    public Op op()
    {
        // Read at each call: each multicore rank has MPJ Express's MPI class of its own.
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
            case REPLACE, PAIR_REPLACE -> ExtraOps.REPLACE;
            case NO_OP, PAIR_NO_OP -> ExtraOps.NO_OP;
            case MAXLOC -> MPI.MAXLOC;
            case MINLOC -> MPI.MINLOC;
        };
    }

    /**
     * The operation {@code op} is, checked against {@code type}.
     *
     * @param allowNoOp whether {@code Win.NO_OP} is allowed (getAccumulate, fetchAndOp) or not (accumulate).
     * @throws RmaException ERR_OP for null, user-defined, MAXLOC/MINLOC (defined on pair types only, see
     *                      {@link #ofPair}) and operations not defined on the type.
     */
    public static ReduceOp of(final Op op, final BasicType type, final boolean allowNoOp, final String call)
    {
        final ReduceOp resolved = resolve(op, call);
        checkNoOpAllowed(resolved, allowNoOp, call);
        if (!resolved.definedOn(type))
        {
            throw new RmaException(ErrorClass.ERR_OP, call + ": op " + resolved.mpiName + " is not defined on " +
                type.mpiName() + " (" + resolved.typesText() + ")");
        }
        return resolved;
    }

    /**
     * The pairwise operation {@code op} is on {@code pair} (MPI-4.1 section 6.9.4: MAXLOC and MINLOC; section
     * 12.3.4: REPLACE and NO_OP on any predefined datatype).
     *
     * @throws RmaException ERR_OP for null, user-defined and the other predefined operations, which MPI does not
     *                      define on pair types.
     */
    public static ReduceOp ofPair(final Op op, final PairType pair, final boolean allowNoOp, final String call)
    {
        final ReduceOp resolved = resolve(op, call);
        checkNoOpAllowed(resolved, allowNoOp, call);
        return switch (resolved)
        {
            case MAXLOC, MINLOC -> resolved;
            case REPLACE -> PAIR_REPLACE;
            case NO_OP -> PAIR_NO_OP;
            default -> throw new RmaException(ErrorClass.ERR_OP, call + ": op " + resolved.mpiName + " is not " +
                "defined on " + pair.mpiName() + ", a (value, index) pair type: it takes MPI.MAXLOC, MPI.MINLOC, " +
                "Win.REPLACE and Win.NO_OP (MPI-4.1 §6.9.4, §12.3.4)");
        };
    }

    private static void checkNoOpAllowed(final ReduceOp resolved, final boolean allowNoOp, final String call)
    {
        if (resolved == NO_OP && !allowNoOp)
        {
            throw new RmaException(ErrorClass.ERR_OP, call + ": op is Win.NO_OP, which only getAccumulate and " +
                "fetchAndOp accept; use Win.REPLACE or a reduction such as MPI.SUM");
        }
    }

    /** Whether the element is a (value, index) pair: MAXLOC, MINLOC, and REPLACE and NO_OP on a pair type. */
    public boolean pairwise()
    {
        return this == MAXLOC || this == MINLOC || this == PAIR_REPLACE || this == PAIR_NO_OP;
    }

    /** Whether the origin's elements are read: all but NO_OP, whose origin may be null. */
    public boolean readsOrigin()
    {
        return this != NO_OP && this != PAIR_NO_OP;
    }

    /**
     * Whether a pairwise op replaces the pair (value, index) with the offered one: always for REPLACE; for
     * MAXLOC when the offered value is greater, or equal with a lower index; for MINLOC when it is smaller, or
     * equal with a lower index (MPI-4.1 §6.9.4). Values that do not compare (a NaN) keep the pair.
     */
    public boolean pairTakesOperand(final BasicType type, final long value, final long index, final long offeredValue,
        final long offeredIndex)
    {
        if (this == PAIR_REPLACE)
        {
            return true;
        }
        if (this == PAIR_NO_OP)
        {
            return false;
        }
        final boolean better = this == MAXLOC ? greater(type, offeredValue, value) : greater(type, value, offeredValue);
        return better || (equal(type, offeredValue, value) && greater(type, index, offeredIndex));
    }

    private static boolean greater(final BasicType type, final long a, final long b)
    {
        return switch (type)
        {
            case FLOAT -> Float.intBitsToFloat((int)a) > Float.intBitsToFloat((int)b);
            case DOUBLE -> Double.longBitsToDouble(a) > Double.longBitsToDouble(b);
            default -> a > b;
        };
    }

    private static boolean equal(final BasicType type, final long a, final long b)
    {
        return switch (type)
        {
            // Numeric equality: 0.0 equals -0.0, and a NaN equals nothing.
            case FLOAT -> Float.intBitsToFloat((int)a) == Float.intBitsToFloat((int)b);
            case DOUBLE -> Double.longBitsToDouble(a) == Double.longBitsToDouble(b);
            default -> a == b;
        };
    }

    private static ReduceOp resolve(final Op op, final String call)
    {
        if (op == null)
        {
            throw new RmaException(ErrorClass.ERR_OP, call + ": op is null: give MPI.SUM, Win.REPLACE, ...");
        }
        // Identity, as MPJ Express's own reductions test it; the pair forms share REPLACE's and NO_OP's objects
        // and come later in the table, so that an op resolves to its plain form.
        for (final ReduceOp candidate : VALUES)
        {
            if (op == candidate.op())
            {
                return candidate;
            }
        }
        throw new RmaException(ErrorClass.ERR_OP, call + ": op is a user-defined operation; accumulate calls " +
            "accept only predefined operations (MPI.SUM, MPI.MAX, ..., Win.REPLACE, Win.NO_OP)");
    }

    public boolean definedOn(final BasicType type)
    {
        return switch (this)
        {
            case SUM, PROD, MAX, MIN -> type != BasicType.BOOLEAN;
            case LAND, LOR, LXOR -> type == BasicType.BOOLEAN || type.isInteger();
            case BAND, BOR, BXOR -> type.isInteger();
            case REPLACE, NO_OP -> true;
            case MAXLOC, MINLOC, PAIR_REPLACE, PAIR_NO_OP -> false;
        };
    }

    private String typesText()
    {
        return switch (this)
        {
            case SUM, PROD, MAX, MIN -> "it needs a numeric type";
            case LAND, LOR, LXOR -> "it needs MPI.BOOLEAN or an integer type";
            case BAND, BOR, BXOR -> "it needs an integer type: MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT or MPI.LONG";
            case MAXLOC, MINLOC -> "it needs a (value, index) pair type: " + PairType.NAMES;
            case REPLACE, NO_OP, PAIR_REPLACE, PAIR_NO_OP -> "";
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
            default -> throw new IllegalStateException(type + " " + this);
        };
    }
}
