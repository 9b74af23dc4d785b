package conformance.broken;

import mpi.rma.spi.MessagePathFault;

/**
 * A message path whose target agent writes and reads every derived target datatype as one dense
 * block at the target displacement (a vector as if contiguous): the datatype cases must fail.
 */
public final class DenseTargetsFault implements MessagePathFault
{
    @Override
    public String name()
    {
        return "dense-targets";
    }

    @Override
    public boolean ignoresTargetLayout()
    {
        return true;
    }
}
