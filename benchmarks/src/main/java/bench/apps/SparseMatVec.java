package bench.apps;

import java.util.Locale;
import java.util.SplittableRandom;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Power iteration with a sparse n x n matrix in compressed-row form ({@value #NONZEROS_PER_ROW}
 * non-zeros a row), rows split into one block per rank, in the shape of the Java Grande
 * SparseMatmult kernel with the reductions a solver adds.
 *
 * <p>Each iteration computes this rank's rows of y = A x, the norm of y (an {@code Allreduce}
 * of the partial sums of squares), and x = y / |y| everywhere (an {@code Allgather} of the
 * blocks, n doubles in all).
 *
 * <p>Timed: {@value #ITERATIONS} iterations. Checked: rank 0 runs the same iterations serially
 * and compares the last norm and x (relative difference at most {@value #TOLERANCE}: only the
 * order of the partial sums differs).
 *
 * <pre>bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.apps.SparseMatVec [n [repetitions]]</pre>
 */
public final class SparseMatVec implements Kernel
{
    private final CommunicationClock communication = new CommunicationClock();
    static final int NONZEROS_PER_ROW = 8;
    static final int ITERATIONS = 100;
    static final double TOLERANCE = 1e-9;
    private static final long SEED = 4_242L;

    private final int n;
    private int ranks;
    private int rank;
    /** Rows per rank (the last block may hold fewer real rows; x is padded to ranks * blockRows). */
    private int blockRows;
    private int firstRow;
    private int endRow;
    private Csr local;
    private double[] x;
    private double norm;
    private Csr whole;

    /** Rows {@code first} to {@code end - 1} of the matrix, compressed. */
    record Csr(int first, int[] rowStart, int[] column, double[] value)
    {
        /** y[i - first] = (A x)[i] for this block's rows. */
        void multiply(final double[] x, final double[] y)
        {
            for (int r = 0; r < rowStart.length - 1; r++)
            {
                double sum = 0;
                for (int k = rowStart[r]; k < rowStart[r + 1]; k++)
                {
                    sum += value[k] * x[column[k]];
                }
                y[r] = sum;
            }
        }
    }

    SparseMatVec(final int n)
    {
        if (n < NONZEROS_PER_ROW)
        {
            throw new IllegalArgumentException("sparse: n=" + n + " must be at least " + NONZEROS_PER_ROW);
        }
        this.n = n;
    }

    public static void main(final String[] args) throws Exception
    {
        KernelRank.main(Kernels.SPARSE, args);
    }

    /** Rows {@code first} to {@code end - 1} of the matrix (made from one random stream, so the same on every rank). */
    static Csr rows(final int n, final int first, final int end)
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final int[] rowStart = new int[end - first + 1];
        final int[] column = new int[(end - first) * NONZEROS_PER_ROW];
        final double[] value = new double[column.length];
        int k = 0;
        for (int i = 0; i < end; i++)
        {
            for (int e = 0; e < NONZEROS_PER_ROW; e++)
            {
                // The first element of a row is its diagonal, so that no row is empty.
                final int j = e == 0 ? i : random.nextInt(n);
                final double v = random.nextDouble();
                if (i >= first)
                {
                    column[k] = j;
                    value[k++] = v;
                }
            }
            if (i >= first)
            {
                rowStart[i - first + 1] = k;
            }
        }
        return new Csr(first, rowStart, column, value);
    }

    @Override
    public void setUp(final Intracomm comm) throws MPIException
    {
        rank = comm.Rank();
        ranks = comm.Size();
        blockRows = (n + ranks - 1) / ranks;
        firstRow = Math.min(n, rank * blockRows);
        endRow = Math.min(n, firstRow + blockRows);
        local = rows(n, firstRow, endRow);
        x = new double[ranks * blockRows];
        java.util.Arrays.fill(x, 0, n, 1.0 / Math.sqrt(n));
    }

    @Override
    public void run(final Intracomm comm) throws MPIException
    {
        final double[] y = new double[blockRows];
        final double[] squares = new double[1];
        final double[] total = new double[1];
        for (int iteration = 0; iteration < ITERATIONS; iteration++)
        {
            local.multiply(x, y);
            squares[0] = 0;
            for (int r = 0; r < endRow - firstRow; r++)
            {
                squares[0] += y[r] * y[r];
            }
            communication.start();
            comm.Allreduce(squares, 0, total, 0, 1, MPI.DOUBLE, MPI.SUM);
            communication.stop();
            norm = Math.sqrt(total[0]);
            for (int r = 0; r < endRow - firstRow; r++)
            {
                y[r] /= norm;
            }
            communication.start();
            comm.Allgather(y, 0, blockRows, MPI.DOUBLE, x, 0, blockRows, MPI.DOUBLE);
            communication.stop();
        }
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
            return null;
        }
        if (whole == null)
        {
            whole = rows(n, 0, n);
        }
        double[] serialX = new double[n];
        java.util.Arrays.fill(serialX, 1.0 / Math.sqrt(n));
        double serialNorm = 0;
        final double[] y = new double[n];
        for (int iteration = 0; iteration < ITERATIONS; iteration++)
        {
            whole.multiply(serialX, y);
            double squares = 0;
            for (final double v : y)
            {
                squares += v * v;
            }
            serialNorm = Math.sqrt(squares);
            for (int i = 0; i < n; i++)
            {
                y[i] /= serialNorm;
            }
            serialX = y.clone();
        }
        double largest = Math.abs(norm - serialNorm) / serialNorm;
        for (int i = 0; i < n; i++)
        {
            final double difference = Math.abs(x[i] - serialX[i]) / Math.abs(serialX[i]);
            largest = Double.isNaN(difference) ? Double.POSITIVE_INFINITY : Math.max(largest, difference);
        }
        if (Double.isNaN(largest))
        {
            largest = Double.POSITIVE_INFINITY;
        }
        return new Check(largest <= TOLERANCE, String.format(Locale.ROOT,
            "norm %.6f; largest relative difference from the serial run %.3g (limit %.0e)", norm, largest,
            TOLERANCE));
    }
}
