package mpi.rma.internal.creation;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.ProcessFailures;

/**
 * The first step of {@code Win.create}: every process publishes its window's size, displacement
 * unit and whether it found its arguments valid (one {@code Allgather}), and all reach the same
 * verdict, so a window is made on every process or on none.
 */
public record CreationAgreement(long[] sizes, int[] dispUnits)
{
    private static final int SIZE = 0;
    private static final int DISP_UNIT = 1;
    private static final int ERROR = 2;
    private static final int FIELDS = 3;

    /**
     * @throws RmaException on every process if any brought a {@code localError} (its own detailed
     *                      error on that process, one naming it on the others); ERR_PROC_FAILED naming
     *                      the rank if a process died during the exchange.
     */
    static CreationAgreement reach(final String call, final Intracomm comm, final long size, final int dispUnit,
        final RmaException localError)
    {
        final long[] own = {size, dispUnit, localError == null ? 0 : localError.errorClass().ordinal() + 1};
        final int ranks = comm.Size();
        final long[] all = new long[ranks * FIELDS];
        try
        {
            comm.Allgather(own, 0, FIELDS, MPI.LONG, all, 0, FIELDS, MPI.LONG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the agreement's Allgather over the communicator", e);
        }
        if (localError != null)
        {
            throw localError;
        }
        final long[] sizes = new long[ranks];
        final int[] dispUnits = new int[ranks];
        for (int rank = 0; rank < ranks; rank++)
        {
            final long error = all[rank * FIELDS + ERROR];
            if (error != 0)
            {
                throw new RmaException(ErrorClass.values()[(int)error - 1], call + " failed on every process: rank " +
                    rank + " called it wrongly (rank " + rank + "'s exception says how)");
            }
            sizes[rank] = all[rank * FIELDS + SIZE];
            dispUnits[rank] = (int)all[rank * FIELDS + DISP_UNIT];
        }
        return new CreationAgreement(sizes, dispUnits);
    }

    /**
     * A later step's agreement: returns if no process brought a {@code localError}; else throws it on its
     * process and an error of the same class on the others (one {@code Allreduce}).
     */
    static void agree(final String call, final Intracomm comm, final RmaException localError)
    {
        final int[] own = {localError == null ? 0 : localError.errorClass().ordinal() + 1};
        final int[] worst = new int[1];
        try
        {
            comm.Allreduce(own, 0, worst, 0, 1, MPI.INT, MPI.MAX);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the agreement's Allreduce over the communicator", e);
        }
        if (localError != null)
        {
            throw localError;
        }
        if (worst[0] != 0)
        {
            throw new RmaException(ErrorClass.values()[worst[0] - 1], call + " failed on every process: another " +
                "process could not make its part of the window (its exception says why)");
        }
    }
}
