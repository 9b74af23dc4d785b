package conformance.broken;

import mpi.rma.spi.MessagePathFault;

/**
 * A message path whose accumulates are a read and a write outside the window's lock, and with it the element
 * updates of shared memory: concurrent ones (the target's own, those of the other processes of its node and those
 * its agent applies) lose updates, and the atomicity cases must fail.
 */
public final class TornAccumulatesFault implements MessagePathFault
{
    @Override
    public String name()
    {
        return "torn-accumulates";
    }

    @Override
    public boolean tearsAccumulates()
    {
        return true;
    }
}
