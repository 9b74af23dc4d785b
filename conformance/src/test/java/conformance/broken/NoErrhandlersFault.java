package conformance.broken;

import mpi.rma.spi.MessagePathFault;

/** Windows whose failing calls throw without calling the error handler: the error handler cases must fail. */
public final class NoErrhandlersFault implements MessagePathFault
{
    @Override
    public String name()
    {
        return "no-errhandlers";
    }

    @Override
    public boolean skipsErrhandlers()
    {
        return true;
    }
}
