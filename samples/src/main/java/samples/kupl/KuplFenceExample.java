package samples.kupl;

import static kupl.Kupl.KUPL_OK;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import kupl.Kupl;
import kupl.OobCallbacks;
import kupl.ShmComm;
import kupl.ShmWin;
import mpi.Intracomm;
import mpi.MPI;
import samples.FenceReport;

/**
 * The example of KUPL's {@code kupl_shm_fence} page, line by line: every rank owns one
 * counter in a kupl window and, {@value #ITERS} times, increments it and fences; odd ranks
 * then sleep 100 us, even ranks 10 ms.
 *
 * <p>The C example prints nothing. This port prints, per rank and iteration, what that rank
 * sees: its own counter before the fence, how long it waited in the fence, and every rank's
 * counter read through {@code kupl_shm_win_query} right after it. The fence promises that
 * every rank's increment of this iteration is visible then, so every counter is at least
 * iteration + 1 ("fence ok"); a rank that left the fence earlier may already have counted
 * on, one more at most, as it cannot pass the next fence alone. From iteration 1 on the odd
 * ranks, back from their short sleep first, wait about 10 ms in the fence for the even ones.
 * At the end every rank's counter is {@value #ITERS}.
 *
 * <p>Run it on 4 ranks in MPJ Express's multicore mode (ranks are threads of one JVM),
 * from the repository root: {@code bin/sample KuplFenceExample};
 * {@code KUPL_SHM_FENCE_ALGORITHM=1 bin/sample KuplFenceExample} uses the linear fence instead of
 * recursive doubling.
 */
public final class KuplFenceExample
{
    /** Increments and fences per rank. */
    public static final int ITERS = 5;

    private KuplFenceExample()
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
        // Initialise the MPI environment
        MPI.Init(args);
        final Intracomm comm = MPI.COMM_WORLD;
        // Get the size of the MPI communicator
        final int worldSize = comm.Size();
        // Get this process's rank
        final int worldRank = comm.Rank();
        // Get this process's pid
        final long pid = ProcessHandle.current().pid();
        // Create the kupl comm
        final OobCallbacks oobCbs = new MpiOobCallbacks();
        final ShmComm[] kuplComm = new ShmComm[1];
        int ret = Kupl.shmCommCreate(worldSize, worldRank, pid, oobCbs, comm, kuplComm);
        if (ret != KUPL_OK || kuplComm[0] == null)
        {
            System.err.println("kupl shm comm create failed: " + ret);
            // C's main returns -1 here: end this process with that status.
            System.exit(-1);
        }
        // Allocate one int of shared memory per rank: its counter
        final ShmWin[] win = new ShmWin[1];
        final MemorySegment[] baseptr = new MemorySegment[1];
        final long bufsize = ValueLayout.JAVA_INT.byteSize();
        ret = Kupl.shmWinAlloc(bufsize, kuplComm[0], baseptr, win);
        if (ret != KUPL_OK)
        {
            System.err.println("kupl baseptr alloc failed: " + ret);
            System.exit(-1);
        }
        // Not in the C example: every rank's counter, queried once, as a window's segments stay where they are
        final MemorySegment[] counters = new MemorySegment[worldSize];
        for (int rank = 0; rank < worldSize; rank++)
        {
            final MemorySegment[] query = new MemorySegment[1];
            ret = Kupl.shmWinQuery(win[0], rank, query);
            if (ret != KUPL_OK)
            {
                System.err.println("kupl shm win query failed: " + ret);
                System.exit(-1);
            }
            counters[rank] = query[0];
        }
        final int[] seen = new int[worldSize];

        // Start the own counter at 0
        baseptr[0].set(ValueLayout.JAVA_INT, 0, 0);
        for (int i = 0; i < ITERS; i++)
        {
            // Count one up, then wait in the fence until every rank has done the same
            baseptr[0].set(ValueLayout.JAVA_INT, 0, baseptr[0].get(ValueLayout.JAVA_INT, 0) + 1);
            final int own = baseptr[0].get(ValueLayout.JAVA_INT, 0);
            final long fenceStartNs = System.nanoTime();
            ret = Kupl.shmFence(win[0]);
            final long fenceWaitNs = System.nanoTime() - fenceStartNs;
            if (ret != KUPL_OK)
            {
                System.err.println("kupl shm fence failed: " + ret);
                System.exit(-1);
            }
            // Read every counter at once, before printing: the fast ranks count on 100 us after the fence.
            for (int rank = 0; rank < worldSize; rank++)
            {
                seen[rank] = counters[rank].get(ValueLayout.JAVA_INT, 0);
            }
            System.out.println(FenceReport.line(worldRank, i, own, fenceWaitNs, seen));
            // Odd ranks sleep 100 us, even ranks 10 ms: the odd ones reach the next fence first and wait there
            if ((worldRank & 1) == 1)
            {
                TimeUnit.MICROSECONDS.sleep(100);
            }
            else
            {
                TimeUnit.MICROSECONDS.sleep(10_000);
            }
        }
        System.out.println(FenceReport.finalLine(worldRank, baseptr[0].get(ValueLayout.JAVA_INT, 0)));
        // Free the window, then destroy the kupl comm
        Kupl.shmWinFree(win[0]);
        Kupl.shmCommDestroy(kuplComm[0]);
        MPI.Finalize();
    }
}
