package conformance.broken;

import mpi.rma.spi.SharedMemory;

/**
 * The first window's fence never returns on rank 0 (later windows are sound): a hanging case,
 * to show that the runner times it out and goes on with the next cases.
 */
public final class StuckFenceProvider extends WrappingProvider
{
    /** Per rank: in multicore mode every rank loads these classes with its own class loader. */
    private static boolean stuckOnce;

    @Override
    public String name()
    {
        return "broken-stuckfence";
    }

    @Override
    SharedMemory wrap(final SharedMemory memory, final int rank, final long[] sizes)
    {
        final boolean stick = rank == 0 && !stuckOnce;
        stuckOnce = true;
        if (!stick)
        {
            return memory;
        }
        return new Delegating(memory)
        {
            @Override
            public void fence()
            {
                while (true)
                {
                    try
                    {
                        Thread.sleep(60_000);
                    }
                    catch (final InterruptedException e)
                    {
                        // Spoiled on purpose: even an interrupt does not end this fence.
                    }
                }
            }
        };
    }
}
