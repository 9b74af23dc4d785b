package xdev.shmdev.coll;

import kupl.ShmComm;
import kupl.ShmWin;
import mpi.Intracomm;
import mpi.MPIException;
import mpi.rma.kupl.CommunicatorOob;

/**
 * The shared-memory collectives of one MPJ Express intra-communicator: an engine comm over its ranks,
 * one window of staging slots ({@link StagingArea}), and one object per family of collectives.
 */
final class CommCollectives implements AutoCloseable
{
    private final ShmComm engineComm;
    private final StagingArea area;
    final Broadcast broadcast;
    final ShmReduce reduction;
    final Gathering gathering;

    private CommCollectives(final ShmComm engineComm, final StagingArea area)
    {
        this.engineComm = engineComm;
        this.area = area;
        final int rank = engineComm.rank();
        final int size = engineComm.size();
        this.broadcast = new Broadcast(area, rank, size);
        this.reduction = new ShmReduce(area, rank, size);
        this.gathering = new Gathering(area, rank, size);
    }

    /**
     * Builds them, collectively over {@code comm}, with MPJ Express's own {@code Allgather} and
     * {@code Barrier} on it as the engine's out-of-band transport (the caller makes those calls bypass the
     * shared-memory path). Fails on every rank alike (the engine agrees on failures).
     */
    static CommCollectives create(final Intracomm comm, final long capacityBytes) throws MPIException
    {
        final ShmComm engineComm = ShmComm.create(comm.Size(), comm.Rank(), ProcessHandle.current().pid(),
            new CommunicatorOob(), comm);
        try
        {
            final ShmWin win = engineComm.allocate(StagingArea.segmentBytes(capacityBytes), false);
            return new CommCollectives(engineComm, new StagingArea(win, capacityBytes));
        }
        catch (final RuntimeException e)
        {
            engineComm.close();
            throw e;
        }
    }

    /** {@code Barrier}: the engine's fence. */
    void barrier()
    {
        area.fence();
    }

    /** Frees the window and the engine comm; collective. */
    @Override
    public void close()
    {
        try
        {
            area.close();
        }
        finally
        {
            engineComm.close();
        }
    }
}
