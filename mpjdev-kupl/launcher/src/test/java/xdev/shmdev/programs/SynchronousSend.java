package xdev.shmdev.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Ssend completes only once the receive has started: rank 0's Issend to rank 1 is still
 * pending after rank 1 has signalled (with a plain send) that it has not posted its receive.
 */
public final class SynchronousSend
{
    private SynchronousSend()
    {
    }

    public static String run(final Intracomm comm) throws Exception
    {
        final int rank = comm.Rank();
        if (comm.Size() < 2 || rank > 1)
        {
            comm.Barrier();
            return "idle";
        }
        final int[] data = {42};
        final int[] signal = new int[1];
        String result;
        if (rank == 0)
        {
            final Request request = comm.Issend(data, 0, 1, MPI.INT, 1, 9);
            comm.Recv(signal, 0, 1, MPI.INT, 1, 10);
            // Rank 1 has not posted its receive yet: the synchronous send cannot have completed.
            final boolean pendingBefore = request.Test() == null;
            comm.Send(signal, 0, 1, MPI.INT, 1, 11);
            request.Wait();
            comm.Ssend(data, 0, 1, MPI.INT, 1, 12);
            result = "pending-before-receive=" + pendingBefore;
        }
        else
        {
            comm.Send(signal, 0, 1, MPI.INT, 0, 10);
            comm.Recv(signal, 0, 1, MPI.INT, 0, 11);
            final int[] got = new int[1];
            comm.Recv(got, 0, 1, MPI.INT, 0, 9);
            comm.Recv(got, 0, 1, MPI.INT, 0, 12);
            result = "received=" + got[0];
        }
        comm.Barrier();
        return result;
    }

    public static void main(final String[] args) throws Exception
    {
        Programs.main(args, "ssend");
    }
}
