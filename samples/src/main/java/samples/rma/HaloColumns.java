package samples.rma;

import java.util.Arrays;
import java.util.Locale;

import mpi.Datatype;
import mpi.MPI;
import mpi.rma.Win;

/**
 * 2-D heat diffusion (Jacobi relaxation) on a square plate whose top edge is held at {@value #HOT}
 * degrees and the other three at {@value #COLD}: the plate's columns are split evenly among the
 * ranks, each rank keeping its block in a row-major {@code double[]} with one ghost column on
 * each side and one ghost row above and below (the edges). Each step every interior cell becomes
 * the mean of its four neighbours.
 *
 * <p>What it shows: a column of a row-major matrix is not contiguous (its elements lie one row
 * apart), yet it travels in one call: {@code Datatype.Vector(rows, 1, rowLength, MPI.DOUBLE)}
 * describes it, on the origin (the rank's first or last interior column) and at the target (the
 * neighbour's ghost column) alike. Each step is one fence epoch of two puts per rank; the window is
 * {@link Win#create} over the rank's own array, so the same program runs on one node (through
 * shared memory on {@code -dev shm}) or across nodes (as MPJ Express messages). Ranks at the
 * plate's sides put to {@code MPI.PROC_NULL}, which does nothing: no special case for the edges.
 *
 * <p>Every rank prints the sum of its columns; rank 0 prints the plate, one digit per cell (tens of
 * degrees). Run: {@code bin/sample HaloColumns [rows [columnsPerRank [steps]]]} (defaults
 * {@value #DEFAULT_ROWS}, {@value #DEFAULT_COLUMNS_PER_RANK}, {@value #DEFAULT_STEPS}, on 4 ranks), or
 * across two simulated nodes:
 * {@code bin/mpjrun -np 4 -dev niodev -nodes 2 -cp samples/target/classes samples.rma.HaloColumns}.
 */
public final class HaloColumns
{
    /** Temperature held along the top edge. */
    public static final double HOT = 100.0;
    /** Temperature held along the other edges. */
    public static final double COLD = 0.0;
    public static final int DEFAULT_ROWS = 12;
    public static final int DEFAULT_COLUMNS_PER_RANK = 6;
    public static final int DEFAULT_STEPS = 100;

    private HaloColumns()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}; then optionally rows, columns
     *             per rank and steps.
     */
    public static void main(final String[] args)
    {
        final String[] appArgs = MPI.Init(args);
        final int rows = SampleArgs.positive(appArgs, 0, "rows", DEFAULT_ROWS);
        final int columns = SampleArgs.positive(appArgs, 1, "columnsPerRank", DEFAULT_COLUMNS_PER_RANK);
        final int steps = SampleArgs.positive(appArgs, 2, "steps", DEFAULT_STEPS);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final int left = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        final int right = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        // One row of the block: a ghost column, the rank's columns, a ghost column.
        final int rowLength = columns + 2;

        // The block with its ghost rows (the top and bottom edges, fixed) and ghost columns (the
        // neighbours' edge columns, or the plate's side edges at the first and last rank).
        final double[] block = new double[(rows + 2) * rowLength];
        Arrays.fill(block, 0, rowLength, HOT);
        final double[] next = block.clone();

        // One column of interior cells: rows elements, each one row (rowLength doubles) after the last.
        final Datatype column = Datatype.Vector(rows, 1, rowLength, MPI.DOUBLE);
        column.Commit();
        final int firstInterior = rowLength + 1;                 // row 1, column 1
        final int lastInterior = rowLength + columns;            // row 1, column `columns`
        final int leftGhost = rowLength;                         // row 1, column 0
        final int rightGhost = rowLength + columns + 1;          // row 1, column columns + 1

        // Displacements count doubles: displacement d is block[d] of the target.
        try (Win win = Win.create(block, Double.BYTES, null, MPI.COMM_WORLD))
        {
            for (int step = 0; step < steps; step++)
            {
                // Opens the epoch; the stores of the last step are done before anyone's puts read them.
                win.fence(0);
                // My first column into my left neighbour's right ghost column, my last into my right
                // neighbour's left ghost column: one call each, whatever the number of rows.
                win.put(block, firstInterior, 1, column, left, rightGhost, 1, column);
                win.put(block, lastInterior, 1, column, right, leftGhost, 1, column);
                // Every put of every rank is complete: my ghost columns hold my neighbours' edges.
                win.fence(0);
                relax(block, next, rows, columns);
            }
            win.fence(Win.MODE_NOSUCCEED);
        }

        System.out.printf(Locale.ROOT, "rank %d: columns %d-%d, sum %.10f%n", rank, rank * columns,
            (rank + 1) * columns - 1, interiorSum(block, rows, columns));
        printPlate(block, rows, columns, rank, size);
        MPI.Finalize();
    }

    /**
     * One Jacobi step of the interior of {@code block} (ghosts included as read-only neighbours),
     * through {@code next}; the test's serial reference calls this too, so both round alike.
     */
    public static void relax(final double[] block, final double[] next, final int rows, final int columns)
    {
        final int rowLength = columns + 2;
        for (int i = 1; i <= rows; i++)
        {
            for (int j = 1; j <= columns; j++)
            {
                final int at = i * rowLength + j;
                next[at] = 0.25 * (block[at - rowLength] + block[at + rowLength] + block[at - 1] + block[at + 1]);
            }
        }
        for (int i = 1; i <= rows; i++)
        {
            System.arraycopy(next, i * rowLength + 1, block, i * rowLength + 1, columns);
        }
    }

    /** The sum of the interior cells of {@code block}, row by row. */
    public static double interiorSum(final double[] block, final int rows, final int columns)
    {
        double sum = 0;
        for (int i = 1; i <= rows; i++)
        {
            for (int j = 1; j <= columns; j++)
            {
                sum += block[i * (columns + 2) + j];
            }
        }
        return sum;
    }

    /** Rank 0 gathers every rank's interior and prints it, one digit (tens of degrees) per cell. */
    private static void printPlate(final double[] block, final int rows, final int columns, final int rank,
        final int size)
    {
        final double[] mine = new double[rows * columns];
        for (int i = 0; i < rows; i++)
        {
            System.arraycopy(block, (i + 1) * (columns + 2) + 1, mine, i * columns, columns);
        }
        final double[] all = new double[rows * columns * size];
        MPI.COMM_WORLD.Gather(mine, 0, mine.length, MPI.DOUBLE, all, 0, mine.length, MPI.DOUBLE, 0);
        if (rank != 0)
        {
            return;
        }
        System.out.printf(Locale.ROOT, "2-D heat diffusion: %d x %d cells on %d ranks (top edge %.0f, others %.0f)%n",
            rows, columns * size, size, HOT, COLD);
        for (int i = 0; i < rows; i++)
        {
            final StringBuilder line = new StringBuilder();
            for (int owner = 0; owner < size; owner++)
            {
                for (int j = 0; j < columns; j++)
                {
                    line.append(Math.min(9, (int)(all[owner * rows * columns + i * columns + j] / 10)));
                }
                line.append(owner < size - 1 ? "|" : "");
            }
            System.out.println(line);
        }
    }
}
