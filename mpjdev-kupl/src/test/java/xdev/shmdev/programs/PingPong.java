package xdev.shmdev.programs;

import mpi.MPI;

/** Rank 0 and 1 pass a counter back and forth; prints the final value. Other ranks only join. */
public final class PingPong
{
    private PingPong()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final int rounds = 1000;
        final int[] value = new int[1];
        if (size >= 2 && rank < 2)
        {
            for (int i = 0; i < rounds; i++)
            {
                if (rank == 0)
                {
                    MPI.COMM_WORLD.Send(value, 0, 1, MPI.INT, 1, 7);
                    MPI.COMM_WORLD.Recv(value, 0, 1, MPI.INT, 1, 8);
                }
                else
                {
                    MPI.COMM_WORLD.Recv(value, 0, 1, MPI.INT, 0, 7);
                    value[0]++;
                    MPI.COMM_WORLD.Send(value, 0, 1, MPI.INT, 0, 8);
                }
            }
        }
        System.out.println("pingpong rank " + rank + " of " + size + " value " + value[0]);
        MPI.Finalize();
    }
}
