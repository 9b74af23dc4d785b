package mpi.rma.kupl;

import kupl.Kupl;
import kupl.OobCallbacks;
import kupl.ShmDatatype;
import mpi.Intracomm;
import mpi.MPI;

/**
 * The engine's out-of-band callbacks carried by an MPJ Express communicator: its
 * {@code Allgather} and {@code Barrier}, on whatever device the program runs. The group handed
 * to the engine is the communicator.
 *
 * <p>What MPJ Express throws passes through unchanged: the engine keeps it as the cause of its
 * error, where a device that found a process dead (the shm device's
 * {@link kupl.PeerDeathException} under MPJ Express's {@code MPIException}) names the rank.
 */
public final class CommunicatorOob implements OobCallbacks
{
    @Override
    public int oobAllgather(final byte[] sendbuf, final byte[] recvbuf, final int size, final Object group,
        final ShmDatatype datatype)
    {
        if (datatype != ShmDatatype.CHAR)
        {
            throw new IllegalArgumentException("mpi.rma: out-of-band allgather of " + datatype + " is not " +
                "supported: the engine exchanges CHAR (bytes)");
        }
        // The engine's CHAR is C's one-byte char: MPI.BYTE in Java, whose MPI.CHAR has two bytes.
        ((Intracomm)group).Allgather(sendbuf, 0, size, MPI.BYTE, recvbuf, 0, size, MPI.BYTE);
        return Kupl.KUPL_OK;
    }

    @Override
    public int oobBarrier(final Object group)
    {
        ((Intracomm)group).Barrier();
        return Kupl.KUPL_OK;
    }
}
