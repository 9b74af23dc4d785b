package conformance.broken;

import mpi.rma.spi.MessagePathFault;

/**
 * Origin checks that treat a transfer of nothing as if it moved data, as mpi.rma did before issue 44: a null
 * buffer is MPI_ERR_BUFFER, an origin DOUBLE against a target INT MPI_ERR_TYPE, and an empty put outside an epoch
 * MPI_ERR_BUFFER before the epoch is looked at. The cases of transfers that move nothing must fail, on every
 * flavour.
 */
public final class RefusedEmptyTransfersFault implements MessagePathFault
{
    @Override
    public String name()
    {
        return "refuse-empty";
    }

    @Override
    public boolean refusesEmptyTransfers()
    {
        return true;
    }
}
