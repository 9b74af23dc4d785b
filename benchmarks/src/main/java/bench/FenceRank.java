package bench;

import java.lang.foreign.ValueLayout;

import kupl.ShmComm;
import kupl.ShmWin;
import kupl.bootstrap.SocketOob;

/**
 * One process of the fence benchmark, started by {@link EngineBenchmark} through
 * {@code kupl.bootstrap.LocalJob} with {@code KUPL_SHM_FENCE_ALGORITHM} set in its environment.
 *
 * <ol>
 *   <li>allocates a one-word window;</li>
 *   <li>warms up with {@code warmupFences} fences;</li>
 *   <li>sizes a repetition to last about {@code repetitionTargetNs}: rank 0 times half as many
 *   fences, then one unmeasured repetition of the size this suggests, and publishes each size
 *   through its segment (read after a fence);</li>
 *   <li>runs {@code repetitions} measured repetitions;</li>
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
            for (int i = 0; i < warmupFences; i++)
            {
                win.fence();
            }

            // Size a repetition twice: from a short timed run, then from one unmeasured repetition
            // of that size, since the first estimate may still include JIT compilation. Every
            // process must run the same number of fences: rank 0 decides, a fence publishes.
            long fencesPerRepetition = Math.max(100, warmupFences / 2);
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
