package xdev.shmdev.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import mpi.Datatype;
import mpi.rma.spi.common.BasicType;

/**
 * The MPJ Express datatypes whose buffers are plain Java primitive arrays, with the shared-memory
 * layout of one array element. Other datatypes (MPI.OBJECT, derived types, MPI.PACKED) are left to
 * MPJ Express: their buffers are object graphs or strided views that only its packing code knows.
 *
 * <p>{@code BOOLEAN} has no {@link ValueLayout} for arrays, so it is copied one byte per element (0 or 1).
 */
enum ElementType
{
    BYTE(BasicType.BYTE),
    CHAR(BasicType.CHAR),
    SHORT(BasicType.SHORT),
    BOOLEAN(BasicType.BOOLEAN),
    INT(BasicType.INT),
    LONG(BasicType.LONG),
    FLOAT(BasicType.FLOAT),
    DOUBLE(BasicType.DOUBLE);

    /** By {@link BasicType#ordinal()}. */
    private static final ElementType[] BY_BASIC = new ElementType[BasicType.values().length];

    static
    {
        for (final ElementType type : values())
        {
            BY_BASIC[type.basic.ordinal()] = type;
        }
    }

    private final BasicType basic;
    private final ValueLayout layout;

    /** The element type of {@code basic}: its layout from the project's one table of basic types. */
    ElementType(final BasicType basic)
    {
        this.basic = basic;
        this.layout = basic.layout();
    }

    /** Bytes of one element in shared memory. */
    long bytes()
    {
        return layout.byteSize();
    }

    /**
     * The element type of {@code type}'s buffers, or null when MPJ Express must handle it. The pair types
     * ({@code MPI.INT2}, ...: MAXLOC and MINLOC operands) are arrays of their base type.
     */
    static ElementType of(final Datatype type)
    {
        final BasicType elements = BasicType.ofElements(type);
        return elements == null ? null : BY_BASIC[elements.ordinal()];
    }

    /** Whether {@code buffer} is an array of this type (a wrong one is left to MPJ Express, which reports it). */
    boolean isArray(final Object buffer)
    {
        return basic.describes(buffer);
    }

    /** A new array of this type holding {@code elements} elements. */
    Object newArray(final int elements)
    {
        return switch (this)
        {
            case BYTE -> new byte[elements];
            case CHAR -> new char[elements];
            case SHORT -> new short[elements];
            case BOOLEAN -> new boolean[elements];
            case INT -> new int[elements];
            case LONG -> new long[elements];
            case FLOAT -> new float[elements];
            case DOUBLE -> new double[elements];
        };
    }

    /** Copies {@code elements} elements of {@code array} from {@code index} into {@code to} at {@code offsetBytes}. */
    void copyIn(final Object array, final int index, final MemorySegment to, final long offsetBytes,
        final int elements)
    {
        if (this == BOOLEAN)
        {
            final boolean[] values = (boolean[])array;
            for (int i = 0; i < elements; i++)
            {
                to.set(ValueLayout.JAVA_BYTE, offsetBytes + i, values[index + i] ? (byte)1 : (byte)0);
            }
            return;
        }
        MemorySegment.copy(array, index, to, layout, offsetBytes, elements);
    }

    /** Copies {@code elements} elements from {@code from} at {@code offsetBytes} into {@code array} from {@code index}. */
    void copyOut(final MemorySegment from, final long offsetBytes, final Object array, final int index,
        final int elements)
    {
        if (this == BOOLEAN)
        {
            final boolean[] values = (boolean[])array;
            for (int i = 0; i < elements; i++)
            {
                values[index + i] = from.get(ValueLayout.JAVA_BYTE, offsetBytes + i) != 0;
            }
            return;
        }
        MemorySegment.copy(from, layout, offsetBytes, array, index, elements);
    }
}
