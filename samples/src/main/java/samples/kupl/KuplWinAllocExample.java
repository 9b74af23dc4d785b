package samples.kupl;

import static kupl.Kupl.KUPL_OK;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import kupl.Kupl;
import kupl.OobCallbacks;
import kupl.ShmComm;
import kupl.ShmWin;
import mpi.Intracomm;
import mpi.MPI;

/**
 * The example of KUPL's {@code kupl_shm_win_alloc} page, line by line: create, query and
 * free a kupl window. Rank 0 fills its segment with 0, 1, 2, 3; every other rank queries
 * rank 0's segment, copies it into its own and prints {@code check success} (or
 * {@code check fail}). On 4 ranks that is three lines of {@code check success}.
 *
 * <p>One change to the C code: a {@code kupl_shm_fence} between rank 0's stores and the
 * other ranks' copies. The C example has none, so a rank that copies before rank 0 has
 * written sees zeros and prints {@code check fail}: a data race that KUPL's page, which
 * shows only the happy output, does not mention.
 *
 * <p>Run it on 4 ranks in MPJ Express's multicore mode (ranks are threads of one JVM),
 * from the repository root: {@code bin/sample KuplWinAllocExample}.
 */
public final class KuplWinAllocExample
{
    private KuplWinAllocExample()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}.
     */
    public static void main(final String[] args)
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
        // Allocate the shared memory
        final ShmWin[] win = new ShmWin[1];
        final MemorySegment[] localBuffer = new MemorySegment[1];
        final int count = 4;
        final long bufSize = count * ValueLayout.JAVA_INT.byteSize();
        ret = Kupl.shmWinAlloc(bufSize, kuplComm[0], localBuffer, win);
        if (ret != KUPL_OK)
        {
            System.err.println("kupl shm win alloc failed: " + ret);
            System.exit(-1);
        }
        // Rank 0 fills its own buffer
        if (worldRank == 0)
        {
            for (int i = 0; i < count; i++)
            {
                localBuffer[0].setAtIndex(ValueLayout.JAVA_INT, i, i);
            }
        }
        // Not in the C example: make rank 0's stores visible before anyone copies them (see the class doc)
        ret = Kupl.shmFence(win[0]);
        if (ret != KUPL_OK)
        {
            System.err.println("kupl shm fence failed: " + ret);
            System.exit(-1);
        }
        // Every other rank gets rank 0's buffer and copies it (memcpy)
        if (worldRank != 0)
        {
            final MemorySegment[] remoteBuffer = new MemorySegment[1];
            final int remoteRank = 0;
            Kupl.shmWinQuery(win[0], remoteRank, remoteBuffer);
            MemorySegment.copy(remoteBuffer[0], 0, localBuffer[0], 0, bufSize);
            // Check that the copy succeeded
            boolean check = true;
            for (int i = 0; i < count; i++)
            {
                if (localBuffer[0].getAtIndex(ValueLayout.JAVA_INT, i) != i)
                {
                    check = false;
                    break;
                }
            }
            if (check)
            {
                System.out.println("check success");
            }
            else
            {
                System.out.println("check fail");
            }
        }
        // Free the shared memory
        Kupl.shmWinFree(win[0]);
        // Destroy the kupl comm
        Kupl.shmCommDestroy(kuplComm[0]);
        MPI.Finalize();
    }
}
