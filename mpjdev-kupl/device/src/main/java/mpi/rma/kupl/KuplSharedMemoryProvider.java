package mpi.rma.kupl;

import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

import kupl.KuplException;
import kupl.PeerDeathException;
import kupl.ShmComm;
import kupl.ShmWin;
import mpi.Intracomm;
import mpi.rma.ErrorClass;
import mpi.rma.spi.SharedMemory;
import mpi.rma.spi.SharedMemoryProvider;

/**
 * Backs {@code mpi.rma.Win} with the KUPL engine: one engine comm per MPJ Express communicator,
 * built the first time a window is allocated on it (over the communicator's Allgather and
 * Barrier) and kept for the communicator's life; one engine window per MPI window. The engine's
 * settings come from the {@code KUPL_SHM_*} environment variables.
 *
 * <p>A process that dies during any of these steps is {@code ERR_PROC_FAILED} naming its rank,
 * found as a {@link PeerDeathException} in the cause chain: the engine's own, or the shm device's
 * under MPJ Express's exception ({@link KuplFailures}).
 */
public final class KuplSharedMemoryProvider implements SharedMemoryProvider
{
    private final Map<Intracomm, ShmComm> comms = new WeakHashMap<>();

    @Override
    public String name()
    {
        return "kupl";
    }

    /**
     * The number of the memory the engine comm keeps from its last freed window (0 if none): with
     * every process's number in hand, an allocation that fits needs no exchange of its own.
     */
    @Override
    public long allocationToken(final Intracomm comm)
    {
        final ShmComm shmComm = existingCommOf(comm);
        return shmComm == null ? 0 : shmComm.keptMemoryId();
    }

    @Override
    public SharedMemory allocate(final Intracomm comm, final long[] sizes, final boolean contiguous)
    {
        return allocate(comm, sizes, contiguous, new long[sizes.length]);
    }

    @Override
    public SharedMemory allocate(final Intracomm comm, final long[] sizes, final boolean contiguous,
        final long[] tokens)
    {
        final ShmComm shmComm = commOf(comm);
        final ShmWin win;
        try
        {
            win = shmComm.allocate(sizes, contiguous, tokens);
        }
        catch (final KuplException e)
        {
            // Arguments and node were agreed before: what is left is a dead process or the node's memory (tmpfs,
            // huge pages, ...).
            throw KuplFailures.toRmaException(e, "Win.allocateShared", ErrorClass.ERR_NO_MEM,
                "the node cannot provide the window's memory");
        }
        return new KuplSharedMemory(win);
    }

    @Override
    public Optional<String> processFailure(final Throwable failure)
    {
        return PeerDeathException.in(failure).map(Throwable::getMessage);
    }

    private synchronized ShmComm existingCommOf(final Intracomm comm)
    {
        final ShmComm existing = comms.get(comm);
        return existing == null || existing.isDestroyed() ? null : existing;
    }

    private synchronized ShmComm commOf(final Intracomm comm)
    {
        final ShmComm cached = existingCommOf(comm);
        if (cached != null)
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
            throw KuplFailures.toRmaException(e, "Win.allocateShared", ErrorClass.ERR_RMA_SHARED,
                "the processes cannot share memory");
        }
        comms.put(comm, created);
        return created;
    }
}
