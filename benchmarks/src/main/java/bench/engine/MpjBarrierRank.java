package bench.engine;

import bench.harness.Samples;
import mpi.MPI;

/**
 * One rank of the reference: MPJ Express's {@code MPI.COMM_WORLD.Barrier()}, timed exactly
 * as {@link FenceRank} times the engine's fence. Started by {@link EngineBenchmark} through
 * MPJ Express's starter in multicore mode, where every rank is a thread of one JVM with its
 * own class loader for {@code mpi.*} (and for this class).
 *
 * <p>In multicore mode a rank's {@code main} receives {@code {rank, processes, "smpdev",
 * appArgs...}}; {@code MPI.Init} strips the first three and returns the rest:
 * warmupMs, repetitions, repetitionTargetNs; the warm-up runs for warmupMs by rank 0's clock (its
 * decision broadcast after each batch), as FenceRank's does.
 */
public final class MpjBarrierRank
{
    private static final long FIRST_BATCH = 100;
    private static final long LAST_BATCH = 10_000;

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final long warmupNs = Long.parseLong(appArgs[0]) * 1_000_000L;
        final int repetitions = Integer.parseInt(appArgs[1]);
        final long repetitionTargetNs = Long.parseLong(appArgs[2]);
        final int rank = MPI.COMM_WORLD.Rank();

        final long startNs = System.nanoTime();
        final int[] more = {1};
        for (long batch = FIRST_BATCH; more[0] != 0; batch = Math.min(batch * 2, LAST_BATCH))
        {
            timeBarriers(batch);
            more[0] = System.nanoTime() - startNs < warmupNs ? 1 : 0;
            MPI.COMM_WORLD.Bcast(more, 0, 1, MPI.INT, 0);
        }

        // Sized as FenceRank sizes a repetition; every rank must run the same number of
        // barriers: rank 0 decides and broadcasts.
        final long[] barriers = {FIRST_BATCH};
        for (int sizing = 0; sizing < 2; sizing++)
        {
            final long elapsedNs = timeBarriers(barriers[0]);
            barriers[0] = Samples.opsPerRepetition(repetitionTargetNs, barriers[0], elapsedNs);
            MPI.COMM_WORLD.Bcast(barriers, 0, 1, MPI.LONG, 0);
        }

        final double[] nsPerBarrier = new double[repetitions];
        for (int repetition = 0; repetition < repetitions; repetition++)
        {
            nsPerBarrier[repetition] = (double)timeBarriers(barriers[0]) / barriers[0];
        }
        Samples.print("barrier", rank, barriers[0], nsPerBarrier);
        MPI.Finalize();
    }

    private static long timeBarriers(final long barriers) throws Exception
    {
        final long startNs = System.nanoTime();
        for (long i = 0; i < barriers; i++)
        {
            MPI.COMM_WORLD.Barrier();
        }
        return System.nanoTime() - startNs;
    }
}
