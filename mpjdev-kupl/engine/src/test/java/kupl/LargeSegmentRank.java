package kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import kupl.bootstrap.SocketOob;

/**
 * One process of the "segment larger than 2 GiB" check, for two processes: rank 0's segment
 * has {@code args[0]} bytes (more than 2^31), rank 1's one page. Rank 0 writes words around
 * and beyond 2^31 and at the end; after a fence rank 1 reads them through its own mapping and
 * answers with a word beyond 2^31, which rank 0 reads after a second fence. Prints
 * "allocated in N ms" and "large window ok"; a mismatch escapes {@code main}.
 */
public final class LargeSegmentRank
{
    private static final long TWO_GIB = 1L << 31;
    private static final long ANSWER_OFFSET = TWO_GIB + 16;

    public static void main(final String[] args) throws Exception
    {
        final long largeBytes = Long.parseLong(args[0]);
        final long[] offsets = {0, TWO_GIB - 8, TWO_GIB, TWO_GIB + 8, largeBytes - 8};
        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null))
        {
            final int rank = comm.rank();
            final long startNs = System.nanoTime();
            try (ShmWin win = comm.allocate(rank == 0 ? largeBytes : 4096, false))
            {
                System.out.println("allocated in " + (System.nanoTime() - startNs) / 1_000_000 + " ms");
                final MemorySegment large = win.segment(0);
                check(large.byteSize() == largeBytes && win.size(0) == largeBytes,
                    "rank " + rank + " sees rank 0's segment as " + large.byteSize() + " bytes, expected " + largeBytes);
                if (rank == 0)
                {
                    for (final long offset : offsets)
                    {
                        large.set(ValueLayout.JAVA_LONG, offset, value(offset));
                    }
                }
                win.fence();
                if (rank == 1)
                {
                    for (final long offset : offsets)
                    {
                        final long seen = large.get(ValueLayout.JAVA_LONG, offset);
                        check(seen == value(offset), "rank 1 reads " + seen + " at offset " + offset + ", expected " +
                            value(offset));
                    }
                    large.set(ValueLayout.JAVA_LONG, ANSWER_OFFSET, -value(ANSWER_OFFSET));
                }
                win.fence();
                if (rank == 0)
                {
                    final long seen = large.get(ValueLayout.JAVA_LONG, ANSWER_OFFSET);
                    check(seen == -value(ANSWER_OFFSET), "rank 0 reads " + seen + " at offset " + ANSWER_OFFSET +
                        ", expected rank 1's " + -value(ANSWER_OFFSET));
                }
            }
        }
        System.out.println("large window ok");
    }

    private static long value(final long offset)
    {
        return 0x5A5A_0000_0000_0000L ^ offset;
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalStateException(message);
        }
    }
}
