package conformance.broken;

import mpi.rma.spi.SharedMemory;

/** free waits for the others but never releases the memory: freed segments stay usable. */
public final class NoFreeProvider extends WrappingProvider
{
    @Override
    public String name()
    {
        return "broken-nofree";
    }

    @Override
    SharedMemory wrap(final SharedMemory memory, final int rank, final long[] sizes)
    {
        return new Delegating(memory)
        {
            @Override
            public void free()
            {
                // Spoiled: should release the memory, so that later accesses fail.
                memory.fence();
            }
        };
    }
}
