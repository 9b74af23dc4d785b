package samples.rma;

import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.SplittableRandom;

import mpi.MPI;
import mpi.rma.Win;

/**
 * Monte Carlo estimate of pi with one shared counter: every rank throws darts at the unit
 * square and, after each batch, adds its hits inside the quarter circle to a counter in rank 0's
 * segment with {@link Win#accumulate} ({@code MPI.SUM}). pi is about 4 x hits / darts.
 *
 * <p>What it shows: many ranks update one memory word at the same time. A plain load, add and
 * store would lose updates when two ranks interleave; {@code accumulate} is atomic per element,
 * so none is lost. Only rank 0's segment has memory (8 bytes); the others ask for 0 bytes:
 * sizes may differ between ranks. The fences open and close the epoch in which the accumulates
 * happen, with assertions that tell MPI what did not happen before or after them.
 *
 * <p>The window is {@link Win#allocate}'s: memory from the library. On one node that is shared
 * memory, exactly as {@code allocateShared} gives, and the accumulates are atomic operations on it;
 * on several nodes the ranks of other nodes reach the counter by messages, so the same program runs
 * across nodes too (with {@code allocateShared} it would stop at the node: MPI_ERR_RMA_SHARED):
 * {@code bin/mpjrun -np 4 -dev niodev -nodes 2 -cp samples/target/classes samples.rma.MonteCarloPi}.
 *
 * <p>Rank r draws from {@code new SplittableRandom(SEED + r)}, so a run is reproducible.
 * Run: {@code bin/sample MonteCarloPi [dartsPerRank [dartsPerBatch]]} (defaults
 * {@value #DEFAULT_DARTS_PER_RANK} and {@value #DEFAULT_DARTS_PER_BATCH}, on 4 ranks).
 */
public final class MonteCarloPi
{
    /** Rank r's random numbers start from SEED + r. */
    public static final long SEED = 20_260_101L;
    public static final int DEFAULT_DARTS_PER_RANK = 200_000;
    public static final int DEFAULT_DARTS_PER_BATCH = 10_000;

    private MonteCarloPi()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}; then optionally darts per
     *             rank and darts per batch.
     */
    public static void main(final String[] args)
    {
        final String[] appArgs = MPI.Init(args);
        final int darts = SampleArgs.positive(appArgs, 0, "dartsPerRank", DEFAULT_DARTS_PER_RANK);
        final int batch = SampleArgs.positive(appArgs, 1, "dartsPerBatch", DEFAULT_DARTS_PER_BATCH);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();

        // The counter: one long on rank 0, nothing on the others.
        final long counterBytes = rank == 0 ? Long.BYTES : 0;
        try (Win win = Win.allocate(counterBytes, Long.BYTES, null, MPI.COMM_WORLD))
        {
            // Rank 0 clears the counter before anyone adds to it (memory that MPI allocates starts undefined).
            if (rank == 0)
            {
                win.base().set(ValueLayout.JAVA_LONG, 0, 0L);
            }
            // Opens the epoch of the accumulates; NOPRECEDE: there were no RMA calls before it.
            win.fence(Win.MODE_NOPRECEDE);

            final SplittableRandom random = new SplittableRandom(SEED + rank);
            long ownHits = 0;
            int accumulates = 0;
            for (int thrown = 0; thrown < darts; thrown += batch)
            {
                final long hits = hitsOf(random, Math.min(batch, darts - thrown));
                ownHits += hits;
                // counter += hits, atomically, in rank 0's segment at displacement 0.
                win.accumulate(new long[] {hits}, 0, 1, MPI.LONG, 0, 0, 1, MPI.LONG, MPI.SUM);
                accumulates++;
            }
            System.out.printf(Locale.ROOT, "rank %d: %d hits of %d darts, added in %d accumulates%n", rank, ownHits,
                darts, accumulates);

            // Closes the epoch: every accumulate is complete and visible after it; NOSUCCEED: no RMA follows.
            win.fence(Win.MODE_NOSUCCEED);
            if (rank == 0)
            {
                final long total = win.base().get(ValueLayout.JAVA_LONG, 0);
                final long allDarts = (long)darts * size;
                System.out.printf(Locale.ROOT, "total: %d hits of %d darts on %d ranks: pi is about %.6f " +
                    "(error %.6f)%n", total, allDarts, size, estimate(total, allDarts),
                    estimate(total, allDarts) - Math.PI);
            }
        }
        MPI.Finalize();
    }

    /** Throws {@code darts} darts at the unit square and counts those inside the quarter circle. */
    public static long hitsOf(final SplittableRandom random, final int darts)
    {
        long hits = 0;
        for (int i = 0; i < darts; i++)
        {
            final double x = random.nextDouble();
            final double y = random.nextDouble();
            if (x * x + y * y <= 1.0)
            {
                hits++;
            }
        }
        return hits;
    }

    /** 4 x hits / darts: the quarter circle covers pi/4 of the unit square. */
    public static double estimate(final long hits, final long darts)
    {
        return 4.0 * hits / darts;
    }
}
