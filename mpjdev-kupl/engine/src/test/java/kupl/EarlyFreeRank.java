package kupl;

import kupl.bootstrap.SocketOob;

/**
 * One process of the early-free check: every rank fences in a loop inside
 * try-with-resources, except that rank {@code quitter} throws after {@code quitAfter}
 * fences, so its window and comm are closed while the others wait in the next fence.
 * Prints "fence failed: message" or "quit" and exits 1 either way; prints "done" if the
 * loop ends normally. Arguments: quitter, quitAfter, fences.
 */
public final class EarlyFreeRank
{
    public static void main(final String[] args) throws Exception
    {
        final int quitter = Integer.parseInt(args[0]);
        final int quitAfter = Integer.parseInt(args[1]);
        final int fences = Integer.parseInt(args[2]);
        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null);
            ShmWin win = comm.allocate(64, false))
        {
            for (int i = 1; i <= fences; i++)
            {
                if (comm.rank() == quitter && i > quitAfter)
                {
                    throw new IllegalStateException("rank " + quitter + " quits after " + quitAfter + " fences");
                }
                win.fence();
            }
        }
        catch (final IllegalStateException e)
        {
            System.out.println("quit");
            System.exit(1);
        }
        catch (final KuplException e)
        {
            System.out.println("fence failed: " + e.getMessage());
            System.exit(1);
        }
        System.out.println("done");
    }
}
