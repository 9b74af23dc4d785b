package mpi.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

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
final class StridedCopy
{
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
        // A slice first: every store below is inside it, so the JIT drops its bounds checks. The
        // array is read as an array: through a heap-segment view the same loop ran several times slower.
        final int n = Math.toIntExact(blocks);
        final MemorySegment to = memory.asSlice(offset, span(n, byteStride, type.sizeBytes()));
        final int at = Math.toIntExact(index);
        final int step = Math.toIntExact(indexStride);
        switch (type)
        {
            case BYTE -> {
                final byte[] a = (byte[])array;
                for (int i = 0; i < n; i++)
                {
                    to.set(ValueLayout.JAVA_BYTE, i * byteStride, a[at + i * step]);
                }
            }
            case CHAR -> {
                final char[] a = (char[])array;
                for (int i = 0; i < n; i++)
                {
                    to.set(ValueLayout.JAVA_CHAR_UNALIGNED, i * byteStride, a[at + i * step]);
                }
            }
            case SHORT -> {
                final short[] a = (short[])array;
                for (int i = 0; i < n; i++)
                {
                    to.set(ValueLayout.JAVA_SHORT_UNALIGNED, i * byteStride, a[at + i * step]);
                }
            }
            case INT -> {
                final int[] a = (int[])array;
                for (int i = 0; i < n; i++)
                {
                    to.set(ValueLayout.JAVA_INT_UNALIGNED, i * byteStride, a[at + i * step]);
                }
            }
            case LONG -> {
                final long[] a = (long[])array;
                for (int i = 0; i < n; i++)
                {
                    to.set(ValueLayout.JAVA_LONG_UNALIGNED, i * byteStride, a[at + i * step]);
                }
            }
            case FLOAT -> {
                final float[] a = (float[])array;
                for (int i = 0; i < n; i++)
                {
                    to.set(ValueLayout.JAVA_FLOAT_UNALIGNED, i * byteStride, a[at + i * step]);
                }
            }
            case DOUBLE -> {
                final double[] a = (double[])array;
                for (int i = 0; i < n; i++)
                {
                    to.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, i * byteStride, a[at + i * step]);
                }
            }
            case BOOLEAN -> throw new IllegalStateException("booleans take the per-block copy");
        }
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
        final int n = Math.toIntExact(blocks);
        final MemorySegment from = memory.asSlice(offset, span(n, byteStride, type.sizeBytes()));
        final int at = Math.toIntExact(index);
        final int step = Math.toIntExact(indexStride);
        switch (type)
        {
            case BYTE -> {
                final byte[] a = (byte[])array;
                for (int i = 0; i < n; i++)
                {
                    a[at + i * step] = from.get(ValueLayout.JAVA_BYTE, i * byteStride);
                }
            }
            case CHAR -> {
                final char[] a = (char[])array;
                for (int i = 0; i < n; i++)
                {
                    a[at + i * step] = from.get(ValueLayout.JAVA_CHAR_UNALIGNED, i * byteStride);
                }
            }
            case SHORT -> {
                final short[] a = (short[])array;
                for (int i = 0; i < n; i++)
                {
                    a[at + i * step] = from.get(ValueLayout.JAVA_SHORT_UNALIGNED, i * byteStride);
                }
            }
            case INT -> {
                final int[] a = (int[])array;
                for (int i = 0; i < n; i++)
                {
                    a[at + i * step] = from.get(ValueLayout.JAVA_INT_UNALIGNED, i * byteStride);
                }
            }
            case LONG -> {
                final long[] a = (long[])array;
                for (int i = 0; i < n; i++)
                {
                    a[at + i * step] = from.get(ValueLayout.JAVA_LONG_UNALIGNED, i * byteStride);
                }
            }
            case FLOAT -> {
                final float[] a = (float[])array;
                for (int i = 0; i < n; i++)
                {
                    a[at + i * step] = from.get(ValueLayout.JAVA_FLOAT_UNALIGNED, i * byteStride);
                }
            }
            case DOUBLE -> {
                final double[] a = (double[])array;
                for (int i = 0; i < n; i++)
                {
                    a[at + i * step] = from.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, i * byteStride);
                }
            }
            case BOOLEAN -> throw new IllegalStateException("booleans take the per-block copy");
        }
    }

    /** Bytes from the first element of {@code n} strided ones to the end of the last (strides are not negative). */
    private static long span(final int n, final long stride, final long width)
    {
        return n == 0 ? 0 : (n - 1) * stride + width;
    }
}
