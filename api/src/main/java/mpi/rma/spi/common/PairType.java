package mpi.rma.spi.common;

import mpi.Datatype;
import mpi.MPI;

/**
 * MPJ Express's pair datatypes, the operands of {@code MPI.MAXLOC} and {@code MPI.MINLOC}: each is
 * {@code Datatype.Contiguous(2, base)}, so a pair is two consecutive elements of one Java array of the
 * base type, the value first and its index second ({@code MPI.INT2} over an {@code int[]}, {@code MPI.DOUBLE2}
 * over a {@code double[]} whose indices are doubles). One-sided calls update a pair as one element
 * (MPI-4.1 section 12.7.1), so the accumulate family recognises these five objects by identity; a datatype
 * built from them is only its base elements.
 */
public enum PairType
{
    SHORT2(BasicType.SHORT), INT2(BasicType.INT), LONG2(BasicType.LONG), FLOAT2(BasicType.FLOAT),
    DOUBLE2(BasicType.DOUBLE);

    /** For messages: every pair type, as a user writes it. */
    public static final String NAMES = "MPI.SHORT2, MPI.INT2, MPI.LONG2, MPI.FLOAT2 or MPI.DOUBLE2";

    private static final PairType[] VALUES = values();

    private final BasicType basic;

    PairType(final BasicType basic)
    {
        this.basic = basic;
    }

    /** The pair type {@code datatype} is, or null (a basic, derived or null datatype). */
    public static PairType of(final Datatype datatype)
    {
        if (datatype == null)
        {
            return null;
        }
        // MPJ Express makes the five once, in MPI.Init: identity is the test, as for the basic types.
        for (final PairType pair : VALUES)
        {
            if (datatype == pair.datatype())
            {
                return pair;
            }
        }
        return null;
    }

    /** MPJ Express's object for this pair type. */
    public Datatype datatype()
    {
        return switch (this)
        {
            case SHORT2 -> MPI.SHORT2;
            case INT2 -> MPI.INT2;
            case LONG2 -> MPI.LONG2;
            case FLOAT2 -> MPI.FLOAT2;
            case DOUBLE2 -> MPI.DOUBLE2;
        };
    }

    /** The type of both the value and the index. */
    public BasicType basic()
    {
        return basic;
    }

    public String mpiName()
    {
        return "MPI." + name();
    }
}
