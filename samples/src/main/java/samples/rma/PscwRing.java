package samples.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

import mpi.Group;
import mpi.MPI;
import mpi.rma.Win;

/**
 * A ring exchange with generalized active-target synchronisation (post, start, complete, wait:
 * MPI-4.1 section 12.5.2): every rank starts with a block of numbers of its own, and in each of
 * size - 1 steps puts the block it holds into its right neighbour's window while its left neighbour
 * puts one into its own. After the last step every block has visited every rank, and each rank has
 * summed them all: an allreduce made of one-sided puts.
 *
 * <p>What it shows: unlike a fence, which every process of the window joins, post/start/complete/wait
 * synchronise only the processes that talk to each other. Each rank exposes its window to its left
 * neighbour alone ({@code post}), opens an access epoch to its right neighbour alone ({@code start}),
 * puts, ends the access ({@code complete}) and waits until its left neighbour's put has arrived
 * ({@code waitFor}, MPI's {@code MPI_Win_wait}). Within a node the synchronisation is a flag word in
 * shared memory; across nodes a message. The window comes from {@link Win#allocate}, so it works on
 * one node or several.
 *
 * <p>Rank r's block holds {@code r * blockSize + i} in element i, so the sum of element i over the
 * ring is {@code blockSize * size (size - 1) / 2 + size * i}. Run:
 * {@code bin/sample PscwRing [blockSize [rounds]]} (defaults {@value #DEFAULT_BLOCK} and
 * {@value #DEFAULT_ROUNDS}: the whole ring is run that many times, the sums printed once).
 */
public final class PscwRing
{
    public static final int DEFAULT_BLOCK = 1000;
    public static final int DEFAULT_ROUNDS = 1;

    private PscwRing()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}; then optionally the block size
     *             and the number of rounds of the ring.
     */
    public static void main(final String[] args)
    {
        final String[] appArgs = MPI.Init(args);
        final int block = SampleArgs.positive(appArgs, 0, "blockSize", DEFAULT_BLOCK);
        final int rounds = SampleArgs.positive(appArgs, 1, "rounds", DEFAULT_ROUNDS);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final int left = (rank + size - 1) % size;
        final int right = (rank + 1) % size;

        try (Win win = Win.allocate((long)block * Double.BYTES, Double.BYTES, null, MPI.COMM_WORLD))
        {
            // The groups of the two epochs: one neighbour each, made once and used every step.
            final Group fromLeft = win.getGroup().Incl(new int[] {left});
            final Group toRight = win.getGroup().Incl(new int[] {right});
            final MemorySegment incoming = win.base();
            final double[] held = new double[block];
            final double[] sums = new double[block];
            long steps = 0;
            for (int round = 0; round < rounds; round++)
            {
                for (int i = 0; i < block; i++)
                {
                    held[i] = (double)rank * block + i;
                    sums[i] = held[i];
                }
                for (int step = 1; step < size; step++)
                {
                    // My window may now receive the left neighbour's put (and I no longer read it).
                    win.post(fromLeft, 0);
                    // Returns once the right neighbour has posted: its window is ready for my put.
                    win.start(toRight, 0);
                    win.put(held, 0, block, MPI.DOUBLE, right, 0, block, MPI.DOUBLE);
                    // My put is done on my side; the right neighbour's wait will see it.
                    win.complete();
                    // Returns once the left neighbour has completed: its block is in my window.
                    win.waitFor();
                    MemorySegment.copy(incoming, ValueLayout.JAVA_DOUBLE, 0, held, 0, block);
                    for (int i = 0; i < block; i++)
                    {
                        sums[i] += held[i];
                    }
                    steps++;
                }
            }
            // The block held last came from the right neighbour (it went once round the ring, less one step).
            System.out.printf(Locale.ROOT, "rank %d: %d steps; now holds the block of rank %d; " +
                "sum of element 0 = %.1f, of element %d = %.1f%n", rank, steps, (long)held[0] / block, sums[0], block - 1, sums[block - 1]);
        }
        MPI.Finalize();
    }

    /** The sum over {@code size} ranks of element {@code i} of their blocks, as the ring computes it. */
    public static double expectedSum(final int size, final int block, final int i)
    {
        return (double)block * size * (size - 1) / 2 + (double)size * i;
    }
}
