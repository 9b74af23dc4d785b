package samples.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

import mpi.MPI;
import mpi.rma.Win;

/**
 * 1-D heat diffusion on a rod whose left end is held at {@value #HOT} degrees and right end at
 * {@value #COLD}: the rod's cells are split evenly among the ranks, and each step every cell
 * moves towards the mean of its neighbours,
 * {@code T'[i] = T[i] + ALPHA * (T[i-1] - 2 T[i] + T[i+1])}.
 *
 * <p>What it shows: a rank needs one cell of each neighbour per step (its <em>halo</em>). With a
 * shared window it reads them straight from the neighbours' segments, with plain loads, no
 * message and no copy. The fence between steps is what makes that safe: after it, every rank's
 * new values are visible to every other rank.
 *
 * <p>Each segment holds two generations of the rank's cells: step {@code s} reads generation
 * {@code s % 2} (own cells and the halo) and writes generation {@code (s + 1) % 2} of its own
 * cells. A neighbour overwrites the generation this rank is reading only after the next fence,
 * which this rank enters only when it has finished reading: one fence per step is enough.
 *
 * <p>Rank 0 prints the temperature of every cell at the end, read straight from all segments.
 * Run: {@code bin/sample HeatStencil [cellsPerRank [steps]]} (defaults {@value #DEFAULT_CELLS_PER_RANK}
 * and {@value #DEFAULT_STEPS}, on 4 ranks).
 */
public final class HeatStencil
{
    /** Temperature held at the left end of the rod. */
    public static final double HOT = 100.0;
    /** Temperature held at the right end of the rod. */
    public static final double COLD = 0.0;
    /** Diffusion number; the explicit scheme is stable up to 0.5. */
    public static final double ALPHA = 0.25;
    public static final int DEFAULT_CELLS_PER_RANK = 8;
    public static final int DEFAULT_STEPS = 200;

    private static final ValueLayout.OfDouble CELL = ValueLayout.JAVA_DOUBLE;
    private static final int BAR_DEGREES_PER_MARK = 2;

    private HeatStencil()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}; then optionally cells per
     *             rank and steps.
     */
    public static void main(final String[] args)
    {
        final String[] appArgs = MPI.Init(args);
        final int cells = SampleArgs.positive(appArgs, 0, "cellsPerRank", DEFAULT_CELLS_PER_RANK);
        final int steps = SampleArgs.positive(appArgs, 1, "steps", DEFAULT_STEPS);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();

        // Two generations of this rank's cells, 8 bytes each; displacements count cells.
        try (Win win = Win.allocateShared(2L * cells * Double.BYTES, Double.BYTES, null, MPI.COMM_WORLD))
        {
            final MemorySegment own = win.base();
            // The neighbours' segments (null at the rod's ends, where the temperature is fixed).
            final MemorySegment left = rank > 0 ? win.sharedQuery(rank - 1).memory() : null;
            final MemorySegment right = rank < size - 1 ? win.sharedQuery(rank + 1).memory() : null;

            // The rod starts cold; generation 0 is this rank's initial temperature.
            for (int i = 0; i < cells; i++)
            {
                own.setAtIndex(CELL, i, COLD);
            }
            // Nobody reads a halo before its neighbour has initialised it.
            win.fence(Win.MODE_NOPRECEDE);

            for (int step = 0; step < steps; step++)
            {
                final long readBase = (long)(step % 2) * cells;
                final long writeBase = (long)((step + 1) % 2) * cells;
                // The halo: the left neighbour's last cell and the right neighbour's first, read in place.
                final double leftHalo = left == null ? HOT : left.getAtIndex(CELL, readBase + cells - 1);
                final double rightHalo = right == null ? COLD : right.getAtIndex(CELL, readBase);
                for (int i = 0; i < cells; i++)
                {
                    final double before = i == 0 ? leftHalo : own.getAtIndex(CELL, readBase + i - 1);
                    final double here = own.getAtIndex(CELL, readBase + i);
                    final double after = i == cells - 1 ? rightHalo : own.getAtIndex(CELL, readBase + i + 1);
                    own.setAtIndex(CELL, writeBase + i, next(before, here, after));
                }
                // Every rank's new generation is visible to every rank after this.
                win.fence(0);
            }

            if (rank == 0)
            {
                print(win, size, cells, steps);
            }
            // free is collective: no segment disappears while rank 0 still reads it.
        }
        MPI.Finalize();
    }

    /** One cell's next temperature; the test's serial reference calls this too, so both round alike. */
    public static double next(final double before, final double here, final double after)
    {
        return here + ALPHA * (before - 2 * here + after);
    }

    private static void print(final Win win, final int size, final int cells, final int steps)
    {
        final long resultBase = (long)(steps % 2) * cells;
        System.out.printf(Locale.ROOT, "1-D heat diffusion: %d cells on %d ranks, %d steps, alpha %.2f, " +
            "left end %.1f, right end %.1f%n", size * cells, size, steps, ALPHA, HOT, COLD);
        double total = 0;
        for (int owner = 0; owner < size; owner++)
        {
            final MemorySegment segment = win.sharedQuery(owner).memory();
            for (int i = 0; i < cells; i++)
            {
                final double temperature = segment.getAtIndex(CELL, resultBase + i);
                total += temperature;
                System.out.printf(Locale.ROOT, "cell %3d (rank %d) %8.4f |%s%n", owner * cells + i, owner,
                    temperature, "#".repeat((int)Math.round(temperature / BAR_DEGREES_PER_MARK)));
            }
        }
        System.out.printf(Locale.ROOT, "mean temperature %.4f%n", total / (size * cells));
    }
}
