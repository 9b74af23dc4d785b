package bench.jvm;

import java.util.Locale;

import mpi.Intracomm;
import mpi.MPI;

/**
 * LU factorisation's communication alone, as in a column-by-column LU: for each column k of n, a
 * {@code Bcast} of n doubles from rank {@code k % size}, then a {@code Bcast} of one int (the pivot)
 * from the same rank; no computation. Rank 0 prints one line with the microseconds per column of
 * each sweep of n columns; the first sweeps are the warm-up, the last ones what a warm job costs.
 * An ordinary MPJ Express program: runs on any device.
 *
 * <pre>bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.jvm.BcastPattern [n [sweeps]]</pre>
 * prints {@code bcast-pattern n=1000 ranks=2 us/column: 812.4 95.1 40.3 ...}
 */
public final class BcastPattern
{
    /** What the line rank 0 prints starts with. */
    static final String PREFIX = "bcast-pattern";

    private BcastPattern()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int n = appArgs.length > 0 ? Integer.parseInt(appArgs[0]) : 1000;
        final int sweeps = appArgs.length > 1 ? Integer.parseInt(appArgs[1]) : 20;
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        final double[] column = new double[n];
        final int[] pivot = new int[1];
        final StringBuilder line = new StringBuilder(
            String.format(Locale.ROOT, "%s n=%d ranks=%d us/column:", PREFIX, n, size));
        for (int sweep = 0; sweep < sweeps; sweep++)
        {
            world.Barrier();
            final long startNs = System.nanoTime();
            for (int k = 0; k < n; k++)
            {
                final int root = k % size;
                if (root == rank)
                {
                    column[k] = k;
                    pivot[0] = k;
                }
                world.Bcast(column, 0, n, MPI.DOUBLE, root);
                world.Bcast(pivot, 0, 1, MPI.INT, root);
            }
            world.Barrier();
            line.append(String.format(Locale.ROOT, " %.1f", (System.nanoTime() - startNs) / 1e3 / n));
        }
        if (rank == 0)
        {
            System.out.println(line);
        }
        MPI.Finalize();
    }
}
