package mpi.rma.internal.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import mpi.Datatype;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;

/**
 * The MPJ Express basic datatypes that one-sided calls move, with the Java array each one
 * describes and its layout in shared memory (native byte order, any alignment: a contiguous
 * window puts a segment wherever the previous one ends).
 *
 * <p>Elements are also handled as "raw" longs, so that accumulate code is written once: an
 * integer sign-extended ({@code char} zero-extended), a boolean as 0 or 1, a float or double
 * as its IEEE bits.
 */
public enum BasicType
{
    BYTE("MPI.BYTE", byte[].class, ValueLayout.JAVA_BYTE, true),
    CHAR("MPI.CHAR", char[].class, ValueLayout.JAVA_CHAR_UNALIGNED, true),
    SHORT("MPI.SHORT", short[].class, ValueLayout.JAVA_SHORT_UNALIGNED, true),
    BOOLEAN("MPI.BOOLEAN", boolean[].class, ValueLayout.JAVA_BYTE, false),
    INT("MPI.INT", int[].class, ValueLayout.JAVA_INT_UNALIGNED, true),
    LONG("MPI.LONG", long[].class, ValueLayout.JAVA_LONG_UNALIGNED, true),
    FLOAT("MPI.FLOAT", float[].class, ValueLayout.JAVA_FLOAT_UNALIGNED, false),
    DOUBLE("MPI.DOUBLE", double[].class, ValueLayout.JAVA_DOUBLE_UNALIGNED, false);

    private static final BasicType[] VALUES = values();

    private final String mpiName;
    private final Class<?> arrayClass;
    private final ValueLayout layout;
    private final boolean integer;

    BasicType(final String mpiName, final Class<?> arrayClass, final ValueLayout layout, final boolean integer)
    {
        this.mpiName = mpiName;
        this.arrayClass = arrayClass;
        this.layout = layout;
        this.integer = integer;
    }

    /**
     * The basic type that {@code datatype} is.
     *
     * @param what the call and argument, for the message, e.g. "Win.put: originType".
     * @throws RmaException ERR_TYPE for null, derived and object datatypes.
     */
    public static BasicType of(final Datatype datatype, final String what)
    {
        if (datatype == null)
        {
            throw new RmaException(ErrorClass.ERR_TYPE, what + " is null: give a basic datatype such as MPI.INT");
        }
        final BasicType basic = ofBasic(datatype);
        if (basic != null)
        {
            return basic;
        }
        throw new RmaException(ErrorClass.ERR_TYPE, what + " is " + (datatype == MPI.OBJECT ? "MPI.OBJECT" :
            "a derived or unsupported datatype") + ": this call takes one of the basic types MPI.BYTE, MPI.CHAR, " +
            "MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT and MPI.DOUBLE (MPI-4.1 §12.3.4.3, §12.3.4.4)");
    }

    /** The basic type that {@code datatype} is, or null (for null, derived and object datatypes). */
    static BasicType ofBasic(final Datatype datatype)
    {
        // MPI's datatype objects are per class loader, as ours are: identity is the test.
        for (final BasicType type : VALUES)
        {
            if (datatype == type.datatype())
            {
                return type;
            }
        }
        return null;
    }

    /** The basic type of MPJ Express's {@code Datatype.baseType} code, or null (objects, no data, unknown). */
    static BasicType ofBaseType(final int baseType)
    {
        for (final BasicType type : VALUES)
        {
            if (baseType == type.datatype().baseType)
            {
                return type;
            }
        }
        return null;
    }

    /** MPJ Express's object for this type. */
    public Datatype datatype()
    {
        return switch (this)
        {
            case BYTE -> MPI.BYTE;
            case CHAR -> MPI.CHAR;
            case SHORT -> MPI.SHORT;
            case BOOLEAN -> MPI.BOOLEAN;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            case FLOAT -> MPI.FLOAT;
            case DOUBLE -> MPI.DOUBLE;
        };
    }

    public String mpiName()
    {
        return mpiName;
    }

    public int sizeBytes()
    {
        return (int)layout.byteSize();
    }

    boolean isInteger()
    {
        return integer;
    }

    public boolean isFloatingPoint()
    {
        return this == FLOAT || this == DOUBLE;
    }

    /** Whether {@code buffer} is the Java array this type describes. */
    public boolean describes(final Object buffer)
    {
        return buffer.getClass() == arrayClass;
    }

    public String arrayName()
    {
        return arrayClass.getComponentType().getName() + "[]";
    }

    /** Copies {@code count} elements from {@code array[index...]} to {@code target} at {@code offset}. */
    public void copyToMemory(final Object array, final int index, final MemorySegment target, final long offset,
        final int count)
    {
        if (this == BOOLEAN)
        {
            final boolean[] values = (boolean[])array;
            for (int i = 0; i < count; i++)
            {
                target.set(ValueLayout.JAVA_BYTE, offset + i, (byte)(values[index + i] ? 1 : 0));
            }
            return;
        }
        MemorySegment.copy(array, index, target, layout, offset, count);
    }

    /** Copies {@code count} elements from {@code source} at {@code offset} to {@code array[index...]}. */
    public void copyFromMemory(final MemorySegment source, final long offset, final Object array, final int index,
        final int count)
    {
        if (this == BOOLEAN)
        {
            final boolean[] values = (boolean[])array;
            for (int i = 0; i < count; i++)
            {
                values[index + i] = source.get(ValueLayout.JAVA_BYTE, offset + i) != 0;
            }
            return;
        }
        MemorySegment.copy(source, layout, offset, array, index, count);
    }

    /** Element {@code index} of {@code array} as a raw long. */
    public long rawFromArray(final Object array, final int index)
    {
        return switch (this)
        {
            case BYTE -> ((byte[])array)[index];
            case CHAR -> ((char[])array)[index];
            case SHORT -> ((short[])array)[index];
            case BOOLEAN -> ((boolean[])array)[index] ? 1 : 0;
            case INT -> ((int[])array)[index];
            case LONG -> ((long[])array)[index];
            case FLOAT -> Float.floatToRawIntBits(((float[])array)[index]);
            case DOUBLE -> Double.doubleToRawLongBits(((double[])array)[index]);
        };
    }

    /** Stores raw long {@code raw} as element {@code index} of {@code array}. */
    public void rawToArray(final long raw, final Object array, final int index)
    {
        switch (this)
        {
            case BYTE -> ((byte[])array)[index] = (byte)raw;
            case CHAR -> ((char[])array)[index] = (char)raw;
            case SHORT -> ((short[])array)[index] = (short)raw;
            case BOOLEAN -> ((boolean[])array)[index] = raw != 0;
            case INT -> ((int[])array)[index] = (int)raw;
            case LONG -> ((long[])array)[index] = raw;
            case FLOAT -> ((float[])array)[index] = Float.intBitsToFloat((int)raw);
            case DOUBLE -> ((double[])array)[index] = Double.longBitsToDouble(raw);
        }
    }

    /** The element at {@code offset} of {@code memory} as a raw long (a plain load). */
    public long rawFromMemory(final MemorySegment memory, final long offset)
    {
        return switch (this)
        {
            case BYTE -> memory.get(ValueLayout.JAVA_BYTE, offset);
            case CHAR -> memory.get(ValueLayout.JAVA_CHAR_UNALIGNED, offset);
            case SHORT -> memory.get(ValueLayout.JAVA_SHORT_UNALIGNED, offset);
            case BOOLEAN -> memory.get(ValueLayout.JAVA_BYTE, offset) != 0 ? 1 : 0;
            case INT, FLOAT -> memory.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
            case LONG, DOUBLE -> memory.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
        };
    }

    /** Stores raw long {@code raw} at {@code offset} of {@code memory} (a plain store). */
    public void rawToMemory(final long raw, final MemorySegment memory, final long offset)
    {
        switch (this)
        {
            case BYTE -> memory.set(ValueLayout.JAVA_BYTE, offset, (byte)raw);
            case CHAR -> memory.set(ValueLayout.JAVA_CHAR_UNALIGNED, offset, (char)raw);
            case SHORT -> memory.set(ValueLayout.JAVA_SHORT_UNALIGNED, offset, (short)raw);
            case BOOLEAN -> memory.set(ValueLayout.JAVA_BYTE, offset, (byte)(raw != 0 ? 1 : 0));
            case INT, FLOAT -> memory.set(ValueLayout.JAVA_INT_UNALIGNED, offset, (int)raw);
            case LONG, DOUBLE -> memory.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, raw);
        }
    }

    /** Normalises a raw long to this type's range (e.g. a byte sum wraps to 8 bits). */
    public long normalise(final long raw)
    {
        return switch (this)
        {
            case BYTE -> (byte)raw;
            case CHAR -> (char)raw;
            case SHORT -> (short)raw;
            case BOOLEAN -> raw != 0 ? 1 : 0;
            case INT, FLOAT -> (int)raw;
            case LONG, DOUBLE -> raw;
        };
    }
}
