package conformance.broken;

import mpi.rma.spi.MessagePathFault;

/** A message path that loses every put another process sends: the cases that check a put arrived must fail. */
public final class DroppedPutsFault implements MessagePathFault
{
    @Override
    public String name()
    {
        return "drop-puts";
    }

    @Override
    public boolean dropsPut(final int origin)
    {
        return true;
    }
}
