package kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import kupl.bootstrap.SocketOob;

/**
 * One process of the peer-fence check: ranks A and B play ping-pong through their segments,
 * synchronised only by {@link ShmWin#peerFence}; every other rank stays out of it and waits
 * in the final full fence meanwhile. Each iteration: A writes a block, peer fence, B checks
 * it and answers with its own block, peer fence, A checks the answer. At the end every rank
 * checks the last blocks of both. Prints "peer fence ok" on success, exits 1 with the first
 * mismatch otherwise. Arguments: iterations, rank A, rank B.
 */
public final class PeerFenceRank
{
    private static final int WORDS = 8;

    public static void main(final String[] args) throws Exception
    {
        final int iterations = Integer.parseInt(args[0]);
        final int a = Integer.parseInt(args[1]);
        final int b = Integer.parseInt(args[2]);
        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null);
            ShmWin win = comm.allocate(WORDS * Long.BYTES, false))
        {
            final int rank = comm.rank();
            final MemorySegment own = win.base();
            final MemorySegment blockA = win.segment(a);
            final MemorySegment blockB = win.segment(b);
            for (int i = 1; i <= iterations && (rank == a || rank == b); i++)
            {
                if (rank == a)
                {
                    write(own, i);
                    win.peerFence(b);
                    win.peerFence(b);
                    check(blockB, -i, "B's answer", i);
                }
                else
                {
                    win.peerFence(a);
                    check(blockA, i, "A's block", i);
                    write(own, -i);
                    win.peerFence(a);
                }
            }
            win.fence();
            check(blockA, iterations, "A's last block after the full fence", iterations);
            check(blockB, -iterations, "B's last block after the full fence", iterations);
            System.out.println("rank " + rank + " completed " + win.fenceCount() + " full fence(s)");
        }
        System.out.println("peer fence ok");
    }

    private static void write(final MemorySegment block, final long value)
    {
        for (int k = 0; k < WORDS; k++)
        {
            block.setAtIndex(ValueLayout.JAVA_LONG, k, value * WORDS + k);
        }
    }

    private static void check(final MemorySegment block, final long value, final String what, final int iteration)
    {
        for (int k = 0; k < WORDS; k++)
        {
            final long seen = block.getAtIndex(ValueLayout.JAVA_LONG, k);
            if (seen != value * WORDS + k)
            {
                System.out.println("iteration " + iteration + ": " + what + " word " + k + " is " + seen + ", expected " +
                    (value * WORDS + k));
                System.exit(1);
            }
        }
    }
}
