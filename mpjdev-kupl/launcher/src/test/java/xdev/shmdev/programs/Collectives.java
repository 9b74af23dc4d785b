package xdev.shmdev.programs;

import java.util.Arrays;

import mpi.Intracomm;
import mpi.MPI;

/** Bcast, Reduce, Allreduce, Allgather, Alltoall, Scan and Barrier, each summarised in one line. */
public final class Collectives
{
    private Collectives()
    {
    }

    public static String run(final Intracomm comm) throws Exception
    {
        final int rank = comm.Rank();
        final int size = comm.Size();
        final StringBuilder result = new StringBuilder();

        final double[] broadcast = new double[1000];
        if (rank == size - 1)
        {
            for (int i = 0; i < broadcast.length; i++)
            {
                broadcast[i] = i * 0.5;
            }
        }
        comm.Bcast(broadcast, 0, broadcast.length, MPI.DOUBLE, size - 1);
        result.append("bcast=").append(Arrays.stream(broadcast).sum());

        final int[] mine = {rank + 1, 10 * (rank + 1)};
        final int[] sum = new int[2];
        comm.Reduce(mine, 0, sum, 0, 2, MPI.INT, MPI.SUM, 0);
        result.append(" reduce=").append(rank == 0 ? Arrays.toString(sum) : "-");

        final double[] max = new double[8];
        final double[] values = new double[8];
        Arrays.fill(values, rank * 1.5);
        comm.Allreduce(values, 0, max, 0, 8, MPI.DOUBLE, MPI.MAX);
        result.append(" allreduce=").append(max[7]);

        final int[] gathered = new int[size];
        comm.Allgather(new int[] {rank * rank}, 0, 1, MPI.INT, gathered, 0, 1, MPI.INT);
        result.append(" allgather=").append(Arrays.toString(gathered));

        final int[] send = new int[size];
        final int[] received = new int[size];
        for (int peer = 0; peer < size; peer++)
        {
            send[peer] = 100 * rank + peer;
        }
        comm.Alltoall(send, 0, 1, MPI.INT, received, 0, 1, MPI.INT);
        result.append(" alltoall=").append(Arrays.toString(received));

        final long[] prefix = new long[1];
        comm.Scan(new long[] {rank + 1}, 0, prefix, 0, 1, MPI.LONG, MPI.SUM);
        result.append(" scan=").append(prefix[0]);

        comm.Barrier();
        return result.toString();
    }

    public static void main(final String[] args) throws Exception
    {
        Programs.main(args, "collectives");
    }
}
