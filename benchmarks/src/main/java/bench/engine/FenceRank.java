package bench.engine;

import java.lang.foreign.ValueLayout;

import bench.harness.Samples;
import kupl.ShmComm;
import kupl.ShmWin;
import kupl.bootstrap.SocketOob;

/**
 * One process of the fence benchmark, started by {@link EngineBenchmark} through
 * {@code mpjrun.process.EngineJob} with {@code KUPL_SHM_FENCE_ALGORITHM} set in its environment.
 *
 * <ol>
 *   <li>allocates a one-word window;</li>
 *   <li>warms up for {@code warmupMs} by rank 0's clock, in growing batches of fences (rank 0 publishes
 *   after each batch whether to go on), as the device's ranks warm up: a fixed count of fences was too
 *   short where a fence is fast (20,000 fences of 2 processes, about 15 ms, measured 0.65-0.77 us a fence
 *   afterwards, 0.26 us after 2,000,000);</li>
 *   <li>sizes a repetition to last about {@code repetitionTargetNs}: rank 0 times half as many
 *   fences, then one unmeasured repetition of the size this suggests, and publishes each size
 *   through its segment (read after a fence);</li>
 *   <li>runs {@code repetitions} measured repetitions;</li>
 *   <li>prints {@code bench fence rank=r ops=M ns/fence...} ({@link Samples}).</li>
 * </ol>
 *
 * Arguments: warmupMs, repetitions, repetitionTargetNs.
 */
public final class FenceRank
{
    /** Fences of the first warm-up batch, and of the first timed run that sizes a repetition. */
    private static final long FIRST_BATCH = 100;
    /** The most fences of one warm-up batch: rank 0 looks at its clock at least this often. */
    private static final long LAST_BATCH = 100_000;

    public static void main(final String[] args) throws Exception
    {
        final long warmupNs = Long.parseLong(args[0]) * 1_000_000L;
        final int repetitions = Integer.parseInt(args[1]);
        final long repetitionTargetNs = Long.parseLong(args[2]);

        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null);
            ShmWin win = comm.allocate(Long.BYTES, false))
        {
            final int rank = comm.rank();
            warmUp(win, rank, warmupNs);

            // Size a repetition twice: from a short timed run, then from one unmeasured repetition
            // of that size, since the first estimate may still include JIT compilation. Every
            // process must run the same number of fences: rank 0 decides, a fence publishes.
            long fencesPerRepetition = FIRST_BATCH;
            for (int sizing = 0; sizing < 2; sizing++)
            {
                final long elapsedNs = timeFences(win, fencesPerRepetition);
                if (rank == 0)
                {
                    win.base().set(ValueLayout.JAVA_LONG, 0,
                        Samples.opsPerRepetition(repetitionTargetNs, fencesPerRepetition, elapsedNs));
                }
                win.fence();
                fencesPerRepetition = win.segment(0).get(ValueLayout.JAVA_LONG, 0);
            }

            final double[] nsPerFence = new double[repetitions];
            for (int repetition = 0; repetition < repetitions; repetition++)
            {
                nsPerFence[repetition] = (double)timeFences(win, fencesPerRepetition) / fencesPerRepetition;
            }
            Samples.print("fence", rank, fencesPerRepetition, nsPerFence);
        }
    }

    /**
     * Runs fences in batches until rank 0 has seen {@code warmupNs} pass. Rank 0 writes its decision into its
     * word after a batch and a fence publishes it; it writes again only after the next batch's fences, which
     * no process enters before it has read the decision.
     */
    private static void warmUp(final ShmWin win, final int rank, final long warmupNs)
    {
        final long startNs = System.nanoTime();
        for (long batch = FIRST_BATCH; ; batch = Math.min(batch * 2, LAST_BATCH))
        {
            timeFences(win, batch);
            if (rank == 0)
            {
                win.base().set(ValueLayout.JAVA_LONG, 0, System.nanoTime() - startNs < warmupNs ? 1 : 0);
            }
            win.fence();
            if (win.segment(0).get(ValueLayout.JAVA_LONG, 0) == 0)
            {
                return;
            }
        }
    }

    private static long timeFences(final ShmWin win, final long fences)
    {
        final long startNs = System.nanoTime();
        for (long i = 0; i < fences; i++)
        {
            win.fence();
        }
        return System.nanoTime() - startNs;
    }
}
