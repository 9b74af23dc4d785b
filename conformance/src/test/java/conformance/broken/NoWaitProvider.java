package conformance.broken;

import java.util.function.BooleanSupplier;

import mpi.rma.spi.SharedMemory;

/**
 * Waits on shared words that return at once, condition or not: win.start goes ahead before the targets'
 * posts, win.waitFor before the origins' completes (and a lock is not waited for either).
 */
public final class NoWaitProvider extends WrappingProvider
{
    @Override
    public String name()
    {
        return "broken-nowait";
    }

    @Override
    SharedMemory wrap(final SharedMemory memory, final int rank, final long[] sizes)
    {
        return new Delegating(memory)
        {
            @Override
            public void awaitCondition(final BooleanSupplier condition, final String what)
            {
                // Spoiled: should return only once the condition holds.
            }
        };
    }
}
