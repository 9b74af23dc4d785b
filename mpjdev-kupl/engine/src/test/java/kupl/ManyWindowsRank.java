package kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import kupl.bootstrap.SocketOob;

/**
 * One process of the many-windows check: {@value #WINDOWS} windows of different sizes (some
 * zero) alive at once on one comm, each written and checked by every rank, then freed in
 * another order than they were allocated, with the survivors checked again after each batch
 * of frees. Prints "many windows ok" on success, exits 1 with the first mismatch otherwise.
 * Argument: contiguous (0/1).
 */
public final class ManyWindowsRank
{
    static final int WINDOWS = 20;
    /** Free order: 7 is prime to 20, so w -> 7w mod 20 is a permutation, far from allocation order. */
    private static final int FREE_STRIDE = 7;

    public static void main(final String[] args) throws Exception
    {
        final boolean contiguous = "1".equals(args[0]);
        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null))
        {
            final int rank = comm.rank();
            final int size = comm.size();
            final ShmWin[] windows = new ShmWin[WINDOWS];
            for (int w = 0; w < WINDOWS; w++)
            {
                windows[w] = comm.allocate(sizeOf(w, rank), contiguous);
                fill(windows[w], w, rank, 1);
            }
            for (int w = 0; w < WINDOWS; w++)
            {
                windows[w].fence();
            }
            checkAll(windows, size, 1);

            for (int freed = 0; freed < WINDOWS; freed++)
            {
                final int w = (freed * FREE_STRIDE) % WINDOWS;
                windows[w].close();
                windows[w] = null;
                if (freed % 5 == 4)
                {
                    // The remaining windows still work: a new generation of values through each.
                    final int generation = 2 + freed / 5;
                    // Nobody overwrites before everybody has checked the previous generation.
                    for (final ShmWin win : windows)
                    {
                        if (win != null)
                        {
                            win.fence();
                        }
                    }
                    for (int v = 0; v < WINDOWS; v++)
                    {
                        if (windows[v] != null)
                        {
                            fill(windows[v], v, rank, generation);
                            windows[v].fence();
                        }
                    }
                    checkAll(windows, size, generation);
                }
            }
        }
        System.out.println("many windows ok");
    }

    /** Window w's segment size on rank r: uneven, a multiple of 8, zero for some pairs. */
    static long sizeOf(final int w, final int rank)
    {
        return ((w * 37L + rank * 13L) % 11) * 8 * (w + 1);
    }

    private static long value(final int w, final int rank, final int generation, final long index)
    {
        return ((long)generation << 48) | ((long)w << 32) | ((long)rank << 24) | index;
    }

    private static void fill(final ShmWin win, final int w, final int rank, final int generation)
    {
        final MemorySegment own = win.base();
        for (long i = 0; i < own.byteSize() / 8; i++)
        {
            own.setAtIndex(ValueLayout.JAVA_LONG, i, value(w, rank, generation, i));
        }
    }

    private static void checkAll(final ShmWin[] windows, final int size, final int generation)
    {
        for (int w = 0; w < WINDOWS; w++)
        {
            if (windows[w] == null)
            {
                continue;
            }
            for (int peer = 0; peer < size; peer++)
            {
                final MemorySegment segment = windows[w].segment(peer);
                if (segment.byteSize() != sizeOf(w, peer))
                {
                    fail("window " + w + ": rank " + peer + "'s segment has " + segment.byteSize() + " bytes, expected " +
                        sizeOf(w, peer));
                }
                for (long i = 0; i < segment.byteSize() / 8; i++)
                {
                    final long seen = segment.getAtIndex(ValueLayout.JAVA_LONG, i);
                    if (seen != value(w, peer, generation, i))
                    {
                        fail("generation " + generation + ", window " + w + ", rank " + peer + ", word " + i + ": " +
                            Long.toHexString(seen) + ", expected " + Long.toHexString(value(w, peer, generation, i)));
                    }
                }
            }
        }
    }

    private static void fail(final String why)
    {
        System.out.println(why);
        System.exit(1);
    }
}
