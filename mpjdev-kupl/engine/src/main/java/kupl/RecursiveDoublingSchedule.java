package kupl;

/**
 * The steps one process takes in a recursive-doubling fence, computed once per window.
 *
 * <p>With N processes, P the largest power of two not above N, and E = N - P "extra"
 * processes: in the <em>pre</em> round each extra process r (r >= P) signals its partner
 * r - P and then only waits for the <em>post</em> round; the P core processes run log2(P)
 * rounds in which process r exchanges a signal with r XOR 2^k; in the post round each core
 * process r < E releases its extra partner r + P. Every flag slot has exactly one writer.
 * Same structure as KUPL's {@code kupl_fence_rd.cpp} (pre, rd and post phases).
 */
final class RecursiveDoublingSchedule
{
    static final int PRE_SLOT = 0;

    private final long[] flagOffsets;
    private final boolean[] waits;
    private final int[] peers;

    private RecursiveDoublingSchedule(final long[] flagOffsets, final boolean[] waits, final int[] peers)
    {
        this.flagOffsets = flagOffsets;
        this.waits = waits;
        this.peers = peers;
    }

    /** Number of flag slots each process needs: pre, one per round, post. */
    static int slotCount(final int ranks)
    {
        return rounds(ranks) + 2;
    }

    /** log2 of the largest power of two not above {@code ranks}. */
    static int rounds(final int ranks)
    {
        return 31 - Integer.numberOfLeadingZeros(ranks);
    }

    static RecursiveDoublingSchedule forRank(final int rank, final ControlDescriptor layout)
    {
        final int ranks = layout.ranks();
        final int rounds = rounds(ranks);
        final int core = 1 << rounds;
        final int extras = ranks - core;
        final int postSlot = rounds + 1;
        final StepList steps = new StepList(rounds * 2 + 2);
        if (rank >= core)
        {
            final int partner = rank - core;
            steps.signal(layout.rdFlagOffset(partner, PRE_SLOT), partner);
            steps.await(layout.rdFlagOffset(rank, postSlot), partner);
        }
        else
        {
            final boolean hasExtra = rank < extras;
            if (hasExtra)
            {
                steps.await(layout.rdFlagOffset(rank, PRE_SLOT), rank + core);
            }
            for (int round = 0; round < rounds; round++)
            {
                final int partner = rank ^ (1 << round);
                steps.signal(layout.rdFlagOffset(partner, round + 1), partner);
                steps.await(layout.rdFlagOffset(rank, round + 1), partner);
            }
            if (hasExtra)
            {
                steps.signal(layout.rdFlagOffset(rank + core, postSlot), rank + core);
            }
        }
        return new RecursiveDoublingSchedule(steps.offsets(), steps.waits(), steps.peers());
    }

    int stepCount()
    {
        return flagOffsets.length;
    }

    long flagOffset(final int step)
    {
        return flagOffsets[step];
    }

    /** True if the step waits for its flag, false if it raises the partner's flag. */
    boolean isWait(final int step)
    {
        return waits[step];
    }

    /** The process that raises or reads the step's flag on the other side. */
    int peer(final int step)
    {
        return peers[step];
    }

    private static final class StepList
    {
        private final long[] offsets;
        private final boolean[] waits;
        private final int[] peers;
        private int count;

        StepList(final int capacity)
        {
            offsets = new long[capacity];
            waits = new boolean[capacity];
            peers = new int[capacity];
        }

        void signal(final long offset, final int peer)
        {
            add(offset, false, peer);
        }

        void await(final long offset, final int peer)
        {
            add(offset, true, peer);
        }

        private void add(final long offset, final boolean wait, final int peer)
        {
            offsets[count] = offset;
            waits[count] = wait;
            peers[count] = peer;
            count++;
        }

        long[] offsets()
        {
            return java.util.Arrays.copyOf(offsets, count);
        }

        boolean[] waits()
        {
            return java.util.Arrays.copyOf(waits, count);
        }

        int[] peers()
        {
            return java.util.Arrays.copyOf(peers, count);
        }
    }
}
