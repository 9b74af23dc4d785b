package mpi.rma.kupl;

import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * Rank 1 takes an exclusive lock on rank 0's segment and dies without releasing it (its JVM
 * halts; as a thread of a multicore job, it just ends). Rank 0 then asks for the same lock:
 * it must fail, naming rank 1, instead of waiting for ever. Prints {@code LOCK WAIT FAILED
 * after N ms: message} on rank 0. Other ranks only take part in the allocation.
 *
 * <p>App argument: "halt" to end rank 1 with {@code Runtime.halt} (a process of its own), or
 * "return" to end it by returning from {@code main} (a thread of a multicore job).
 */
public final class LockHolderDeathProgram
{
    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final Win win = Win.allocateShared(8, 8, null, MPI.COMM_WORLD);
        if (rank == 1)
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            MPI.COMM_WORLD.Barrier();
            System.out.println("rank 1 holds the lock and dies");
            System.out.flush();
            if (appArgs[0].equals("halt"))
            {
                Runtime.getRuntime().halt(9);
            }
            return;
        }
        MPI.COMM_WORLD.Barrier();
        if (rank == 0)
        {
            final long startNs = System.nanoTime();
            try
            {
                win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
                System.out.println("LOCK ACQUIRED although its holder died");
            }
            catch (final RmaException e)
            {
                System.out.println("LOCK WAIT FAILED after " + (System.nanoTime() - startNs) / 1_000_000 + " ms: " +
                    e.errorClass() + " " + e.getMessage().replace('\n', ' '));
            }
            System.out.flush();
        }
        // The job cannot end normally with a dead rank: leave without Finalize.
        Runtime.getRuntime().halt(0);
    }
}
