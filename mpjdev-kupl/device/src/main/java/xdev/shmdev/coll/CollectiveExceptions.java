package xdev.shmdev.coll;

import mpi.MPIException;
import xdev.XDevException;

/**
 * A collective through shared memory fails as MPJ Express's own collectives fail on the device: with an
 * {@link MPIException} whose cause is the device's {@link XDevException}, and below it what the engine threw
 * (a {@code kupl.PeerDeathException} naming the rank that died, found by {@code PeerDeathException.in}).
 * Programs then catch one family of exceptions whichever path ran the call.
 */
final class CollectiveExceptions
{
    private CollectiveExceptions()
    {
    }

    /**
     * MPJ Express's exception for {@code failure} in {@code call} ("the shared-memory Barrier"): the device's
     * failure as it is, the engine's under a device exception that names the call.
     */
    static MPIException of(final String call, final RuntimeException failure)
    {
        if (failure instanceof MPIException mpj)
        {
            return mpj;
        }
        final XDevException device;
        if (failure instanceof XDevException own)
        {
            device = own;
        }
        else
        {
            device = new XDevException("shm device: " + call + " failed: " + failure.getMessage());
            device.initCause(failure);
        }
        return new MPIException(device);
    }
}
