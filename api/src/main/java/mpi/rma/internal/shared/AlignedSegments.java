package mpi.rma.internal.shared;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

import mpi.Intracomm;
import mpi.rma.internal.WindowHints;
import mpi.rma.internal.creation.AllocationAgreement;
import mpi.rma.spi.SharedMemory;
import mpi.rma.spi.SharedMemoryProvider;

/**
 * {@code mpi_minimum_memory_alignment} on memory a provider lays out ({@code Win.allocateShared},
 * {@code Win.allocate}; MPI-4.1 sections 12.2.2, 12.2.3). A provider starts each object of shared memory on a
 * page, and each segment of a noncontiguous window on a page of its own, so any alignment up to
 * {@link WindowHints#MAX_ALIGNMENT_BYTES} holds there already. Segments that lie back to back start wherever the
 * previous one ends: for them the provider is asked for each non-empty size rounded up to the alignment, and the
 * window sees each segment cut back to the size its process asked for, the padding after it
 * (docs/design.md#info-hints).
 */
public final class AlignedSegments implements SharedMemory
{
    private final SharedMemory memory;
    private final long[] sizes;

    private AlignedSegments(final SharedMemory memory, final long[] sizes)
    {
        this.memory = memory;
        this.sizes = sizes;
    }

    /** The window's memory, from {@code provider}, with every segment aligned as {@code layout} agreed. */
    public static SharedMemory allocate(final SharedMemoryProvider provider, final Intracomm comm,
        final AllocationAgreement layout)
    {
        final long[] padded = padded(layout.sizes, layout.alignment);
        if (!layout.contiguous || padded == layout.sizes)
        {
            return provider.allocate(comm, layout.sizes, layout.contiguous, layout.tokens);
        }
        return new AlignedSegments(provider.allocate(comm, padded, true, layout.tokens), layout.sizes);
    }

    /** Each non-empty size rounded up to a multiple of {@code alignment}; {@code sizes} itself if none changes. */
    static long[] padded(final long[] sizes, final long alignment)
    {
        long[] padded = sizes;
        for (int rank = 0; rank < sizes.length; rank++)
        {
            final long rounded = (sizes[rank] + alignment - 1) & -alignment;
            if (rounded != sizes[rank])
            {
                padded = padded == sizes ? sizes.clone() : padded;
                padded[rank] = rounded;
            }
        }
        return padded;
    }

    /**
     * The alignment of {@code segment}'s first byte, at most {@link WindowHints#MAX_ALIGNMENT_BYTES}: what getInfo
     * reports. An empty segment has any alignment: {@code agreed} stands for it.
     */
    public static long alignmentOf(final MemorySegment segment, final long agreed)
    {
        if (segment.byteSize() == 0)
        {
            return Math.max(1, agreed);
        }
        final long lowest = Long.lowestOneBit(segment.address());
        return lowest == 0 ? WindowHints.MAX_ALIGNMENT_BYTES : Math.min(lowest, WindowHints.MAX_ALIGNMENT_BYTES);
    }

    @Override
    public MemorySegment segment(final int rank)
    {
        return memory.segment(rank).asSlice(0, sizes[rank]);
    }

    @Override
    public MemorySegment clientArea()
    {
        return memory.clientArea();
    }

    @Override
    public void fence()
    {
        memory.fence();
    }

    @Override
    public void awaitCondition(final BooleanSupplier condition, final String what)
    {
        memory.awaitCondition(condition, what);
    }

    @Override
    public void checkProcesses(final String call)
    {
        memory.checkProcesses(call);
    }

    @Override
    public void free()
    {
        memory.free();
    }
}
