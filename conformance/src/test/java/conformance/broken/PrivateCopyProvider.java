package conformance.broken;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import mpi.rma.spi.SharedMemory;

/** Every process sees a private copy of the other processes' segments: nothing is shared. */
public final class PrivateCopyProvider extends WrappingProvider
{
    @Override
    public String name()
    {
        return "broken-private";
    }

    @Override
    SharedMemory wrap(final SharedMemory memory, final int rank, final long[] sizes)
    {
        final MemorySegment[] copies = new MemorySegment[sizes.length];
        for (int peer = 0; peer < sizes.length; peer++)
        {
            copies[peer] = peer == rank ? memory.segment(peer) : Arena.ofAuto().allocate(Math.max(1, sizes[peer]), 8)
                .asSlice(0, sizes[peer]);
        }
        return new Delegating(memory)
        {
            @Override
            public MemorySegment segment(final int peer)
            {
                return copies[peer];
            }
        };
    }
}
