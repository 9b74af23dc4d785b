package kupl;

import kupl.bootstrap.SocketOob;

/**
 * One process of the "window larger than its file system" check: asks for a window of
 * {@code args[0]} bytes per process, which must be refused ("big window refused: MESSAGE"),
 * then allocates, checks and frees a window of {@code args[1]} bytes per process in the same
 * comm ("small window ok"). Exits 5 if the big window is granted; any other failure escapes
 * {@code main}.
 */
public final class SmallTmpfsRank
{
    public static void main(final String[] args) throws Exception
    {
        final long bigBytes = Long.parseLong(args[0]);
        final long smallBytes = Long.parseLong(args[1]);
        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null))
        {
            final int rank = comm.rank();
            try (ShmWin big = comm.allocate(bigBytes, false))
            {
                System.out.println("big window granted: " + big);
                System.exit(5);
            }
            catch (final KuplException e)
            {
                System.out.println("big window refused: " + e.getMessage());
            }

            try (ShmWin small = comm.allocate(smallBytes, false))
            {
                FaultRank.writePattern(small.base(), rank);
                small.fence();
                for (int peer = 0; peer < comm.size(); peer++)
                {
                    FaultRank.checkPattern(small.segment(peer), peer, rank);
                }
            }
        }
        System.out.println("small window ok");
    }
}
