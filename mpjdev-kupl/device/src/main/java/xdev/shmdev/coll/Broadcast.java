package xdev.shmdev.coll;

import mpi.Datatype;
import mpi.MPIException;

/**
 * {@code Bcast} through shared memory: the root copies the buffer into its slot, a fence, every other rank
 * copies it out. A long buffer goes in chunks, one phase each, so that the root writes chunk
 * {@code k + 1} into one slot while the others read chunk {@code k} from the other (a pipeline of two).
 */
final class Broadcast
{
    /** Bytes per phase: small enough for the pipeline to overlap copies, large enough to amortise the fence. */
    static final long CHUNK_BYTES = 128 * 1024;

    private final StagingArea area;
    private final int rank;
    private final int size;

    Broadcast(final StagingArea area, final int rank, final int size)
    {
        this.area = area;
        this.rank = rank;
        this.size = size;
    }

    /** Returns false, on every rank, if MPJ Express must run it (see {@link StagingArea#allReady()}). */
    boolean bcast(final Object buf, final int offset, final int count, final Datatype datatype, final int root)
        throws MPIException
    {
        final ElementType type = ElementType.of(datatype);
        final int elements = type == null ? -1 : Buffers.elements(count, datatype);
        final boolean ready = root >= 0 && root < size && Buffers.holds(buf, type, offset, elements);
        area.writeHeader(rank, ready ? type : null, elements, StagingArea.NO_COUNT);
        final int chunkElements = ready ? (int)Math.min(area.capacityBytes(), CHUNK_BYTES) / (int)type.bytes() : 1;
        if (ready && rank == root)
        {
            type.copyIn(buf, offset, area.segment(rank), area.writeOffset(), Math.min(elements, chunkElements));
        }
        area.fence();
        if (!area.allReady())
        {
            return false;
        }
        for (int start = 0; start < elements; start += chunkElements)
        {
            final int next = start + chunkElements;
            final boolean more = next < elements;
            if (rank == root && more)
            {
                type.copyIn(buf, offset + next, area.segment(rank), area.writeOffset(),
                    Math.min(elements - next, chunkElements));
            }
            if (rank != root)
            {
                type.copyOut(area.segment(root), area.readOffset(), buf, offset + start,
                    Math.min(elements - start, chunkElements));
            }
            if (more)
            {
                area.fence();
            }
        }
        return true;
    }
}
