package bench;

import mpi.MPI;

/**
 * One rank of the reference: MPJ Express's {@code MPI.COMM_WORLD.Barrier()}, timed exactly
 * as {@link FenceRank} times the engine's fence. Started by {@link EngineBenchmark} through
 * MPJ Express's starter in multicore mode, where every rank is a thread of one JVM with its
 * own class loader for {@code mpi.*} (and for this class).
 *
 * <p>In multicore mode a rank's {@code main} receives {@code {rank, processes, "smpdev",
 * appArgs...}}; {@code MPI.Init} strips the first three and returns the rest:
 * warmupBarriers, repetitions, repetitionTargetNs.
 */
public final class MpjBarrierRank
{
    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int warmupBarriers = Integer.parseInt(appArgs[0]);
        final int repetitions = Integer.parseInt(appArgs[1]);
        final long repetitionTargetNs = Long.parseLong(appArgs[2]);
        final int rank = MPI.COMM_WORLD.Rank();

        // Only the second half of the warm-up sizes a repetition: the first pays for JIT compilation.
        final int timedWarmup = warmupBarriers - warmupBarriers / 2;
        for (int i = 0; i < warmupBarriers / 2; i++)
        {
            MPI.COMM_WORLD.Barrier();
        }
        final long warmupStartNs = System.nanoTime();
        for (int i = 0; i < timedWarmup; i++)
        {
            MPI.COMM_WORLD.Barrier();
        }
        final long warmupNs = System.nanoTime() - warmupStartNs;

        // Every rank must run the same number of barriers: rank 0 decides and broadcasts.
        final long[] barriersPerRepetition = {Samples.opsPerRepetition(repetitionTargetNs, timedWarmup, warmupNs)};
        MPI.COMM_WORLD.Bcast(barriersPerRepetition, 0, 1, MPI.LONG, 0);
        final long barriers = barriersPerRepetition[0];

        final double[] nsPerBarrier = new double[repetitions];
        for (int repetition = -1; repetition < repetitions; repetition++)
        {
            final long startNs = System.nanoTime();
            for (long i = 0; i < barriers; i++)
            {
                MPI.COMM_WORLD.Barrier();
            }
            final long elapsedNs = System.nanoTime() - startNs;
            if (repetition >= 0)
            {
                nsPerBarrier[repetition] = (double)elapsedNs / barriers;
            }
        }
        Samples.print("barrier", rank, barriers, nsPerBarrier);
        MPI.Finalize();
    }
}
