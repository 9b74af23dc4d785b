package conformance.broken;

import java.lang.foreign.MemorySegment;

import mpi.Intracomm;
import mpi.rma.spi.SharedMemory;

/** A "contiguous" layout with a 64-byte gap before every segment. */
public final class MisplacedProvider extends WrappingProvider
{
    private static final long GAP = 64;

    @Override
    public String name()
    {
        return "broken-misplaced";
    }

    @Override
    public SharedMemory allocate(final Intracomm comm, final long[] sizes, final boolean contiguous)
    {
        if (!contiguous)
        {
            return real().allocate(comm, sizes, false);
        }
        final long[] padded = new long[sizes.length];
        for (int peer = 0; peer < sizes.length; peer++)
        {
            padded[peer] = sizes[peer] + GAP;
        }
        return wrap(real().allocate(comm, padded, true), comm.Rank(), sizes);
    }

    @Override
    SharedMemory wrap(final SharedMemory memory, final int rank, final long[] sizes)
    {
        return new Delegating(memory)
        {
            @Override
            public MemorySegment segment(final int peer)
            {
                return memory.segment(peer).asSlice(GAP, sizes[peer]);
            }
        };
    }
}
