package bench.apps;

import java.util.Locale;
import java.util.SplittableRandom;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Red-black successive over-relaxation on an n x n grid (fixed boundary), the interior rows
 * split into one block per rank, in the shape of the Java Grande SOR kernel.
 *
 * <p>Each iteration updates the red points ((i + j) even), exchanges the boundary rows with the
 * ranks above and below ({@code Sendrecv} of one row each way), then the black points and
 * exchanges again. A point's new value depends only on points of the other colour, so the
 * parallel grid is bit for bit the grid a serial red-black sweep makes, whatever the split.
 *
 * <p>Timed: {@value #ITERATIONS} iterations. Checked: rank 0 gathers the grid and compares it
 * with a serial run of the same iterations on the same grid (largest difference at most
 * {@value #TOLERANCE}).
 *
 * <pre>
 * bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.apps.SuccessiveOverRelaxation [n [repetitions]]
 * </pre>
 */
public final class SuccessiveOverRelaxation implements Kernel
{
    private final CommunicationClock communication = new CommunicationClock();
    static final int ITERATIONS = 100;
    static final double OMEGA = 1.25;
    static final double TOLERANCE = 1e-12;
    private static final int TAG_UP = 21;
    private static final int TAG_DOWN = 22;
    private static final int TAG_GATHER = 23;
    private static final long SEED = 10_101L;

    private final int n;
    private int rank;
    private int ranks;
    /** First and one past the last global interior row of this rank. */
    private int firstRow;
    private int endRow;
    /** Local row r is global row firstRow - 1 + r: a halo row, this rank's rows, a halo row. */
    private double[][] rows;
    private double[][] serialGrid;

    SuccessiveOverRelaxation(final int n)
    {
        if (n < 3)
        {
            throw new IllegalArgumentException("SOR: n=" + n + " must be at least 3 (a boundary and one interior row)");
        }
        this.n = n;
    }

    public static void main(final String[] args) throws Exception
    {
        KernelRank.main(Kernels.SOR, args);
    }

    static double[][] initialGrid(final int n)
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final double[][] grid = new double[n][n];
        for (final double[] row : grid)
        {
            for (int j = 0; j < n; j++)
            {
                row[j] = random.nextDouble();
            }
        }
        return grid;
    }

    @Override
    public void setUp(final Intracomm comm) throws MPIException
    {
        rank = comm.Rank();
        ranks = comm.Size();
        final int interior = n - 2;
        if (interior < ranks)
        {
            throw new IllegalArgumentException("SOR: n=" + n + " leaves " + interior + " interior rows for " + ranks +
                " ranks; give at least n=" + (ranks + 2));
        }
        firstRow = 1 + (int)((long)interior * rank / ranks);
        endRow = 1 + (int)((long)interior * (rank + 1) / ranks);
        final double[][] grid = initialGrid(n);
        rows = new double[endRow - firstRow + 2][];
        for (int r = 0; r < rows.length; r++)
        {
            rows[r] = grid[firstRow - 1 + r].clone();
        }
    }

    @Override
    public void run(final Intracomm comm) throws MPIException
    {
        for (int iteration = 0; iteration < ITERATIONS; iteration++)
        {
            for (int colour = 0; colour < 2; colour++)
            {
                for (int r = 1; r <= endRow - firstRow; r++)
                {
                    relaxRow(rows[r - 1], rows[r], rows[r + 1], firstRow - 1 + r, colour);
                }
                communication.start();
                exchangeHalos(comm);
                communication.stop();
            }
        }
    }

    /** Updates the points of {@code colour} in {@code row} (global index {@code i}), from its neighbours. */
    static void relaxRow(final double[] above, final double[] row, final double[] below, final int i, final int colour)
    {
        final double quarterOmega = OMEGA * 0.25;
        final double keep = 1.0 - OMEGA;
        for (int j = 1 + ((i + 1 + colour) & 1); j < row.length - 1; j += 2)
        {
            row[j] = quarterOmega * (above[j] + below[j] + row[j - 1] + row[j + 1]) + keep * row[j];
        }
    }

    /** Sends this rank's first row up and last row down, receiving the neighbours' into the halo rows. */
    private void exchangeHalos(final Intracomm comm) throws MPIException
    {
        final int count = endRow - firstRow;
        final int up = rank - 1;
        final int down = rank + 1 < ranks ? rank + 1 : -1;
        // Upwards: my first row to the rank above, the first row of the rank below into my lower halo.
        if (up >= 0 && down >= 0)
        {
            comm.Sendrecv(rows[1], 0, n, MPI.DOUBLE, up, TAG_UP, rows[count + 1], 0, n, MPI.DOUBLE, down, TAG_UP);
            comm.Sendrecv(rows[count], 0, n, MPI.DOUBLE, down, TAG_DOWN, rows[0], 0, n, MPI.DOUBLE, up, TAG_DOWN);
        }
        else if (down >= 0)
        {
            comm.Recv(rows[count + 1], 0, n, MPI.DOUBLE, down, TAG_UP);
            comm.Send(rows[count], 0, n, MPI.DOUBLE, down, TAG_DOWN);
        }
        else if (up >= 0)
        {
            comm.Send(rows[1], 0, n, MPI.DOUBLE, up, TAG_UP);
            comm.Recv(rows[0], 0, n, MPI.DOUBLE, up, TAG_DOWN);
        }
    }

    /** The same iterations on the whole grid in one process. */
    static double[][] serialRun(final int n)
    {
        final double[][] grid = initialGrid(n);
        for (int iteration = 0; iteration < ITERATIONS; iteration++)
        {
            for (int colour = 0; colour < 2; colour++)
            {
                for (int i = 1; i < n - 1; i++)
                {
                    relaxRow(grid[i - 1], grid[i], grid[i + 1], i, colour);
                }
            }
        }
        return grid;
    }

    @Override
    public CommunicationClock communication()
    {
        return communication;
    }

    @Override
    public Check validate(final Intracomm comm) throws MPIException
    {
        final int count = endRow - firstRow;
        if (rank != 0)
        {
            final double[] packed = new double[count * n];
            for (int r = 0; r < count; r++)
            {
                System.arraycopy(rows[r + 1], 0, packed, r * n, n);
            }
            comm.Send(packed, 0, packed.length, MPI.DOUBLE, 0, TAG_GATHER);
            return null;
        }
        if (serialGrid == null)
        {
            serialGrid = serialRun(n);
        }
        double largest = maxDifference(1, 1, count, rows);
        for (int source = 1; source < ranks; source++)
        {
            final int first = 1 + (int)((long)(n - 2) * source / ranks);
            final int end = 1 + (int)((long)(n - 2) * (source + 1) / ranks);
            final double[] packed = new double[(end - first) * n];
            comm.Recv(packed, 0, packed.length, MPI.DOUBLE, source, TAG_GATHER);
            final double[][] received = new double[end - first][];
            for (int r = 0; r < received.length; r++)
            {
                received[r] = java.util.Arrays.copyOfRange(packed, r * n, (r + 1) * n);
            }
            largest = Math.max(largest, maxDifference(first, 0, end - first, received));
        }
        return new Check(largest <= TOLERANCE, String.format(Locale.ROOT,
            "largest difference from the serial grid %.3g (limit %.0e)", largest, TOLERANCE));
    }

    /** Largest |local - serial| over {@code count} rows; local row {@code localFirst} is global {@code globalFirst}. */
    private double maxDifference(final int globalFirst, final int localFirst, final int count, final double[][] local)
    {
        double largest = 0;
        for (int r = 0; r < count; r++)
        {
            final double[] mine = local[localFirst + r];
            final double[] serial = serialGrid[globalFirst + r];
            for (int j = 0; j < n; j++)
            {
                final double difference = Math.abs(mine[j] - serial[j]);
                // A NaN must fail the check, and Math.max would carry it along as "not larger".
                largest = Double.isNaN(difference) ? Double.POSITIVE_INFINITY : Math.max(largest, difference);
            }
        }
        return largest;
    }
}
