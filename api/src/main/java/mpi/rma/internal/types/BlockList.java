package mpi.rma.internal.types;

import java.util.Arrays;

/**
 * A growing list of blocks {@code (displacement, length)} in type-map order, each block merged
 * into the previous one when it starts where that one ends (order is kept: MPI pairs origin and
 * target elements by their rank in the type map, so blocks are never sorted).
 */
public final class BlockList
{
    private long[] pairs = new long[16];
    private int used;

    void add(final long displacement, final long length)
    {
        if (length == 0)
        {
            return;
        }
        if (used > 0 && pairs[used - 2] + pairs[used - 1] == displacement)
        {
            pairs[used - 1] += length;
            return;
        }
        if (used == pairs.length)
        {
            pairs = Arrays.copyOf(pairs, Math.multiplyExact(pairs.length, 2));
        }
        pairs[used] = displacement;
        pairs[used + 1] = length;
        used += 2;
    }

    /** Adds every block of {@code blockPairs}, moved by {@code shift}. */
    void addShifted(final long[] blockPairs, final long shift)
    {
        for (int i = 0; i < blockPairs.length; i += 2)
        {
            add(blockPairs[i] + shift, blockPairs[i + 1]);
        }
    }

    long[] toPairs()
    {
        return Arrays.copyOf(pairs, used);
    }
}
