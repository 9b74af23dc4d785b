package xdev.shmdev.coll;

import mpi.Datatype;
import mpi.MPIException;

/**
 * {@code Bcast} through shared memory: the root copies the buffer into its slot, every other rank copies
 * it out. One fence starts it (every rank's header, for the decision, and the first chunk); the rest
 * streams in chunks through the root's slot, used as a ring: the root counts the chunks it has written in
 * its progress word, each receiver copies a chunk out as soon as that count shows it, and, when the buffer
 * is longer than the slot, counts the chunks it has read in its own word, which the root awaits before it
 * writes over a chunk. So the receivers copy while the root writes, and no chunk waits for a fence of every
 * rank (a fence of 4 processes on 2 cores costs 15-20 us, as much as copying 64 KiB).
 */
final class Broadcast
{
    /** Bytes per chunk: small enough for the receivers to start early, large enough to amortise a wait. */
    static final long CHUNK_BYTES = 64 * 1024;

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
        final int chunkElements = ready ? (int)(Math.min(area.capacityBytes(), CHUNK_BYTES) / type.bytes()) : 1;
        if (ready && rank == root)
        {
            type.copyIn(buf, offset, area.segment(rank), area.writeOffset(), Math.min(elements, chunkElements));
        }
        area.fence();
        if (!area.allReady())
        {
            return false;
        }
        final int chunks = (elements + chunkElements - 1) / chunkElements;
        final int ringChunks = (int)(area.capacityBytes() / (chunkElements * type.bytes()));
        if (rank == root)
        {
            for (int chunk = 1; chunk < chunks; chunk++)
            {
                if (chunk >= ringChunks)
                {
                    // Its place in the ring still holds chunk - ringChunks until every receiver has read it.
                    area.awaitProgressOfAllBut(root, chunk - ringChunks + 1);
                }
                final int start = chunk * chunkElements;
                type.copyIn(buf, offset + start, area.segment(rank), ringOffset(chunk, ringChunks, chunkElements, type),
                    Math.min(elements - start, chunkElements));
                area.publishProgress(chunk + 1);
            }
            return true;
        }
        for (int chunk = 0; chunk < chunks; chunk++)
        {
            if (chunk > 0)
            {
                area.awaitProgress(root, chunk + 1);
            }
            final int start = chunk * chunkElements;
            type.copyOut(area.segment(root), ringOffset(chunk, ringChunks, chunkElements, type), buf, offset + start,
                Math.min(elements - start, chunkElements));
            if (chunks > ringChunks)
            {
                area.publishProgress(chunk + 1);
            }
        }
        return true;
    }

    /** Where chunk {@code chunk} lies in the root's slot (read offset, after the fence). */
    private long ringOffset(final int chunk, final int ringChunks, final int chunkElements, final ElementType type)
    {
        return area.readOffset() + (long)(chunk % ringChunks) * chunkElements * type.bytes();
    }
}
