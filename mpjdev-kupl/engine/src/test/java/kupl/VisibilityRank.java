package kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import kupl.bootstrap.SocketOob;

/**
 * One process of the visibility check: every rank writes a pattern into its own segment,
 * fences, and checks every other rank's segment; repeated for several rounds so that a
 * fence that lets a process run ahead is caught. Prints "visibility ok" on success, exits 1
 * with the first mismatch otherwise. Also checks each segment's size (one is zero), that
 * segments do not overlap and, if contiguous, that rank i's base is rank i-1's base plus its
 * size. Prints the fence algorithm and shm type in use first. Arguments: rounds, contiguous (0/1).
 */
public final class VisibilityRank
{
    public static void main(final String[] args) throws Exception
    {
        final int rounds = Integer.parseInt(args[0]);
        final boolean contiguous = args.length > 1 && "1".equals(args[1]);
        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null))
        {
            final int rank = comm.rank();
            final int size = comm.size();
            // So that the test can check the job's environment reached the engine.
            System.out.println("config " + comm.config().fenceAlgorithm() + " " + comm.config().shmType());
            // Uneven sizes, one of them zero, to exercise the layout.
            final long bytes = sizeOf(rank);
            try (ShmWin win = comm.allocate(bytes, contiguous))
            {
                for (int round = 1; round <= rounds; round++)
                {
                    final MemorySegment own = win.base();
                    for (long i = 0; i < own.byteSize() / 8; i++)
                    {
                        own.setAtIndex(ValueLayout.JAVA_LONG, i, pattern(rank, round, i));
                    }
                    win.fence();
                    for (int peer = 0; peer < size; peer++)
                    {
                        final MemorySegment segment = win.segment(peer);
                        for (long i = 0; i < segment.byteSize() / 8; i++)
                        {
                            final long seen = segment.getAtIndex(ValueLayout.JAVA_LONG, i);
                            if (seen != pattern(peer, round, i))
                            {
                                System.out.println("rank " + rank + " round " + round + ": rank " + peer + " word " + i +
                                    " is " + seen + ", expected " + pattern(peer, round, i));
                                System.exit(1);
                            }
                        }
                    }
                    // Nobody may overwrite its segment for the next round before everyone has read it.
                    win.fence();
                }
                checkLayout(win, size, contiguous);
                if (contiguous)
                {
                    for (int peer = 1; peer < size; peer++)
                    {
                        final long expected = win.segment(peer - 1).address() + win.size(peer - 1);
                        if (win.segment(peer).address() != expected)
                        {
                            System.out.println("rank " + peer + "'s segment is not contiguous with rank " + (peer - 1));
                            System.exit(1);
                        }
                    }
                }
            }
        }
        System.out.println("visibility ok");
    }

    /** Bytes of rank {@code rank}'s segment: uneven, and zero for rank 1. */
    static long sizeOf(final int rank)
    {
        return rank == 1 ? 0 : 64L * (rank + 1);
    }

    /** Every segment has the size its rank asked for; non-empty segments of different ranks never overlap. */
    private static void checkLayout(final ShmWin win, final int size, final boolean contiguous)
    {
        if (win.isContiguous() != contiguous)
        {
            fail("window says contiguous=" + win.isContiguous() + ", asked for " + contiguous);
        }
        for (int peer = 0; peer < size; peer++)
        {
            if (win.size(peer) != sizeOf(peer) || win.segment(peer).byteSize() != sizeOf(peer))
            {
                fail("rank " + peer + "'s segment has size() " + win.size(peer) + " and byteSize() " +
                    win.segment(peer).byteSize() + ", expected " + sizeOf(peer));
            }
            for (int other = 0; other < peer; other++)
            {
                final MemorySegment a = win.segment(peer);
                final MemorySegment b = win.segment(other);
                if (a.byteSize() > 0 && b.byteSize() > 0 && a.address() < b.address() + b.byteSize() &&
                    b.address() < a.address() + a.byteSize())
                {
                    fail("segments of ranks " + other + " and " + peer + " overlap");
                }
            }
        }
    }

    private static void fail(final String why)
    {
        System.out.println(why);
        System.exit(1);
    }

    static long pattern(final int rank, final int round, final long index)
    {
        return ((long)rank << 48) ^ ((long)round << 24) ^ index;
    }
}
