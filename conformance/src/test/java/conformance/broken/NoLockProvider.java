package conformance.broken;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import mpi.rma.spi.SharedMemory;

/**
 * The API's lock words (and its other shared words) live in a private area per process: a
 * lock never excludes anybody.
 */
public final class NoLockProvider extends WrappingProvider
{
    @Override
    public String name()
    {
        return "broken-nolock";
    }

    @Override
    SharedMemory wrap(final SharedMemory memory, final int rank, final long[] sizes)
    {
        final MemorySegment privateArea = Arena.ofAuto().allocate(memory.clientArea().byteSize(), 128);
        return new Delegating(memory)
        {
            @Override
            public MemorySegment clientArea()
            {
                return privateArea;
            }
        };
    }
}
