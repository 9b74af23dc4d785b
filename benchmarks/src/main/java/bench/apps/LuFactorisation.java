package bench.apps;

import java.util.Locale;
import java.util.SplittableRandom;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * LU factorisation with partial pivoting of a dense n x n matrix whose columns are dealt
 * round-robin to the ranks (column j on rank j mod p), in the shape of LINPACK's {@code dgefa}.
 *
 * <p>For each column k, its owner finds the pivot, swaps it to the diagonal and turns the
 * column below it into multipliers; it broadcasts the multipliers ({@code n - k - 1} doubles)
 * and the pivot's row (one int); then every rank swaps and updates its own columns right of k.
 * So the root of both broadcasts moves to the next rank with every column, and between two
 * columns each rank computes: the pattern of the Java Grande LUFact kernel.
 *
 * <p>Timed: the factorisation. Checked: rank 0 gathers the factors, solves A x = b for the b
 * made from x = (1, ..., 1) and requires LINPACK's normalised residual
 * {@code ||A x - b|| / (n ||A|| ||x|| eps)} to be below {@value #MAX_NORMALISED_RESIDUAL}.
 *
 * <pre>bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.apps.LuFactorisation [n [repetitions]]</pre>
 */
public final class LuFactorisation implements Kernel
{
    private final CommunicationClock communication = new CommunicationClock();
    /** LINPACK reports a residual of order 1 for a correct factorisation; a wrong one is of order 1e10 or more. */
    static final double MAX_NORMALISED_RESIDUAL = 100;
    private static final int TAG_FACTORS = 11;
    private static final long SEED = 1_325L;

    private final int n;
    private int rank;
    private int ranks;
    /** This rank's columns, local index c holding global column rank + c * ranks; each of length n. */
    private double[][] columns;
    /** pivots[k]: the row swapped with row k at step k (known to every rank). */
    private int[] pivots;

    LuFactorisation(final int n)
    {
        if (n < 2)
        {
            throw new IllegalArgumentException("LU: n=" + n + " must be at least 2");
        }
        this.n = n;
    }

    public static void main(final String[] args) throws Exception
    {
        KernelRank.main(Kernels.LU, args);
    }

    /** Element (i, j) of the matrix: uniform in [-0.5, 0.5), the same on every rank. */
    static double[][] matrixColumns(final int n)
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final double[][] a = new double[n][n];
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                a[j][i] = random.nextDouble() - 0.5;
            }
        }
        return a;
    }

    @Override
    public void setUp(final Intracomm comm) throws MPIException
    {
        rank = comm.Rank();
        ranks = comm.Size();
        final double[][] all = matrixColumns(n);
        columns = new double[localCount(rank)][];
        for (int c = 0; c < columns.length; c++)
        {
            columns[c] = all[rank + c * ranks];
        }
        pivots = new int[n];
    }

    private int localCount(final int owner)
    {
        return (n - owner + ranks - 1) / ranks;
    }

    @Override
    public void run(final Intracomm comm) throws MPIException
    {
        final double[] multipliers = new double[n];
        final int[] pivot = new int[1];
        for (int k = 0; k < n - 1; k++)
        {
            final int owner = k % ranks;
            final int below = n - k - 1;
            if (owner == rank)
            {
                final double[] column = columns[k / ranks];
                pivot[0] = pivotRow(column, k);
                swap(column, k, pivot[0]);
                final double scale = -1.0 / column[k];
                for (int i = k + 1; i < n; i++)
                {
                    column[i] *= scale;
                }
                System.arraycopy(column, k + 1, multipliers, 0, below);
            }
            communication.start();
            comm.Bcast(multipliers, 0, below, MPI.DOUBLE, owner);
            comm.Bcast(pivot, 0, 1, MPI.INT, owner);
            communication.stop();
            pivots[k] = pivot[0];
            // Columns right of k on this rank: the first local index whose global column exceeds k.
            for (int c = firstLocalAfter(k); c < columns.length; c++)
            {
                final double[] column = columns[c];
                swap(column, k, pivot[0]);
                final double t = column[k];
                for (int i = 0; i < below; i++)
                {
                    column[k + 1 + i] += t * multipliers[i];
                }
            }
        }
        pivots[n - 1] = n - 1;
    }

    private int firstLocalAfter(final int k)
    {
        // Smallest c with rank + c * ranks > k.
        return k < rank ? 0 : (k - rank) / ranks + 1;
    }

    private static int pivotRow(final double[] column, final int k)
    {
        int best = k;
        for (int i = k + 1; i < column.length; i++)
        {
            if (Math.abs(column[i]) > Math.abs(column[best]))
            {
                best = i;
            }
        }
        return best;
    }

    private static void swap(final double[] column, final int i, final int j)
    {
        final double t = column[i];
        column[i] = column[j];
        column[j] = t;
    }

    @Override
    public CommunicationClock communication()
    {
        return communication;
    }

    @Override
    public Check validate(final Intracomm comm) throws MPIException
    {
        if (rank != 0)
        {
            final double[] packed = new double[columns.length * n];
            for (int c = 0; c < columns.length; c++)
            {
                System.arraycopy(columns[c], 0, packed, c * n, n);
            }
            comm.Send(packed, 0, packed.length, MPI.DOUBLE, 0, TAG_FACTORS);
            return null;
        }
        final double[][] factors = new double[n][];
        for (int c = 0; c < columns.length; c++)
        {
            factors[c * ranks] = columns[c];
        }
        for (int source = 1; source < ranks; source++)
        {
            final double[] packed = new double[localCount(source) * n];
            comm.Recv(packed, 0, packed.length, MPI.DOUBLE, source, TAG_FACTORS);
            for (int c = 0; c < localCount(source); c++)
            {
                factors[source + c * ranks] = java.util.Arrays.copyOfRange(packed, c * n, (c + 1) * n);
            }
        }
        final double[][] a = matrixColumns(n);
        final double[] b = new double[n];
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                b[i] += a[j][i];
            }
        }
        final double[] x = solve(factors, pivots, b);
        final double residual = normalisedResidual(a, x, b);
        return new Check(residual < MAX_NORMALISED_RESIDUAL,
            String.format(Locale.ROOT, "normalised residual %.3g (limit %.0f)", residual, MAX_NORMALISED_RESIDUAL));
    }

    /** Solves A x = b from the factors of {@link #run} (LINPACK's {@code dgesl}, no transpose). */
    static double[] solve(final double[][] factors, final int[] pivots, final double[] b)
    {
        final int n = b.length;
        final double[] x = b.clone();
        for (int k = 0; k < n - 1; k++)
        {
            final int l = pivots[k];
            final double t = x[l];
            x[l] = x[k];
            x[k] = t;
            for (int i = k + 1; i < n; i++)
            {
                x[i] += t * factors[k][i];
            }
        }
        for (int k = n - 1; k >= 0; k--)
        {
            x[k] /= factors[k][k];
            final double t = -x[k];
            for (int i = 0; i < k; i++)
            {
                x[i] += t * factors[k][i];
            }
        }
        return x;
    }

    /** {@code ||A x - b||_inf / (n ||A||_inf ||x||_inf eps)}. */
    static double normalisedResidual(final double[][] columnsOfA, final double[] x, final double[] b)
    {
        final int n = x.length;
        final double[] r = new double[n];
        final double[] rowSums = new double[n];
        for (int j = 0; j < n; j++)
        {
            for (int i = 0; i < n; i++)
            {
                r[i] += columnsOfA[j][i] * x[j];
                rowSums[i] += Math.abs(columnsOfA[j][i]);
            }
        }
        double residual = 0;
        double normA = 0;
        double normX = 0;
        for (int i = 0; i < n; i++)
        {
            residual = Math.max(residual, Math.abs(r[i] - b[i]));
            normA = Math.max(normA, rowSums[i]);
            normX = Math.max(normX, Math.abs(x[i]));
        }
        return residual / (n * normA * normX * Math.ulp(1.0));
    }
}
