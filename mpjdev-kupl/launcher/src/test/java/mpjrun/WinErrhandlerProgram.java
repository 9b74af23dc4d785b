package mpjrun;

import mpi.MPI;
import mpi.rma.Win;
import mpi.rma.WinErrhandler;

/**
 * An MPJ Express program for {@link WinErrhandlerJobTest}: on a window of two ranks, rank 1 attaches
 * {@link WinErrhandler#ERRORS_ARE_FATAL} and puts to a rank that does not exist, while rank 0 waits in a barrier
 * that rank 1 never reaches. Prints {@code rank R ready} before and, if the put returned (it must not),
 * {@code rank 1 went on after the put}.
 */
public final class WinErrhandlerProgram
{
    private WinErrhandlerProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final Win win = Win.allocate(64, Long.BYTES, null, MPI.COMM_WORLD);
        System.out.println("rank " + rank + " ready");
        if (rank == 1)
        {
            win.setErrhandler(WinErrhandler.ERRORS_ARE_FATAL);
            win.lockAll(0);
            win.put(new long[] {1}, 0, 1, MPI.LONG, 5, 0, 1, MPI.LONG);
            System.out.println("rank 1 went on after the put");
        }
        // Rank 0 waits here for rank 1, which never comes: only the abort ends the job.
        MPI.COMM_WORLD.Barrier();
        win.free();
        MPI.Finalize();
    }
}
