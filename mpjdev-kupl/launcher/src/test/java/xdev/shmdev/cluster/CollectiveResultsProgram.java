package xdev.shmdev.cluster;

import java.util.Arrays;
import java.util.stream.Collectors;

import mpi.MPI;

/**
 * Prints what each collective gave every rank, in bits, so that a test can compare two devices' runs line
 * by line: Allreduce and Reduce sums of doubles whose sum depends on the order of the additions, an int
 * Allreduce (exact whatever the order), Bcast, Gather and Allgather from a root that leads no node. Lines:
 * {@code rank R <collective> <values>}, then {@code DONE rank R}.
 */
public final class CollectiveResultsProgram
{
    private static final int COUNT = 5;

    private CollectiveResultsProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final int root = size - 1;
        final double[] mine = new double[COUNT];
        for (int i = 0; i < COUNT; i++)
        {
            // Large and small magnitudes: every grouping of the additions rounds differently.
            mine[i] = (rank % 2 == 0 ? 1e16 : -1e16) * (i + 1) + Math.PI * (rank + 1) / (i + 3);
        }
        final double[] sum = new double[COUNT];
        MPI.COMM_WORLD.Allreduce(mine, 0, sum, 0, COUNT, MPI.DOUBLE, MPI.SUM);
        print(rank, "allreduce", bits(sum));
        final double[] reduced = new double[COUNT];
        MPI.COMM_WORLD.Reduce(mine, 0, reduced, 0, COUNT, MPI.DOUBLE, MPI.SUM, root);
        if (rank == root)
        {
            print(rank, "reduce", bits(reduced));
        }
        final int[] ints = new int[1];
        MPI.COMM_WORLD.Allreduce(new int[] {rank * rank + 1}, 0, ints, 0, 1, MPI.INT, MPI.SUM);
        print(rank, "int allreduce", Integer.toString(ints[0]));
        final long[] broadcast = rank == root ? new long[] {42, -7, rank} : new long[3];
        MPI.COMM_WORLD.Bcast(broadcast, 0, 3, MPI.LONG, root);
        print(rank, "bcast", Arrays.toString(broadcast));
        final int[] gathered = new int[2 * size];
        MPI.COMM_WORLD.Gather(new int[] {rank, 10 * rank}, 0, 2, MPI.INT, gathered, 0, 2, MPI.INT, root);
        if (rank == root)
        {
            print(rank, "gather", Arrays.toString(gathered));
        }
        final double[] all = new double[size];
        MPI.COMM_WORLD.Allgather(new double[] {mine[0]}, 0, 1, MPI.DOUBLE, all, 0, 1, MPI.DOUBLE);
        print(rank, "allgather", bits(all));
        MPI.COMM_WORLD.Barrier();
        // Not a "rank" line: it differs between devices by design.
        System.out.println("collectives through shared memory on rank " + rank + ": " +
            xdev.shmdev.coll.ShmCollectives.handledCalls());
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }

    private static String bits(final double[] values)
    {
        return Arrays.stream(values).mapToObj(v -> Long.toHexString(Double.doubleToRawLongBits(v)))
            .collect(Collectors.joining(","));
    }

    private static void print(final int rank, final String what, final String values)
    {
        System.out.println("rank " + rank + " " + what + " " + values);
    }
}
