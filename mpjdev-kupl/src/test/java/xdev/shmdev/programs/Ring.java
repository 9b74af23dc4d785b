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
                comm.Send(token, 0, 1, MPI.LONG, next, 1);
                comm.Recv(token, 0, 1, MPI.LONG, previous, 1);
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
