package kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import kupl.local.SocketOob;

/**
 * One process of the visibility check: every rank writes a pattern into its own segment,
 * fences, and checks every other rank's segment; repeated for several rounds so that a
 * fence that lets a process run ahead is caught. Prints "visibility ok" on success, exits 1
 * with the first mismatch otherwise. Arguments: rounds, contiguous (0/1).
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
            // Uneven sizes, one of them zero, to exercise the layout.
            final long bytes = rank == 1 ? 0 : 64L * (rank + 1);
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

    static long pattern(final int rank, final int round, final long index)
    {
        return ((long)rank << 48) ^ ((long)round << 24) ^ index;
    }
}
