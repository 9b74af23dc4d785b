package xdev.shmdev.programs;

import mpi.Intracomm;
import mpi.MPI;

/** A token goes twice around the ring; each rank adds its rank + 1 on the way. */
public final class Ring
{
    private Ring()
    {
    }

    public static String run(final Intracomm comm) throws Exception
    {
        final int rank = comm.Rank();
        final int size = comm.Size();
        final long[] token = new long[1];
        final int next = (rank + 1) % size;
        final int previous = (rank + size - 1) % size;
        for (int lap = 0; lap < 2; lap++)
        {
            if (rank == 0)
            {
                token[0] += 1;
                // Non-blocking: on one process rank 0 sends to itself, and a blocking send may wait for its receive.
                final long[] out = token.clone();
                final mpi.Request sent = comm.Isend(out, 0, 1, MPI.LONG, next, 1);
                comm.Recv(token, 0, 1, MPI.LONG, previous, 1);
                sent.Wait();
            }
            else
            {
                comm.Recv(token, 0, 1, MPI.LONG, previous, 1);
                token[0] += rank + 1;
                comm.Send(token, 0, 1, MPI.LONG, next, 1);
            }
        }
        return Long.toString(token[0]);
    }

    public static void main(final String[] args) throws Exception
    {
        Programs.main(args, "ring");
    }
}
