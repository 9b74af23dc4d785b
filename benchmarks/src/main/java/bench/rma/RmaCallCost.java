package bench.rma;

import java.lang.management.ManagementFactory;
import java.util.Locale;

import bench.harness.Stat;
import mpi.MPI;
import mpi.rma.Win;

/**
 * What one put, get, accumulate or flush of 8 bytes costs, and how many bytes it allocates, when the
 * JIT cannot inline it into the caller's loop: the calls go through one call site that sees four
 * lambdas (as in a program that chooses its operation at run time), on an {@code allocateShared}
 * window, each process to itself inside {@code lockAll}. Rank 0 prints a table, the median of 5 rounds
 * of {@value #CALLS} calls after 10 untimed ones; allocation is the thread's own counter
 * ({@code com.sun.management.ThreadMXBean}). Run with one process:
 * {@code bin/mpjrun -np 1 -dev shm -cp benchmarks/target/classes bench.rma.RmaCallCost}.
 */
public final class RmaCallCost
{
    static final int CALLS = 200_000;
    private static final int ROUNDS = 5;
    private static final int WARM_UP_ROUNDS = 10;

    /** One call under test. */
    private interface Call
    {
        void run(Win win, long[] value, int self);
    }

    private RmaCallCost()
    {
    }

    public static void main(final String[] args)
    {
        MPI.Init(args);
        final var threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final String[] names = {"put + flush", "put", "get", "accumulate (SUM)", "flush"};
        final Call[] calls = {
            (win, value, self) ->
            {
                win.put(value, 0, 1, MPI.LONG, self, 0, 1, MPI.LONG);
                win.flush(self);
            },
            (win, value, self) -> win.put(value, 0, 1, MPI.LONG, self, 0, 1, MPI.LONG),
            (win, value, self) -> win.get(value, 0, 1, MPI.LONG, self, 0, 1, MPI.LONG),
            (win, value, self) -> win.accumulate(value, 0, 1, MPI.LONG, self, 0, 1, MPI.LONG, MPI.SUM),
            (win, value, self) -> win.flush(self)};
        // Each process to itself: one process is the measurement, more only repeat it side by side.
        try (Win win = Win.allocateShared(Long.BYTES, Long.BYTES, null, MPI.COMM_WORLD))
        {
            final long[] value = {1};
            final int self = MPI.COMM_WORLD.Rank();
            final double[][] nanos = new double[calls.length][ROUNDS];
            final double[][] bytes = new double[calls.length][ROUNDS];
            win.lockAll(0);
            for (int round = -WARM_UP_ROUNDS; round < ROUNDS; round++)
            {
                for (int k = 0; k < calls.length; k++)
                {
                    final long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
                    final long start = System.nanoTime();
                    for (int i = 0; i < CALLS; i++)
                    {
                        calls[k].run(win, value, self);
                    }
                    final long elapsed = System.nanoTime() - start;
                    final long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
                    if (round >= 0)
                    {
                        nanos[k][round] = (double)elapsed / CALLS;
                        bytes[k][round] = (double)allocated / CALLS;
                    }
                }
            }
            win.unlockAll();
            if (MPI.COMM_WORLD.Rank() == 0)
            {
                System.out.println("| call, 8 B, not inlined | ns per call, median (min-max) | bytes allocated per call, " +
                    "median |");
                System.out.println("|---|---|---|");
                for (int k = 0; k < calls.length; k++)
                {
                    System.out.printf(Locale.ROOT, "| %s | %.1f (%.1f-%.1f) | %.1f |%n", names[k],
                        Stat.median(nanos[k]), Stat.min(nanos[k]), Stat.max(nanos[k]),
                        Stat.median(bytes[k]));
                }
            }
        }
        MPI.Finalize();
    }
}
