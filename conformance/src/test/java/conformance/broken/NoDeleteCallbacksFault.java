package conformance.broken;

import mpi.rma.spi.MessagePathFault;

/** Windows whose attributes go without their delete callbacks: the attribute cases that count callbacks must fail. */
public final class NoDeleteCallbacksFault implements MessagePathFault
{
    @Override
    public String name()
    {
        return "no-delete-callbacks";
    }

    @Override
    public boolean skipsDeleteCallbacks()
    {
        return true;
    }
}
