package mpi.rma.kupl;

import java.util.Map;
import java.util.WeakHashMap;

import kupl.KuplException;
import kupl.ShmComm;
import kupl.ShmWin;
import mpi.Intracomm;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.SharedMemory;
import mpi.rma.spi.SharedMemoryProvider;

/**
 * Backs {@code mpi.rma.Win} with the KUPL engine: one engine comm per MPJ Express communicator,
 * built the first time a window is allocated on it (over the communicator's Allgather and
 * Barrier) and kept for the communicator's life; one engine window per MPI window. The engine's
 * settings come from the {@code KUPL_SHM_*} environment variables.
 */
public final class KuplSharedMemoryProvider implements SharedMemoryProvider
{
    private final Map<Intracomm, ShmComm> comms = new WeakHashMap<>();

    @Override
    public String name()
    {
        return "kupl";
    }

    @Override
    public SharedMemory allocate(final Intracomm comm, final long[] sizes, final boolean contiguous)
    {
        final ShmComm shmComm = commOf(comm);
        final ShmWin win;
        try
        {
            win = shmComm.allocate(sizes[comm.Rank()], contiguous);
        }
        catch (final KuplException e)
        {
            // Arguments and node were agreed before: what is left is the node's memory (tmpfs, huge pages, ...).
            throw new RmaException(ErrorClass.ERR_NO_MEM, "Win.allocateShared: the node cannot provide the window's " +
                "memory: " + e.getMessage(), e);
        }
        return new KuplSharedMemory(win);
    }

    private synchronized ShmComm commOf(final Intracomm comm)
    {
        final ShmComm cached = comms.get(comm);
        if (cached != null && !cached.isDestroyed())
        {
            return cached;
        }
        final ShmComm created;
        try
        {
            created = ShmComm.create(comm.Size(), comm.Rank(), ProcessHandle.current().pid(), new CommunicatorOob(), comm);
        }
        catch (final KuplException e)
        {
            throw new RmaException(ErrorClass.ERR_RMA_SHARED, "Win.allocateShared: the processes cannot share memory: " +
                e.getMessage(), e);
        }
        comms.put(comm, created);
        return created;
    }
}
