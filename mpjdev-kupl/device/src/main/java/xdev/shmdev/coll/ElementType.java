package xdev.shmdev.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import mpi.Datatype;
import mpi.MPI;

/**
 * The MPJ Express datatypes whose buffers are plain Java primitive arrays, with the shared-memory
 * layout of one array element. Other datatypes (MPI.OBJECT, derived types, MPI.PACKED) are left to
 * MPJ Express: their buffers are object graphs or strided views that only its packing code knows.
 *
 * <p>{@code BOOLEAN} has no {@link ValueLayout} for arrays, so it is copied one byte per element (0 or 1).
 */
enum ElementType
{
    BYTE(ValueLayout.JAVA_BYTE),
    CHAR(ValueLayout.JAVA_CHAR_UNALIGNED),
    SHORT(ValueLayout.JAVA_SHORT_UNALIGNED),
    BOOLEAN(ValueLayout.JAVA_BYTE),
    INT(ValueLayout.JAVA_INT_UNALIGNED),
    LONG(ValueLayout.JAVA_LONG_UNALIGNED),
    FLOAT(ValueLayout.JAVA_FLOAT_UNALIGNED),
    DOUBLE(ValueLayout.JAVA_DOUBLE_UNALIGNED);

    private final ValueLayout layout;

    ElementType(final ValueLayout layout)
    {
        this.layout = layout;
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
        if (type == MPI.DOUBLE || type == MPI.DOUBLE2)
        {
            return DOUBLE;
        }
        if (type == MPI.INT || type == MPI.INT2)
        {
            return INT;
        }
        if (type == MPI.LONG || type == MPI.LONG2)
        {
            return LONG;
        }
        if (type == MPI.FLOAT || type == MPI.FLOAT2)
        {
            return FLOAT;
        }
        if (type == MPI.SHORT || type == MPI.SHORT2)
        {
            return SHORT;
        }
        if (type == MPI.BYTE)
        {
            return BYTE;
        }
        if (type == MPI.CHAR)
        {
            return CHAR;
        }
        return type == MPI.BOOLEAN ? BOOLEAN : null;
    }

    /** Whether {@code buffer} is an array of this type (a wrong one is left to MPJ Express, which reports it). */
    boolean isArray(final Object buffer)
    {
        return switch (this)
        {
            case BYTE -> buffer instanceof byte[];
            case CHAR -> buffer instanceof char[];
            case SHORT -> buffer instanceof short[];
            case BOOLEAN -> buffer instanceof boolean[];
            case INT -> buffer instanceof int[];
            case LONG -> buffer instanceof long[];
            case FLOAT -> buffer instanceof float[];
            case DOUBLE -> buffer instanceof double[];
        };
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
