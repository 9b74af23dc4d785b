package xdev.shmdev.coll;

import mpi.Datatype;
import mpi.MPIException;

/**
 * {@code Gather}, {@code Allgather}, {@code Scatter} and {@code Alltoall} through shared memory: each
 * rank copies what it sends into its slot, a fence, each rank copies what it receives straight from the
 * sender's slot. One fence, each byte copied twice, no message headers.
 *
 * <p>Non-zero offsets are left to MPJ Express: its 0.44 algorithms place blocks there in ways of their own
 * (its Allgather ignores the receive offset), and results must stay the same as without the agent.
 *
 * <p>Both sides must use the same basic datatype (MPJ Express moves Java arrays, so a send type and a
 * different receive type of equal size are not interchangeable there either) and block sizes that match;
 * a block set larger than a staging slot is left to MPJ Express.
 */
final class Gathering
{
    private final StagingArea area;
    private final int rank;
    private final int size;

    Gathering(final StagingArea area, final int rank, final int size)
    {
        this.area = area;
        this.rank = rank;
        this.size = size;
    }

    /** {@code Gather} to {@code root}, or {@code Allgather} when {@code root} is -1. */
    boolean gather(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException
    {
        final boolean receives = root == -1 || rank == root;
        final ElementType type = ElementType.of(sendtype);
        final int sendElements = type == null ? -1 : Buffers.elements(sendcount, sendtype);
        final int recvElements = receives && type != null ? Buffers.elements(recvcount, recvtype) : StagingArea.NO_COUNT;
        final boolean ready = sendoffset == 0 && recvoffset == 0 && (root == -1 || root >= 0 && root < size) &&
            Buffers.holds(sendbuf, type, sendoffset, sendElements) && fits(sendElements, type, 1) &&
            (!receives || recvtype == sendtype && Buffers.holds(recvbuf, type, recvoffset, (long)size * recvElements));
        area.writeHeader(rank, ready ? type : null, sendElements, recvElements);
        if (ready)
        {
            type.copyIn(sendbuf, sendoffset, area.segment(rank), area.writeOffset(), sendElements);
        }
        area.fence();
        if (!area.allReady())
        {
            return false;
        }
        if (receives)
        {
            for (int peer = 0; peer < size; peer++)
            {
                type.copyOut(area.segment(peer), area.readOffset(), recvbuf, recvoffset + peer * recvElements,
                    recvElements);
            }
        }
        return true;
    }

    /** {@code Scatter} from {@code root}: the root stages every block, each rank copies its own. */
    boolean scatter(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException
    {
        final boolean sends = rank == root;
        final ElementType type = ElementType.of(recvtype);
        final int recvElements = type == null ? -1 : Buffers.elements(recvcount, recvtype);
        final int sendElements = sends && type != null ? Buffers.elements(sendcount, sendtype) : StagingArea.NO_COUNT;
        final boolean ready = sendoffset == 0 && recvoffset == 0 && root >= 0 && root < size &&
            Buffers.holds(recvbuf, type, recvoffset, recvElements) &&
            (!sends || sendtype == recvtype && Buffers.holds(sendbuf, type, sendoffset, (long)size * sendElements) &&
                fits(sendElements, type, size));
        area.writeHeader(rank, ready ? type : null, sendElements, recvElements);
        if (ready && sends)
        {
            type.copyIn(sendbuf, sendoffset, area.segment(rank), area.writeOffset(), size * sendElements);
        }
        area.fence();
        if (!area.allReady())
        {
            return false;
        }
        type.copyOut(area.segment(root), area.readOffset() + (long)rank * recvElements * type.bytes(), recvbuf,
            recvoffset, recvElements);
        return true;
    }

    /** {@code Alltoall}: each rank stages its whole send buffer, and copies block {@code rank} of every rank's. */
    boolean alltoall(final Object sendbuf, final int sendoffset, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvoffset, final int recvcount, final Datatype recvtype) throws MPIException
    {
        final ElementType type = ElementType.of(sendtype);
        final int sendElements = type == null ? -1 : Buffers.elements(sendcount, sendtype);
        final int recvElements = type == null ? -1 : Buffers.elements(recvcount, recvtype);
        final boolean ready = sendoffset == 0 && recvoffset == 0 && recvtype == sendtype && fits(sendElements, type, size) &&
            Buffers.holds(sendbuf, type, sendoffset, (long)size * sendElements) &&
            Buffers.holds(recvbuf, type, recvoffset, (long)size * recvElements);
        area.writeHeader(rank, ready ? type : null, sendElements, recvElements);
        if (ready)
        {
            type.copyIn(sendbuf, sendoffset, area.segment(rank), area.writeOffset(), size * sendElements);
        }
        area.fence();
        if (!area.allReady())
        {
            return false;
        }
        final long blockOffset = area.readOffset() + (long)rank * recvElements * type.bytes();
        for (int peer = 0; peer < size; peer++)
        {
            type.copyOut(area.segment(peer), blockOffset, recvbuf, recvoffset + peer * recvElements, recvElements);
        }
        return true;
    }

    /** Whether {@code blocks} blocks of {@code elements} elements fit one staging slot. */
    private boolean fits(final int elements, final ElementType type, final int blocks)
    {
        return type != null && elements >= 0 && (long)blocks * elements * type.bytes() <= area.capacityBytes();
    }
}
