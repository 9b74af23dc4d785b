package mpi.rma.internal.types;

import java.util.Arrays;
import mpi.rma.spi.common.BasicType;

/**
 * Where the elements of an MPJ Express datatype lie, flattened once: its basic element type, its
 * size, extent and bounds, and its type map as blocks {@code (displacement, length)} in elements
 * of that type, adjacent blocks merged, in type-map order. A strided type (a vector, or any type
 * whose blocks have one length and one spacing) also has that pattern as three numbers, so that
 * moving it walks no list.
 *
 * <p>Units are MPJ Express's: array elements, for displacements, strides, extents and bounds
 * alike. Copy {@code i} of a type sent with a count lies {@code i * extent} elements after the
 * first, and a buffer offset is an array index, as in MPJ Express's own send and receive.
 *
 * <p>Immutable; {@link TypeLayouts} makes and caches them.
 */
public final class TypeLayout
{
    private final BasicType basic;
    private final String name;
    private final long size;
    private final long extent;
    private final long[] displacements;
    private final long[] lengths;
    private final long lowest;
    private final long highest;
    /** What {@link #blockLength} and {@link #stride} hold when blocks differ (a stride may be negative). */
    private static final long NOT_UNIFORM = Long.MIN_VALUE;

    /** The uniform length of every block, or {@link #NOT_UNIFORM}. */
    private final long blockLength;
    /** The uniform spacing of the blocks (the extent if there is one block), or {@link #NOT_UNIFORM}. */
    private final long stride;
    private final boolean overlapping;

    TypeLayout(final BasicType basic, final String name, final long extent, final long[] typeMapPairs)
    {
        this.basic = basic;
        this.name = name;
        this.extent = extent;
        final int blocks = typeMapPairs.length / 2;
        this.displacements = new long[blocks];
        this.lengths = new long[blocks];
        long elements = 0;
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        for (int i = 0; i < blocks; i++)
        {
            displacements[i] = typeMapPairs[2 * i];
            lengths[i] = typeMapPairs[2 * i + 1];
            elements += lengths[i];
            low = Math.min(low, displacements[i]);
            high = Math.max(high, displacements[i] + lengths[i]);
        }
        this.size = elements;
        this.lowest = blocks == 0 ? 0 : low;
        this.highest = blocks == 0 ? 0 : high;
        this.blockLength = uniformLength(lengths);
        this.stride = uniformStride(displacements, extent);
        this.overlapping = overlaps(displacements, lengths);
    }

    /** A basic type: one element, extent 1. */
    public static TypeLayout basic(final BasicType basic)
    {
        return new TypeLayout(basic, basic.mpiName(), 1, new long[] {0, 1});
    }

    public BasicType basic()
    {
        return basic;
    }

    /** For messages: "MPI.DOUBLE", or a derived type's shape. */
    public String name()
    {
        return name;
    }

    /** Elements in one copy (MPJ Express's {@code Size()}). */
    public long size()
    {
        return size;
    }

    /** Elements from one copy to the next (MPJ Express's {@code Extent()}). */
    public long extent()
    {
        return extent;
    }

    public int blockCount()
    {
        return displacements.length;
    }

    public long displacement(final int block)
    {
        return displacements[block];
    }

    public long length(final int block)
    {
        return lengths[block];
    }

    /** The lowest element {@code count} copies touch, relative to the buffer's start; 0 if none. */
    public long lowestElement(final int count)
    {
        return count == 0 || size == 0 ? 0 : lowest + Math.min(0, (count - 1) * extent);
    }

    /** One past the highest element {@code count} copies touch, relative to the buffer's start; 0 if none. */
    public long endElement(final int count)
    {
        return count == 0 || size == 0 ? 0 : highest + Math.max(0, (count - 1) * extent);
    }

    /** Whether {@code count} copies are one block (a basic type, or a contiguous one). */
    public boolean isDense()
    {
        return displacements.length == 1 && lengths[0] == extent;
    }

    /** Where a dense type's one block starts, in elements (see {@link #isDense}). */
    long denseStart()
    {
        return displacements[0];
    }

    /**
     * {@code count} copies as one strided pattern, or null if they are not one. A dense type gives
     * one block; a vector whose extent is its blocks' spacing times their number gives
     * {@code count * blocks} blocks.
     */
    public Strided strided(final int count)
    {
        if (size == 0 || count == 0)
        {
            return new Strided(0, 0, 0, 0);
        }
        final long total = size * count;
        if (isDense())
        {
            return new Strided(displacements[0], 1, total, total);
        }
        if (blockLength == NOT_UNIFORM || stride == NOT_UNIFORM)
        {
            return null;
        }
        final int blocks = displacements.length;
        if (count == 1 || (long)blocks * stride == extent)
        {
            return new Strided(displacements[0], (long)blocks * count, blockLength, stride);
        }
        return null;
    }

    /** Whether some element of {@code count} copies lies on another (erroneous where data is written). */
    public boolean overlaps(final int count)
    {
        if (overlapping)
        {
            return true;
        }
        if (count <= 1 || size == 0 || Math.abs(extent) >= highest - lowest)
        {
            return false;
        }
        final long[] allDisplacements = new long[Math.multiplyExact(count, displacements.length)];
        final long[] allLengths = new long[allDisplacements.length];
        for (int copy = 0; copy < count; copy++)
        {
            for (int block = 0; block < displacements.length; block++)
            {
                allDisplacements[copy * displacements.length + block] = displacements[block] + copy * extent;
                allLengths[copy * displacements.length + block] = lengths[block];
            }
        }
        return overlaps(allDisplacements, allLengths);
    }

    @Override
    public String toString()
    {
        return name + "[size " + size + ", extent " + extent + ", blocks " + displacements.length + "]";
    }

    /**
     * {@code blocks} blocks of {@code blockLength} elements, the first at {@code first}, each
     * {@code stride} elements after the previous one.
     */
    public record Strided(long first, long blocks, long blockLength, long stride)
    {
        /** One block (only) as consecutive blocks of {@code length}, a divisor of its length. */
        Strided asBlocksOf(final long length)
        {
            return new Strided(first, blockLength / length, length, length);
        }
    }

    private static long uniformLength(final long[] lengths)
    {
        for (final long length : lengths)
        {
            if (length != lengths[0])
            {
                return NOT_UNIFORM;
            }
        }
        return lengths.length == 0 ? 0 : lengths[0];
    }

    private static long uniformStride(final long[] displacements, final long extent)
    {
        if (displacements.length < 2)
        {
            return extent;
        }
        final long stride = displacements[1] - displacements[0];
        for (int i = 2; i < displacements.length; i++)
        {
            if (displacements[i] - displacements[i - 1] != stride)
            {
                return NOT_UNIFORM;
            }
        }
        return stride;
    }

    private static boolean overlaps(final long[] displacements, final long[] lengths)
    {
        final Integer[] order = new Integer[displacements.length];
        for (int i = 0; i < order.length; i++)
        {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(displacements[a], displacements[b]));
        for (int i = 1; i < order.length; i++)
        {
            if (displacements[order[i - 1]] + lengths[order[i - 1]] > displacements[order[i]])
            {
                return true;
            }
        }
        return false;
    }
}
