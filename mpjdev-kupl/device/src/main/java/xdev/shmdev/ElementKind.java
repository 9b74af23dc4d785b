package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import mpi.Datatype;
import mpi.rma.spi.common.BasicType;
import mpjbuf.Type;

/**
 * The element types whose Java arrays the device moves as they lie ({@link MessageBytes#ofElements}), with the
 * {@code mpjbuf.Type} that MPJ Express gives their sections, so that a message of array elements and a packed
 * {@code mpjbuf} message of the same type signature can be received by either kind of receive. MPJ Express
 * packs elements big-endian ({@code java.nio}'s default order) behind an 8-byte section header; an array holds
 * them in the machine's order. {@code boolean} is left out: no memory segment views a {@code boolean[]}.
 */
enum ElementKind
{
    BYTE(BasicType.BYTE),
    CHAR(BasicType.CHAR),
    SHORT(BasicType.SHORT),
    INT(BasicType.INT),
    LONG(BasicType.LONG),
    FLOAT(BasicType.FLOAT),
    DOUBLE(BasicType.DOUBLE);

    /** Bytes of an {@code mpjbuf} section header (type code, 3 bytes of padding, element count). */
    static final int SECTION_HEADER_BYTES = 8;
    private static final ElementKind[] BY_CODE = new ElementKind[32];
    /** By {@link BasicType#ordinal()}; null for {@code BOOLEAN}. */
    private static final ElementKind[] BY_BASIC = new ElementKind[BasicType.values().length];

    static
    {
        for (final ElementKind kind : values())
        {
            BY_CODE[kind.type.getCode()] = kind;
            BY_BASIC[BasicType.valueOf(kind.name()).ordinal()] = kind;
        }
    }

    final Type type;
    final int code;
    private final ValueLayout inArray;
    private final ValueLayout packed;

    /** The kind of {@code basic}'s elements: its section type and layout from the project's one table. */
    ElementKind(final BasicType basic)
    {
        this.type = basic.mpjbufType();
        this.code = type.getCode();
        this.inArray = basic.layout();
        this.packed = inArray.withOrder(ByteOrder.BIG_ENDIAN);
    }

    /** The kind of {@code datatype}'s elements when it is a basic type moved as it lies, or null. */
    static ElementKind ofBasic(final Datatype datatype)
    {
        final BasicType basic = BasicType.ofBasic(datatype);
        return basic == null ? null : BY_BASIC[basic.ordinal()];
    }

    /** The kind of {@code mpjbuf.Type} code {@code code}, or null if its arrays are not moved as they lie. */
    static ElementKind ofCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** The kind of a Java array of a basic type, or null for any other object (and for {@code boolean[]}). */
    static ElementKind ofArray(final Object array)
    {
        return switch (array)
        {
            case byte[] ignored -> BYTE;
            case char[] ignored -> CHAR;
            case short[] ignored -> SHORT;
            case int[] ignored -> INT;
            case long[] ignored -> LONG;
            case float[] ignored -> FLOAT;
            case double[] ignored -> DOUBLE;
            case null, default -> null;
        };
    }

    /** The whole of {@code array}, an array of this kind, as memory. */
    MemorySegment view(final Object array)
    {
        return switch (this)
        {
            case BYTE -> MemorySegment.ofArray((byte[])array);
            case CHAR -> MemorySegment.ofArray((char[])array);
            case SHORT -> MemorySegment.ofArray((short[])array);
            case INT -> MemorySegment.ofArray((int[])array);
            case LONG -> MemorySegment.ofArray((long[])array);
            case FLOAT -> MemorySegment.ofArray((float[])array);
            case DOUBLE -> MemorySegment.ofArray((double[])array);
        };
    }

    /** Copies elements {@code [index, index + count)} of {@code array}, as they lie, into {@code to} at {@code at}. */
    void copyOut(final Object array, final int index, final MemorySegment to, final long at, final int count)
    {
        // Straight from the array: no segment made to view it.
        MemorySegment.copy(array, index, to, inArray, at, count);
    }

    /** Copies {@code count} elements in an array's order from {@code from} at {@code at} into {@code array}. */
    void copyIn(final MemorySegment from, final long at, final Object array, final int index, final int count)
    {
        MemorySegment.copy(from, inArray, at, array, index, count);
    }

    int bytes()
    {
        return (int)inArray.byteSize();
    }

    /** Turns {@code elements} elements at {@code at}, in an array's order, into MPJ Express's packed order, in place. */
    void pack(final MemorySegment memory, final long at, final int elements)
    {
        if (bytes() > 1)
        {
            MemorySegment.copy(memory, inArray, at, memory, packed, at, elements);
        }
    }

    /** Copies {@code elements} packed elements from {@code from} at {@code at} into {@code to} at {@code toAt}. */
    void unpack(final MemorySegment from, final long at, final MemorySegment to, final long toAt, final int elements)
    {
        MemorySegment.copy(from, packed, at, to, inArray, toAt, elements);
    }
}
