package mpi.rma.message;

import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * Two ranks: rank 1 makes a {@code Win.create} window with rank 0, then dies without
 * {@code MPI.Finalize}; rank 0 then locks, gets from and unlocks rank 1, and must fail naming
 * it. Rank 0 prints {@code rank 0 dead target <error class> <message>} (or
 * {@code rank 0 dead target answered}) and halts: a job with a dead rank cannot finalize.
 */
public final class DeadTargetProgram
{
    private DeadTargetProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final Win win = Win.create(new long[4], Long.BYTES, null, MPI.COMM_WORLD);
        MPI.COMM_WORLD.Barrier();
        if (rank == 1)
        {
            System.out.println("rank 1 dies");
            System.out.flush();
            // Status 0: the launcher stops a job at its first failing rank, which would kill rank 0 too.
            Runtime.getRuntime().halt(0);
        }
        Thread.sleep(300);
        String outcome;
        try
        {
            win.lock(Win.LOCK_SHARED, 1, 0);
            win.get(new long[1], 0, 1, MPI.LONG, 1, 0, 1, MPI.LONG);
            win.unlock(1);
            outcome = "answered";
        }
        catch (final RmaException e)
        {
            outcome = e.errorClass() + " " + e.getMessage();
        }
        System.out.println("rank 0 dead target " + outcome);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
