package samples.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import mpi.MPI;
import mpi.rma.Win;
import samples.FenceReport;

/**
 * KUPL's {@code kupl_shm_fence} example, the MPI-3 way (side by side with
 * {@code samples.kupl.KuplFenceExample}, printing the same lines): every rank owns one counter
 * in a shared window and, {@value #ITERS} times, increments it and fences; then odd ranks sleep
 * 100 us and even ranks 10 ms, so the odd ones wait in the next fence for the even ones.
 *
 * <p>After each fence a rank reads every rank's counter straight from its segment: each one is at
 * least the iteration + 1 ({@code fence ok}). At the end every counter is {@value #ITERS}.
 *
 * <p>Run: {@code bin/sample FenceExample} (4 ranks; {@code -np N} for another number).
 */
public final class FenceExample
{
    /** Increments and fences per rank. */
    public static final int ITERS = 5;

    private FenceExample()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}.
     * @throws InterruptedException if a sleep between iterations is interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();

        // One int per rank: its counter.
        try (Win win = Win.allocateShared(Integer.BYTES, Integer.BYTES, null, MPI.COMM_WORLD))
        {
            final MemorySegment counter = win.base();
            // Every rank's counter, looked up once: a segment stays where it is until the window is freed.
            final MemorySegment[] counters = new MemorySegment[size];
            for (int peer = 0; peer < size; peer++)
            {
                counters[peer] = win.sharedQuery(peer).memory();
            }
            final int[] seen = new int[size];

            counter.set(ValueLayout.JAVA_INT, 0, 0);
            for (int i = 0; i < ITERS; i++)
            {
                // Count one up, then wait in the fence until every rank has done the same.
                counter.set(ValueLayout.JAVA_INT, 0, counter.get(ValueLayout.JAVA_INT, 0) + 1);
                final int own = counter.get(ValueLayout.JAVA_INT, 0);
                final long fenceStartNs = System.nanoTime();
                win.fence(0);
                final long fenceWaitNs = System.nanoTime() - fenceStartNs;
                // Read every counter at once, before printing: the fast ranks count on 100 us after the fence.
                for (int peer = 0; peer < size; peer++)
                {
                    seen[peer] = counters[peer].get(ValueLayout.JAVA_INT, 0);
                }
                System.out.println(FenceReport.line(rank, i, own, fenceWaitNs, seen));
                // Odd ranks sleep 100 us, even ranks 10 ms: the odd ones reach the next fence first and wait there.
                if ((rank & 1) == 1)
                {
                    TimeUnit.MICROSECONDS.sleep(100);
                }
                else
                {
                    TimeUnit.MICROSECONDS.sleep(10_000);
                }
            }
            System.out.println(FenceReport.finalLine(rank, counter.get(ValueLayout.JAVA_INT, 0)));
        }
        MPI.Finalize();
    }
}
