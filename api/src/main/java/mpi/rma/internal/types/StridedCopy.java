package mpi.rma.internal.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import mpi.rma.spi.common.BasicType;

/**
 * Copies equal blocks, equally spaced, between a Java array and memory: the strided fast path of
 * {@link TypedMoves} (a column of a row-major matrix, a vector type on either side).
 *
 * <p>Blocks of one element, the common case of a matrix column, are copied by a plain loop of
 * array accesses and memory accesses of the element's type, which the JIT compiles to a few
 * instructions per element; a {@link MemorySegment#copy} call per element costs ten times more.
 * Longer blocks are one {@code copy} each. Booleans (stored as one byte 0 or 1) and negative
 * strides (a vector built with one) take the per-block copy.
 */
public final class StridedCopy
{
    private StridedCopy()
    {
    }

    /**
     * {@code blocks} blocks of {@code blockLength} elements from {@code array[index + i * indexStride]}
     * to {@code memory} at {@code offset + i * byteStride}.
     */
    public static void toMemory(final BasicType type, final Object array, final long index, final long indexStride,
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
        elementsToMemory(type, array, Math.toIntExact(index), Math.toIntExact(indexStride), memory, offset,
            byteStride, Math.toIntExact(blocks));
    }

    /** One element per block: a plain loop of the element's type, one small method per type. */
    private static void elementsToMemory(final BasicType type, final Object array, final int at, final int step,
        final MemorySegment memory, final long offset, final long byteStride, final int n)
    {
        // A slice first: every store below is inside it, so the JIT can drop its bounds checks.
        final MemorySegment to = memory.asSlice(offset, span(n, byteStride, type.sizeBytes()));
        switch (type)
        {
            case BYTE -> putBytes((byte[])array, at, step, to, byteStride, n);
            case CHAR -> putChars((char[])array, at, step, to, byteStride, n);
            case SHORT -> putShorts((short[])array, at, step, to, byteStride, n);
            case INT -> putInts((int[])array, at, step, to, byteStride, n);
            case LONG -> putLongs((long[])array, at, step, to, byteStride, n);
            case FLOAT -> putFloats((float[])array, at, step, to, byteStride, n);
            case DOUBLE -> putDoubles((double[])array, at, step, to, byteStride, n);
            case BOOLEAN -> throw new IllegalStateException("booleans take the per-block copy");
        }
    }

    /**
     * {@code blocks} blocks of {@code blockLength} elements from {@code memory} at
     * {@code offset + i * byteStride} to {@code array[index + i * indexStride]}.
     */
    public static void fromMemory(final BasicType type, final MemorySegment memory, final long offset,
        final long byteStride,
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
        elementsFromMemory(type, memory, offset, byteStride, array, Math.toIntExact(index),
            Math.toIntExact(indexStride), Math.toIntExact(blocks));
    }

    /** One element per block: a plain loop for the element's type. */
    private static void elementsFromMemory(final BasicType type, final MemorySegment memory, final long offset,
        final long byteStride, final Object array, final int at, final int step, final int n)
    {
        final MemorySegment from = memory.asSlice(offset, span(n, byteStride, type.sizeBytes()));
        switch (type)
        {
            case BYTE -> getBytes(from, byteStride, (byte[])array, at, step, n);
            case CHAR -> getChars(from, byteStride, (char[])array, at, step, n);
            case SHORT -> getShorts(from, byteStride, (short[])array, at, step, n);
            case INT -> getInts(from, byteStride, (int[])array, at, step, n);
            case LONG -> getLongs(from, byteStride, (long[])array, at, step, n);
            case FLOAT -> getFloats(from, byteStride, (float[])array, at, step, n);
            case DOUBLE -> getDoubles(from, byteStride, (double[])array, at, step, n);
            case BOOLEAN -> throw new IllegalStateException("booleans take the per-block copy");
        }
    }

    private static void putBytes(final byte[] array, final int at, final int step, final MemorySegment to,
        final long stride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(ValueLayout.JAVA_BYTE, i * stride, array[at + i * step]);
        }
    }

    private static void putChars(final char[] array, final int at, final int step, final MemorySegment to,
        final long stride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(ValueLayout.JAVA_CHAR_UNALIGNED, i * stride, array[at + i * step]);
        }
    }

    private static void putShorts(final short[] array, final int at, final int step, final MemorySegment to,
        final long stride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(ValueLayout.JAVA_SHORT_UNALIGNED, i * stride, array[at + i * step]);
        }
    }

    private static void putInts(final int[] array, final int at, final int step, final MemorySegment to,
        final long stride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(ValueLayout.JAVA_INT_UNALIGNED, i * stride, array[at + i * step]);
        }
    }

    private static void putLongs(final long[] array, final int at, final int step, final MemorySegment to,
        final long stride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(ValueLayout.JAVA_LONG_UNALIGNED, i * stride, array[at + i * step]);
        }
    }

    private static void putFloats(final float[] array, final int at, final int step, final MemorySegment to,
        final long stride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(ValueLayout.JAVA_FLOAT_UNALIGNED, i * stride, array[at + i * step]);
        }
    }

    private static void putDoubles(final double[] array, final int at, final int step, final MemorySegment to,
        final long stride, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            to.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, i * stride, array[at + i * step]);
        }
    }

    private static void getBytes(final MemorySegment from, final long stride, final byte[] array, final int at,
        final int step, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            array[at + i * step] = from.get(ValueLayout.JAVA_BYTE, i * stride);
        }
    }

    private static void getChars(final MemorySegment from, final long stride, final char[] array, final int at,
        final int step, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            array[at + i * step] = from.get(ValueLayout.JAVA_CHAR_UNALIGNED, i * stride);
        }
    }

    private static void getShorts(final MemorySegment from, final long stride, final short[] array, final int at,
        final int step, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            array[at + i * step] = from.get(ValueLayout.JAVA_SHORT_UNALIGNED, i * stride);
        }
    }

    private static void getInts(final MemorySegment from, final long stride, final int[] array, final int at,
        final int step, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            array[at + i * step] = from.get(ValueLayout.JAVA_INT_UNALIGNED, i * stride);
        }
    }

    private static void getLongs(final MemorySegment from, final long stride, final long[] array, final int at,
        final int step, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            array[at + i * step] = from.get(ValueLayout.JAVA_LONG_UNALIGNED, i * stride);
        }
    }

    private static void getFloats(final MemorySegment from, final long stride, final float[] array, final int at,
        final int step, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            array[at + i * step] = from.get(ValueLayout.JAVA_FLOAT_UNALIGNED, i * stride);
        }
    }

    private static void getDoubles(final MemorySegment from, final long stride, final double[] array, final int at,
        final int step, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            array[at + i * step] = from.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, i * stride);
        }
    }

    /** Bytes from the first element of {@code n} strided ones to the end of the last (strides are not negative). */
    private static long span(final int n, final long stride, final long width)
    {
        return n == 0 ? 0 : (n - 1) * stride + width;
    }
}
