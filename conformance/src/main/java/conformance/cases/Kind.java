package conformance.cases;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import mpi.Datatype;
import mpi.rma.spi.common.BasicType;

/**
 * MPJ Express's basic datatypes, for cases that run one check per type. Values travel as longs: an
 * integer as its value (a char unsigned, 0 to 65535), a boolean as 0 or 1, a float or a double as its
 * IEEE bits ({@link #of(double)}), so that one table of values and one reference of each operation
 * ({@link Reduction#apply}) serve every type.
 */
enum Kind
{
    BYTE(BasicType.BYTE), CHAR(BasicType.CHAR), SHORT(BasicType.SHORT), BOOLEAN(BasicType.BOOLEAN),
    INT(BasicType.INT), LONG(BasicType.LONG), FLOAT(BasicType.FLOAT), DOUBLE(BasicType.DOUBLE);

    /** The type in the project's one table of basic types; what the suite adds here are its values. */
    final BasicType basic;
    /** Bytes of one element. */
    final int bytes;
    /** Whether it is an integer type (Java's byte, char, short, int and long), on which bitwise ops apply. */
    final boolean integer;

    Kind(final BasicType basic)
    {
        this.basic = basic;
        this.bytes = basic.sizeBytes();
        this.integer = basic.isInteger();
    }

    boolean floating()
    {
        return basic.isFloatingPoint();
    }

    /** MPJ Express's datatype, read when a case runs (each multicore rank has its own MPI class). */
    Datatype datatype()
    {
        return basic.datatype();
    }

    String mpiName()
    {
        return basic.mpiName();
    }

    /** A Java array of {@code n} elements of this type. */
    Object array(final int n)
    {
        return switch (this)
        {
            case BYTE -> new byte[n];
            case CHAR -> new char[n];
            case SHORT -> new short[n];
            case BOOLEAN -> new boolean[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
        };
    }

    /** An array of one element holding {@code value}. */
    Object one(final long value)
    {
        final Object array = array(1);
        set(array, 0, value);
        return array;
    }

    long get(final Object array, final int i)
    {
        return switch (this)
        {
            case BYTE -> ((byte[])array)[i];
            case CHAR -> ((char[])array)[i];
            case SHORT -> ((short[])array)[i];
            case BOOLEAN -> ((boolean[])array)[i] ? 1 : 0;
            case INT -> ((int[])array)[i];
            case LONG -> ((long[])array)[i];
            case FLOAT -> Float.floatToRawIntBits(((float[])array)[i]);
            case DOUBLE -> Double.doubleToRawLongBits(((double[])array)[i]);
        };
    }

    void set(final Object array, final int i, final long value)
    {
        switch (this)
        {
            case BYTE -> ((byte[])array)[i] = (byte)value;
            case CHAR -> ((char[])array)[i] = (char)value;
            case SHORT -> ((short[])array)[i] = (short)value;
            case BOOLEAN -> ((boolean[])array)[i] = value != 0;
            case INT -> ((int[])array)[i] = (int)value;
            case LONG -> ((long[])array)[i] = value;
            case FLOAT -> ((float[])array)[i] = Float.intBitsToFloat((int)value);
            case DOUBLE -> ((double[])array)[i] = Double.longBitsToDouble(value);
        }
    }

    /** Element {@code index} of {@code memory} (a boolean is a byte, 0 or 1). */
    long load(final MemorySegment memory, final long index)
    {
        final long at = index * bytes;
        return switch (this)
        {
            case BYTE -> memory.get(ValueLayout.JAVA_BYTE, at);
            case CHAR -> memory.get(ValueLayout.JAVA_CHAR_UNALIGNED, at);
            case SHORT -> memory.get(ValueLayout.JAVA_SHORT_UNALIGNED, at);
            case BOOLEAN -> memory.get(ValueLayout.JAVA_BYTE, at) != 0 ? 1 : 0;
            case INT, FLOAT -> memory.get(ValueLayout.JAVA_INT_UNALIGNED, at);
            case LONG, DOUBLE -> memory.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
        };
    }

    void store(final MemorySegment memory, final long index, final long value)
    {
        final long at = index * bytes;
        switch (this)
        {
            case BYTE -> memory.set(ValueLayout.JAVA_BYTE, at, (byte)value);
            case CHAR -> memory.set(ValueLayout.JAVA_CHAR_UNALIGNED, at, (char)value);
            case SHORT -> memory.set(ValueLayout.JAVA_SHORT_UNALIGNED, at, (short)value);
            case BOOLEAN -> memory.set(ValueLayout.JAVA_BYTE, at, (byte)(value != 0 ? 1 : 0));
            case INT, FLOAT -> memory.set(ValueLayout.JAVA_INT_UNALIGNED, at, (int)value);
            case LONG, DOUBLE -> memory.set(ValueLayout.JAVA_LONG_UNALIGNED, at, value);
        }
    }

    /** {@code value} cut to this type's range, as Java's narrowing does (a byte sum wraps at 8 bits). */
    long normalise(final long value)
    {
        return switch (this)
        {
            case BYTE -> (byte)value;
            case CHAR -> (char)value;
            case SHORT -> (short)value;
            case BOOLEAN -> value != 0 ? 1 : 0;
            case INT, FLOAT -> (int)value;
            case LONG, DOUBLE -> value;
        };
    }

    /** A value as the messages show it. */
    String show(final long value)
    {
        return switch (this)
        {
            case FLOAT -> Float.toString(Float.intBitsToFloat((int)value));
            case DOUBLE -> Double.toString(Double.longBitsToDouble(value));
            case BOOLEAN -> Boolean.toString(value != 0);
            case CHAR -> "0x" + Long.toHexString(value);
            default -> Long.toString(value);
        };
    }

    /** The long that stands for {@code value} of this type: its bits for a float or double, else the value. */
    long of(final double value)
    {
        return switch (this)
        {
            case FLOAT -> Float.floatToRawIntBits((float)value);
            case DOUBLE -> Double.doubleToRawLongBits(value);
            default -> normalise((long)value);
        };
    }

    /**
     * Eight values of this type that an implementation could get wrong: the ends of its range, a char
     * above 0x7fff (negative if sign-extended), bits above the low byte or word, floating-point values
     * whose sums and products of up to eight are exact (so the order of the origins does not matter).
     */
    long[] samples()
    {
        return switch (this)
        {
            case BYTE -> new long[] {120, -100, 7, -1, 64, -128, 3, 99};
            case CHAR -> new long[] {0xFFF0, 0x0010, 0x8001, 0x7FFF, 1, 0xABCD, 2, 0x00FF};
            case SHORT -> new long[] {32000, -32000, 5, -2, 1000, -7, 3, 12345};
            case BOOLEAN -> new long[] {1, 0, 1, 1, 0, 1, 0, 0};
            case INT -> new long[] {Integer.MAX_VALUE - 3, Integer.MIN_VALUE + 5, 12, -7, 0x40000000, -1, 3, 65536};
            case LONG -> new long[] {Long.MAX_VALUE - 9, Long.MIN_VALUE + 11, 1L << 40, -3, 0x0F0F0F0F0F0F0F0FL, -1, 5,
                1L << 33};
            case FLOAT -> floats(1.5, -2, 0.5, 3, -0.25, 4, 1, -1);
            case DOUBLE -> floats(1.5, -2, 0.5, 3, -0.25, 4, 1 + 0x1p-40, -1);
        };
    }

    /**
     * A true value whose low byte is 0 where the type has more than one byte (and whose low 32 bits are 0
     * for a long): an implementation that tests only the low part for "true" takes it for false.
     */
    long high()
    {
        return switch (this)
        {
            case BYTE -> -128;
            case CHAR -> 0x8000;
            case SHORT -> 0x0100;
            case BOOLEAN -> 1;
            case INT -> 1 << 20;
            case LONG -> 1L << 40;
            case FLOAT, DOUBLE -> of(2);
        };
    }

    private long[] floats(final double... values)
    {
        final long[] raw = new long[values.length];
        for (int i = 0; i < values.length; i++)
        {
            raw[i] = of(values[i]);
        }
        return raw;
    }
}
