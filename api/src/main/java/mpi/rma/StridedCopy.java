package mpi.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies equal blocks, equally spaced, between a Java array and memory: the strided fast path of
 * {@link TypedMoves} (a column of a row-major matrix, a vector type on either side).
 *
 * <p>Blocks of one element, the common case of a matrix column, are copied by a plain loop of
 * loads and stores of the element's width over a view of the array, which the JIT compiles to a
 * few instructions per element; a {@link MemorySegment#copy} call per element would cost several
 * times more. Longer blocks are one {@code copy} each. Booleans (one byte per element in memory,
 * but no array view) always take the per-block copy.
 */
final class StridedCopy
{
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private StridedCopy()
    {
    }

    /**
     * {@code blocks} blocks of {@code blockLength} elements from {@code array[index + i * indexStride]}
     * to {@code memory} at {@code offset + i * byteStride}.
     */
    static void toMemory(final BasicType type, final Object array, final long index, final long indexStride,
        final MemorySegment memory, final long offset, final long byteStride, final long blocks, final long blockLength)
    {
        if (blockLength != 1 || type == BasicType.BOOLEAN)
        {
            for (long i = 0; i < blocks; i++)
            {
                type.copyToMemory(array, Math.toIntExact(index + i * indexStride), memory, offset + i * byteStride,
                    Math.toIntExact(blockLength));
            }
            return;
        }
        final MemorySegment heap = view(type, array);
        final long width = type.sizeBytes();
        final long from = index * width;
        final long fromStride = indexStride * width;
        switch (type.sizeBytes())
        {
            case Long.BYTES -> {
                for (long i = 0; i < blocks; i++)
                {
                    memory.set(LONG, offset + i * byteStride, heap.get(LONG, from + i * fromStride));
                }
            }
            case Integer.BYTES -> {
                for (long i = 0; i < blocks; i++)
                {
                    memory.set(INT, offset + i * byteStride, heap.get(INT, from + i * fromStride));
                }
            }
            case Short.BYTES -> {
                for (long i = 0; i < blocks; i++)
                {
                    memory.set(SHORT, offset + i * byteStride, heap.get(SHORT, from + i * fromStride));
                }
            }
            default -> {
                for (long i = 0; i < blocks; i++)
                {
                    memory.set(BYTE, offset + i * byteStride, heap.get(BYTE, from + i * fromStride));
                }
            }
        }
    }

    /**
     * {@code blocks} blocks of {@code blockLength} elements from {@code memory} at
     * {@code offset + i * byteStride} to {@code array[index + i * indexStride]}.
     */
    static void fromMemory(final BasicType type, final MemorySegment memory, final long offset, final long byteStride,
        final Object array, final long index, final long indexStride, final long blocks, final long blockLength)
    {
        if (blockLength != 1 || type == BasicType.BOOLEAN)
        {
            for (long i = 0; i < blocks; i++)
            {
                type.copyFromMemory(memory, offset + i * byteStride, array, Math.toIntExact(index + i * indexStride),
                    Math.toIntExact(blockLength));
            }
            return;
        }
        final MemorySegment heap = view(type, array);
        final long width = type.sizeBytes();
        final long to = index * width;
        final long toStride = indexStride * width;
        switch (type.sizeBytes())
        {
            case Long.BYTES -> {
                for (long i = 0; i < blocks; i++)
                {
                    heap.set(LONG, to + i * toStride, memory.get(LONG, offset + i * byteStride));
                }
            }
            case Integer.BYTES -> {
                for (long i = 0; i < blocks; i++)
                {
                    heap.set(INT, to + i * toStride, memory.get(INT, offset + i * byteStride));
                }
            }
            case Short.BYTES -> {
                for (long i = 0; i < blocks; i++)
                {
                    heap.set(SHORT, to + i * toStride, memory.get(SHORT, offset + i * byteStride));
                }
            }
            default -> {
                for (long i = 0; i < blocks; i++)
                {
                    heap.set(BYTE, to + i * toStride, memory.get(BYTE, offset + i * byteStride));
                }
            }
        }
    }

    /** The array as memory (elements in native order, as in shared memory). */
    private static MemorySegment view(final BasicType type, final Object array)
    {
        return switch (type)
        {
            case BYTE -> MemorySegment.ofArray((byte[])array);
            case CHAR -> MemorySegment.ofArray((char[])array);
            case SHORT -> MemorySegment.ofArray((short[])array);
            case INT -> MemorySegment.ofArray((int[])array);
            case LONG -> MemorySegment.ofArray((long[])array);
            case FLOAT -> MemorySegment.ofArray((float[])array);
            case DOUBLE -> MemorySegment.ofArray((double[])array);
            case BOOLEAN -> throw new IllegalArgumentException("boolean[] has no memory view");
        };
    }
}
