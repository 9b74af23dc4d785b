package xdev.shmdev;

import java.lang.foreign.MemorySegment;

import kupl.Doorbell;

/**
 * Layout of each rank's segment of the device's engine window: the owner's doorbell, then one
 * queue ({@link ShmRing}) from every rank to the owner, in rank order.
 *
 * <pre>
 *   0                                                                  256
 *   +--------------------------------------------------------------------+
 *   | doorbell of the owner ({@link Doorbell#BYTES}), padded to two      |  256 B
 *   | 128-byte lines so that no queue shares a line with it              |
 *   +--------------------------------------------------------------------+
 *   | queue from rank 0 to the owner: {@link RingDescriptor} layout       |  ring bytes
 *   +--------------------------------------------------------------------+
 *   | queue from rank 1 to the owner                                     |  ring bytes
 *   +--------------------------------------------------------------------+
 *   | ... up to rank ranks - 1 (the owner's own slot is never used)      |
 *   +--------------------------------------------------------------------+
 * </pre>
 *
 * The window is allocated collectively and zeroed, and every rank computes the same offsets from
 * the job's size, so the layout needs no header of its own. Each slot starts 256-byte aligned.
 */
final class SegmentDescriptor
{
    static final long DOORBELL_OFFSET = 0;
    /** Bytes ahead of the queues: the doorbell and its padding. */
    static final long BELL_SLOT_BYTES = 2 * RingDescriptor.WORD_PAD_BYTES;

    private final int ranks;
    private final int queueCapacity;
    private final long ringBytes;

    /**
     * @param ranks         ranks of the job.
     * @param queueCapacity bytes of data of each queue (a power of two).
     */
    SegmentDescriptor(final int ranks, final int queueCapacity)
    {
        if (ranks < 1)
        {
            throw new IllegalArgumentException("ranks=" + ranks + " must be at least 1");
        }
        this.ranks = ranks;
        this.queueCapacity = queueCapacity;
        this.ringBytes = RingDescriptor.bytesFor(queueCapacity);
    }

    int queueCapacity()
    {
        return queueCapacity;
    }

    /** Bytes of one queue, control block included. */
    long ringBytes()
    {
        return ringBytes;
    }

    /** Offset of the queue from {@code sender} to the segment's owner. */
    long ringOffset(final int sender)
    {
        if (sender < 0 || sender >= ranks)
        {
            throw new IllegalArgumentException("sender=" + sender + " is not a rank of " + ranks);
        }
        return BELL_SLOT_BYTES + sender * ringBytes;
    }

    /** The doorbell of the rank whose segment is {@code segment}. */
    Doorbell doorbell(final MemorySegment segment)
    {
        return new Doorbell(segment.asSlice(DOORBELL_OFFSET, Doorbell.BYTES));
    }

    /** The queue from {@code sender} to the rank whose segment is {@code segment}. */
    ShmRing ring(final MemorySegment segment, final int sender)
    {
        return new ShmRing(segment.asSlice(ringOffset(sender), ringBytes), queueCapacity);
    }

    /** Bytes of one segment. */
    long lengthBytes()
    {
        return BELL_SLOT_BYTES + ranks * ringBytes;
    }
}
