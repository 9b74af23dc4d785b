package xdev.shmdev.programs;

import mpi.Intracomm;
import mpi.MPI;

/** Ranks 0 and 1 pass a counter back and forth 1000 times, 1 increments it; other ranks wait. */
public final class PingPong
{
    private PingPong()
    {
    }

    public static String run(final Intracomm comm) throws Exception
    {
        final int rank = comm.Rank();
        final int rounds = 1000;
        final int[] value = new int[1];
        if (comm.Size() >= 2 && rank < 2)
        {
            for (int i = 0; i < rounds; i++)
            {
                if (rank == 0)
                {
                    comm.Send(value, 0, 1, MPI.INT, 1, 7);
                    comm.Recv(value, 0, 1, MPI.INT, 1, 8);
                }
                else
                {
                    comm.Recv(value, 0, 1, MPI.INT, 0, 7);
                    value[0]++;
                    comm.Send(value, 0, 1, MPI.INT, 0, 8);
                }
            }
        }
        return "value=" + value[0];
    }

    public static void main(final String[] args) throws Exception
    {
        Programs.main(args, "pingpong");
    }
}
