package mpi.rma.spi.common;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import mpi.Datatype;
import mpi.MPI;
import mpjbuf.Type;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;

/**
 * MPJ Express's basic datatypes, the project's one table of them: for each, its name, the Java array it
 * describes, its layout in shared memory (native byte order, any alignment: a contiguous window puts a segment
 * wherever the previous one ends) and the {@code mpjbuf} section type MPJ Express packs it as; {@link
 * #ofElements} also reads the pair types ({@link PairType}) as arrays of their base type. The api's one-sided
 * calls, the shm device's messages and collectives, and the conformance suite all read it here.
 *
 * <p>Elements are also handled as "raw" longs, so that accumulate code is written once: an
 * integer sign-extended ({@code char} zero-extended), a boolean as 0 or 1, a float or double
 * as its IEEE bits.
 */
public enum BasicType
{
    BYTE("MPI.BYTE", byte[].class, ValueLayout.JAVA_BYTE, Type.BYTE, true),
    CHAR("MPI.CHAR", char[].class, ValueLayout.JAVA_CHAR_UNALIGNED, Type.CHAR, true),
    SHORT("MPI.SHORT", short[].class, ValueLayout.JAVA_SHORT_UNALIGNED, Type.SHORT, true),
    BOOLEAN("MPI.BOOLEAN", boolean[].class, ValueLayout.JAVA_BYTE, Type.BOOLEAN, false),
    INT("MPI.INT", int[].class, ValueLayout.JAVA_INT_UNALIGNED, Type.INT, true),
    LONG("MPI.LONG", long[].class, ValueLayout.JAVA_LONG_UNALIGNED, Type.LONG, true),
    FLOAT("MPI.FLOAT", float[].class, ValueLayout.JAVA_FLOAT_UNALIGNED, Type.FLOAT, false),
    DOUBLE("MPI.DOUBLE", double[].class, ValueLayout.JAVA_DOUBLE_UNALIGNED, Type.DOUBLE, false);

    private static final BasicType[] VALUES = values();

    private final String mpiName;
    private final Class<?> arrayClass;
    private final ValueLayout layout;
    private final Type mpjbufType;
    private final boolean integer;

    BasicType(final String mpiName, final Class<?> arrayClass, final ValueLayout layout, final Type mpjbufType,
        final boolean integer)
    {
        this.mpjbufType = mpjbufType;
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
    public static BasicType ofBasic(final Datatype datatype)
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

    /**
     * The type of the elements of {@code datatype}'s buffers, or null: a basic type is its own, a pair type
     * ({@code MPI.INT2}, ...: MAXLOC and MINLOC operands) is an array of its base type; null for null, derived
     * and object datatypes.
     */
    public static BasicType ofElements(final Datatype datatype)
    {
        final BasicType basic = ofBasic(datatype);
        if (basic != null)
        {
            return basic;
        }
        final PairType pair = PairType.of(datatype);
        return pair == null ? null : pair.basic();
    }

    /** The basic type of MPJ Express's {@code Datatype.baseType} code, or null (objects, no data, unknown). */
    public static BasicType ofBaseType(final int baseType)
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

    /** One element in memory: native byte order, any alignment ({@code JAVA_BYTE}, 0 or 1, for a boolean). */
    public ValueLayout layout()
    {
        return layout;
    }

    /** The section type MPJ Express packs these elements as ({@code mpjbuf.Type}). */
    public Type mpjbufType()
    {
        return mpjbufType;
    }

    public int sizeBytes()
    {
        return (int)layout.byteSize();
    }

    public boolean isInteger()
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
