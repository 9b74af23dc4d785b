package bench.jvm;

import java.util.Locale;

import mpi.MPI;

/**
 * How a fresh job warms up: from the first {@code Barrier} on, {@code blocks} blocks of 1000
 * {@code Barrier}s, each timed. Rank 0 prints one line: the milliseconds from the launch (the
 * launcher's clock, given as the first argument, in ms since the epoch) to the end of
 * {@code MPI.Init} and of the first {@code Barrier}, then the microseconds per {@code Barrier} of
 * each block and the milliseconds since the launch at its end. An ordinary MPJ Express program.
 *
 * <pre>bin/mpjrun -np 4 -dev shm -cp benchmarks/target/classes bench.jvm.BarrierWarmup $(date +%s%3N) [blocks]</pre>
 * prints {@code barrier-warmup init-ms=812 first-ms=840 blocks=us@ms: 60.2@900 41.0@941 ... 2.1@3050}
 */
public final class BarrierWarmup
{
    /** What the line rank 0 prints starts with. */
    static final String PREFIX = "barrier-warmup";
    /** Barriers per timed block. */
    static final int BLOCK = 1000;

    private BarrierWarmup()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final long initMs = System.currentTimeMillis();
        final long launchMs = Long.parseLong(appArgs[0]);
        final int blocks = appArgs.length > 1 ? Integer.parseInt(appArgs[1]) : 60;
        MPI.COMM_WORLD.Barrier();
        final long firstMs = System.currentTimeMillis();
        final double[] usPerBarrier = new double[blocks];
        final long[] endMs = new long[blocks];
        for (int block = 0; block < blocks; block++)
        {
            final long startNs = System.nanoTime();
            for (int i = 0; i < BLOCK; i++)
            {
                MPI.COMM_WORLD.Barrier();
            }
            usPerBarrier[block] = (System.nanoTime() - startNs) / 1e3 / BLOCK;
            endMs[block] = System.currentTimeMillis();
        }
        if (MPI.COMM_WORLD.Rank() == 0)
        {
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s init-ms=%d first-ms=%d " +
                "blocks=us@ms:", PREFIX, initMs - launchMs, firstMs - launchMs));
            for (int block = 0; block < blocks; block++)
            {
                line.append(String.format(Locale.ROOT, " %.1f@%d", usPerBarrier[block], endMs[block] - launchMs));
            }
            System.out.println(line);
        }
        MPI.Finalize();
    }
}
