package samples.kupl;

import kupl.Kupl;
import kupl.OobCallbacks;
import kupl.ShmDatatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The two out-of-band callbacks of the KUPL examples ({@code oob_barrier_callback} and
 * {@code oob_allgather_callback}), carried by MPJ Express: the {@code group} handed to
 * {@link Kupl#shmCommCreate} is an {@link Intracomm}, as the C examples hand over an
 * {@code MPI_Comm}. The two C examples each define the same pair; here both share this class.
 */
public final class MpiOobCallbacks implements OobCallbacks
{
    /** Callback 1 needed to create a kupl comm. */
    @Override
    public int oobBarrier(final Object group)
    {
        try
        {
            ((Intracomm)group).Barrier();
            return Kupl.KUPL_OK;
        }
        catch (final MPIException e)
        {
            // C returns MPI_Barrier's error code; MPJ Express throws instead, so say why here.
            System.err.println("oob barrier failed: " + e.getMessage());
            return Kupl.KUPL_ERROR;
        }
    }

    /** Callback 2 needed to create a kupl comm. */
    @Override
    public int oobAllgather(final byte[] sendbuf, final byte[] recvbuf, final int size, final Object group,
        final ShmDatatype datatype)
    {
        switch (datatype)
        {
            case CHAR:
                try
                {
                    // C's MPI_CHAR is one byte; MPJ Express's MPI.CHAR is a two-byte Java char, so MPI.BYTE it is.
                    ((Intracomm)group).Allgather(sendbuf, 0, size, MPI.BYTE, recvbuf, 0, size, MPI.BYTE);
                    return Kupl.KUPL_OK;
                }
                catch (final MPIException e)
                {
                    System.err.println("oob allgather failed: " + e.getMessage());
                    return Kupl.KUPL_ERROR;
                }
            default:
                System.err.println("not support datatype: " + datatype);
                return Kupl.KUPL_ERROR;
        }
    }
}
