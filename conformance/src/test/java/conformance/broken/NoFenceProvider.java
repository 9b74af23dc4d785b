package conformance.broken;

import mpi.rma.spi.SharedMemory;

/** A fence that returns at once: no barrier, so nobody waits for the others' stores. */
public final class NoFenceProvider extends WrappingProvider
{
    @Override
    public String name()
    {
        return "broken-nofence";
    }

    @Override
    SharedMemory wrap(final SharedMemory memory, final int rank, final long[] sizes)
    {
        return new Delegating(memory)
        {
            @Override
            public void fence()
            {
                // Spoiled: should wait for every process.
            }
        };
    }
}
