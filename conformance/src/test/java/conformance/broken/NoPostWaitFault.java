package conformance.broken;

import mpi.rma.spi.MessagePathFault;

/**
 * A message path whose win.start does not wait for the targets' posts, so that the origin's accesses and
 * its complete may come before a target exposed its memory: the cases that check the order must fail.
 */
public final class NoPostWaitFault implements MessagePathFault
{
    @Override
    public String name()
    {
        return "no-post-wait";
    }

    @Override
    public boolean startsWithoutPost()
    {
        return true;
    }
}
