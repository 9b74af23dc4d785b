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
 * but no array view) and negative strides (a vector built with one) take the per-block copy.
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
        if (blockLength != 1 || type == BasicType.BOOLEAN || indexStride < 0 || byteStride < 0)
        {
            for (long i = 0; i < blocks; i++)
            {
                type.copyToMemory(array, Math.toIntExact(index + i * indexStride), memory, offset + i * byteStride,
                    Math.toIntExact(blockLength));
            }
            return;
        }
        // Slices first: every access below is then inside them, so the JIT drops its bounds checks.
        final long width = type.sizeBytes();
        final int n = Math.toIntExact(blocks);
        final MemorySegment from = view(type, array).asSlice(index * width, span(n, indexStride * width, width));
        final MemorySegment to = memory.asSlice(offset, span(n, byteStride, width));
        copyElements(type.sizeBytes(), from, indexStride * width, to, byteStride, n);
    }

    /**
     * {@code blocks} blocks of {@code blockLength} elements from {@code memory} at
     * {@code offset + i * byteStride} to {@code array[index + i * indexStride]}.
     */
    static void fromMemory(final BasicType type, final MemorySegment memory, final long offset, final long byteStride,
        final Object array, final long index, final long indexStride, final long blocks, final long blockLength)
    {
        if (blockLength != 1 || type == BasicType.BOOLEAN || indexStride < 0 || byteStride < 0)
        {
            for (long i = 0; i < blocks; i++)
            {
                type.copyFromMemory(memory, offset + i * byteStride, array, Math.toIntExact(index + i * indexStride),
                    Math.toIntExact(blockLength));
            }
            return;
        }
        final long width = type.sizeBytes();
        final int n = Math.toIntExact(blocks);
        final MemorySegment from = memory.asSlice(offset, span(n, byteStride, width));
        final MemorySegment to = view(type, array).asSlice(index * width, span(n, indexStride * width, width));
        copyElements(type.sizeBytes(), from, byteStride, to, indexStride * width, n);
    }

    /** {@code n} elements of {@code width} bytes, each {@code fromStride} and {@code toStride} bytes apart. */
    private static void copyElements(final int width, final MemorySegment from, final long fromStride,
        final MemorySegment to, final long toStride, final int n)
    {
        switch (width)
        {
            case Long.BYTES -> copyLongs(from, fromStride, to, toStride, n);
            case Integer.BYTES -> copyInts(from, fromStride, to, toStride, n);
            case Short.BYTES -> copyShorts(from, fromStride, to, toStride, n);
            default -> copyBytes(from, fromStride, to, toStride, n);
        }
    }

    // One small method per width: each loop gets its own profile and compiles alone.

    private static void copyLongs(final MemorySegment from, final long fromStride, final MemorySegment to,
        final long toStride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(LONG, i * toStride, from.get(LONG, i * fromStride));
        }
    }

    private static void copyInts(final MemorySegment from, final long fromStride, final MemorySegment to,
        final long toStride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(INT, i * toStride, from.get(INT, i * fromStride));
        }
    }

    private static void copyShorts(final MemorySegment from, final long fromStride, final MemorySegment to,
        final long toStride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(SHORT, i * toStride, from.get(SHORT, i * fromStride));
        }
    }

    private static void copyBytes(final MemorySegment from, final long fromStride, final MemorySegment to,
        final long toStride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(BYTE, i * toStride, from.get(BYTE, i * fromStride));
        }
    }

    /** Bytes from the first element of {@code n} strided ones to the end of the last (strides are not negative). */
    private static long span(final int n, final long stride, final long width)
    {
        return n == 0 ? 0 : (n - 1) * stride + width;
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
