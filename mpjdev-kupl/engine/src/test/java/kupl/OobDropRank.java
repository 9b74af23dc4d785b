package kupl;

import java.io.IOException;

import kupl.bootstrap.SocketOob;

/**
 * One process of the out-of-band failure checks: every rank but the victim creates a comm,
 * allocates, checks and frees a window and destroys the comm. The victim leaves the hub at
 * {@code args[1]}: {@code before-connect} (never connects), {@code before-create} or
 * {@code before-alloc} (after creating the comm), by {@code args[2]}: {@code exit} (the JVM
 * exits with 0) or {@code close} (it closes its hub connection, prints "closed" and sleeps
 * until killed). Engine errors, and a hub that no longer answers at connection, print
 * "error: ..." and exit with {@link FailureJobs#KUPL_ERROR_EXIT}.
 */
public final class OobDropRank
{
    public static void main(final String[] args) throws Exception
    {
        final int victim = Integer.parseInt(args[0]);
        final String when = args[1];
        final boolean exit = "exit".equals(args[2]);
        final boolean isVictim = Integer.getInteger(SocketOob.RANK_PROPERTY) == victim;
        if (isVictim && "before-connect".equals(when))
        {
            System.out.println("leaving before connecting");
            System.exit(0);
        }
        final SocketOob hub;
        try
        {
            hub = SocketOob.fromSystemProperties();
        }
        catch (final IOException e)
        {
            // The hub may already have given up on the job (a process left before connecting).
            System.out.println("error: hub unreachable: " + e);
            System.exit(FailureJobs.KUPL_ERROR_EXIT);
            return;
        }
        try (SocketOob oob = hub)
        {
            if (isVictim && "before-create".equals(when))
            {
                leave(oob, exit);
            }
            try (ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null))
            {
                System.out.println("comm created");
                if (isVictim && "before-alloc".equals(when))
                {
                    leave(oob, exit);
                }
                try (ShmWin win = comm.allocate(4096, false))
                {
                    FaultRank.writePattern(win.base(), comm.rank());
                    win.fence();
                    for (int peer = 0; peer < comm.size(); peer++)
                    {
                        FaultRank.checkPattern(win.segment(peer), peer, comm.rank());
                    }
                }
            }
        }
        catch (final KuplException e)
        {
            FaultRank.report(e);
            System.exit(FailureJobs.KUPL_ERROR_EXIT);
        }
        System.out.println("done");
    }

    private static void leave(final SocketOob oob, final boolean exit) throws Exception
    {
        if (exit)
        {
            System.out.println("leaving");
            System.exit(0);
        }
        oob.close();
        System.out.println("closed");
        Thread.sleep(Long.MAX_VALUE);
    }
}
