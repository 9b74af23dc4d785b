package mpi.rma.kupl;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

import kupl.KuplException;
import kupl.ShmWin;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.SharedMemory;

/**
 * One MPI window's memory: an engine window, with the engine's failures as MPI errors (a dead
 * process as ERR_PROC_FAILED, see {@link KuplFailures}). The engine watches the window's processes
 * ({@link ShmWin#watchProcesses}) for as long as the window lives.
 */
final class KuplSharedMemory implements SharedMemory
{
    private final ShmWin win;

    KuplSharedMemory(final ShmWin win)
    {
        this.win = win;
        // The window's calls may never wait (see checkProcesses): a watch finds deaths for them within an interval.
        win.watchProcesses();
    }

    @Override
    public MemorySegment segment(final int rank)
    {
        return win.segment(rank);
    }

    @Override
    public MemorySegment clientArea()
    {
        return win.clientArea();
    }

    @Override
    public void fence()
    {
        try
        {
            win.fence();
        }
        catch (final KuplException e)
        {
            throw failed("Win.fence", e);
        }
    }

    @Override
    public void awaitCondition(final BooleanSupplier condition, final String what)
    {
        try
        {
            win.awaitCondition(condition, what);
        }
        catch (final KuplException e)
        {
            throw failed("waiting for " + what, e);
        }
    }

    @Override
    public void checkProcesses(final String call)
    {
        try
        {
            win.checkProcesses(call);
        }
        catch (final KuplException e)
        {
            throw failed(call, e);
        }
    }

    @Override
    public void free()
    {
        try
        {
            // Win.free has just fenced every process: a second wait, the engine's, would only add its cost.
            win.closeWithoutWaiting();
        }
        catch (final KuplException e)
        {
            throw failed("Win.free", e);
        }
    }

    private static RmaException failed(final String what, final KuplException e)
    {
        return KuplFailures.toRmaException(e, what, ErrorClass.ERR_OTHER, null);
    }
}
