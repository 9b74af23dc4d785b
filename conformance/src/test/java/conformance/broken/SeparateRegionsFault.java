package conformance.broken;

import mpi.rma.spi.MessagePathFault;

/**
 * A dynamic window that gives every attached region addresses of its own, 64 bytes or more apart from the
 * others, as mpi.rma did before issue 44: the two halves of one buffer get addresses that do not touch and an
 * access across them is MPI_ERR_RMA_RANGE, so dynamic.touching-regions must fail.
 */
public final class SeparateRegionsFault implements MessagePathFault
{
    @Override
    public String name()
    {
        return "separate-regions";
    }

    @Override
    public boolean separatesAttachedRegions()
    {
        return true;
    }
}
