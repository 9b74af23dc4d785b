package bench;


import mpi.MPI;
import mpi.rma.Win;

/**
 * {@code Win.allocate} against {@code Win.allocateShared} on processes of one node, measured side
 * by side in one run: both reach the target by loads and stores, so their cost should be the same
 * (target: within 1.5x for put and get of 8 B + flush). Rank 0 is the origin, rank 1 the target;
 * rounds are interleaved so that every row sees the same phases of the machine's other work; each
 * figure is microseconds per operation with its flush, median and minimum over rounds. Rank 0
 * prints a Markdown table.
 *
 * <p>Run: {@code bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.AllocateWindowRank [rounds]}.
 */
public final class AllocateWindowRank
{
    private static final int OPS_PER_ROUND = 20_000;

    private AllocateWindowRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int rounds = appArgs.length > 0 ? Integer.parseInt(appArgs[0]) : 15;
        final int rank = MPI.COMM_WORLD.Rank();
        final String[] rows = {"allocateShared: put 8 B + flush", "allocate: put 8 B + flush",
            "allocateShared: get 8 B + flush", "allocate: get 8 B + flush"};
        final double[][] microseconds = new double[rows.length][rounds];
        final double[] small = new double[1];
        try (Win shared = Win.allocateShared(Double.BYTES, Double.BYTES, null, MPI.COMM_WORLD);
            Win allocated = Win.allocate(Double.BYTES, Double.BYTES, null, MPI.COMM_WORLD))
        {
            // Round -1 warms every path up and is not kept.
            for (int round = -1; round < rounds; round++)
            {
                final double[] figures = {
                    timed(rank, shared, () -> shared.put(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE)),
                    timed(rank, allocated, () -> allocated.put(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE)),
                    timed(rank, shared, () -> shared.get(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE)),
                    timed(rank, allocated, () -> allocated.get(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE))};
                for (int row = 0; row < rows.length && round >= 0; row++)
                {
                    microseconds[row][round] = figures[row];
                }
            }
        }
        if (rank == 0)
        {
            System.out.println("| operation (rank 0 to rank 1, one node) | median us | min us |");
            System.out.println("|---|---|---|");
            final double[] medians = new double[rows.length];
            final double[] minima = new double[rows.length];
            for (int row = 0; row < rows.length; row++)
            {
                medians[row] = Samples.median(microseconds[row]);
                minima[row] = Samples.min(microseconds[row]);
                System.out.printf("| %s | %.3f | %.3f |%n", rows[row], medians[row], minima[row]);
            }
            // Rows come in pairs, allocateShared then allocate.
            for (int row = 0; row < rows.length; row += 2)
            {
                System.out.printf("| ratio allocate / allocateShared, %s | %.2fx | %.2fx |%n",
                    rows[row].substring(rows[row].indexOf(':') + 2), medians[row + 1] / medians[row],
                    minima[row + 1] / minima[row]);
            }
        }
        MPI.Finalize();
    }

    /** Microseconds per operation of rank 0 on rank 1, each flushed, inside one shared lock epoch. */
    private static double timed(final int rank, final Win win, final Runnable operation)
    {
        MPI.COMM_WORLD.Barrier();
        long elapsedNs = 0;
        if (rank == 0)
        {
            win.lock(Win.LOCK_SHARED, 1, 0);
            final long startNs = System.nanoTime();
            for (int i = 0; i < OPS_PER_ROUND; i++)
            {
                operation.run();
                win.flush(1);
            }
            elapsedNs = System.nanoTime() - startNs;
            win.unlock(1);
        }
        MPI.COMM_WORLD.Barrier();
        return elapsedNs / 1e3 / OPS_PER_ROUND;
    }
}
