package xdev.shmdev.programs;

import mpi.Intracomm;
import mpi.MPI;

/** Splits the world by rank parity (key = -rank) and sums ranks within each half; also dups the world. */
public final class SplitComm
{
    private SplitComm()
    {
    }

    public static String run(final Intracomm comm) throws Exception
    {
        final int rank = comm.Rank();
        final Intracomm half = comm.Split(rank % 2, -rank);
        final int[] sum = new int[1];
        half.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        final Intracomm copy = (Intracomm)comm.clone();
        final int[] total = new int[1];
        copy.Allreduce(new int[] {1}, 0, total, 0, 1, MPI.INT, MPI.SUM);
        final String result = "color=" + rank % 2 + " rank-in-half=" + half.Rank() + " of " + half.Size() +
            " sum=" + sum[0] + " dup-size=" + total[0];
        half.Free();
        copy.Free();
        return result;
    }

    public static void main(final String[] args) throws Exception
    {
        Programs.main(args, "split");
    }
}
