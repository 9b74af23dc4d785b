package bench;

import java.lang.foreign.ValueLayout;

import kupl.ShmComm;
import kupl.ShmWin;
import kupl.local.SocketOob;

/**
 * One process of the fence benchmark, started by {@link EngineBenchmark} through
 * {@code kupl.local.LocalJob} with {@code KUPL_SHM_FENCE_ALGORITHM} set in its environment.
 *
 * <ol>
 *   <li>allocates a one-word window;</li>
 *   <li>warms up with {@code warmupFences} fences, the second half of which rank 0 times to size a
 *   repetition, and publishes that size through its segment (read after a fence);</li>
 *   <li>runs one unmeasured repetition, then {@code repetitions} measured ones;</li>
 *   <li>prints {@code bench fence rank=r ops=M ns/fence...} ({@link Samples}).</li>
 * </ol>
 *
 * Arguments: warmupFences, repetitions, repetitionTargetNs.
 */
public final class FenceRank
{
    public static void main(final String[] args) throws Exception
    {
        final int warmupFences = Integer.parseInt(args[0]);
        final int repetitions = Integer.parseInt(args[1]);
        final long repetitionTargetNs = Long.parseLong(args[2]);

        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null);
            ShmWin win = comm.allocate(Long.BYTES, false))
        {
            final int rank = comm.rank();

            // Only the second half of the warm-up sizes a repetition: the first pays for JIT compilation.
            final int timedWarmup = warmupFences - warmupFences / 2;
            for (int i = 0; i < warmupFences / 2; i++)
            {
                win.fence();
            }
            final long warmupStartNs = System.nanoTime();
            for (int i = 0; i < timedWarmup; i++)
            {
                win.fence();
            }
            final long warmupNs = System.nanoTime() - warmupStartNs;

            // Every process must run the same number of fences: rank 0 decides, the fence publishes.
            if (rank == 0)
            {
                win.base().set(ValueLayout.JAVA_LONG, 0,
                    Samples.opsPerRepetition(repetitionTargetNs, timedWarmup, warmupNs));
            }
            win.fence();
            final long fencesPerRepetition = win.segment(0).get(ValueLayout.JAVA_LONG, 0);

            final double[] nsPerFence = new double[repetitions];
            for (int repetition = -1; repetition < repetitions; repetition++)
            {
                final long startNs = System.nanoTime();
                for (long i = 0; i < fencesPerRepetition; i++)
                {
                    win.fence();
                }
                final long elapsedNs = System.nanoTime() - startNs;
                if (repetition >= 0)
                {
                    nsPerFence[repetition] = (double)elapsedNs / fencesPerRepetition;
                }
            }
            Samples.print("fence", rank, fencesPerRepetition, nsPerFence);
        }
    }
}
