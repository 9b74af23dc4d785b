package xdev.shmdev;

import java.lang.foreign.MemorySegment;

import kupl.Doorbell;

/**
 * Layout of each rank's segment of the device's engine window: the owner's doorbell, the one
 * queue ({@link ShmQueue}) into which every rank writes what it has for the owner, and the
 * owner's staging area ({@link RendezvousRing}) for the bytes of large messages.
 *
 * <pre>
 *   0                                                                  256
 *   +--------------------------------------------------------------------+
 *   | doorbell of the owner ({@link Doorbell#BYTES}), padded to two      |  256 B
 *   | 128-byte lines so that the queue shares no line with it            |
 *   +--------------------------------------------------------------------+
 *   | the owner's queue: {@link QueueDescriptor} layout, written by every |  queue bytes
 *   | rank of the job (the owner's own messages never go through it)     |
 *   +--------------------------------------------------------------------+
 *   | the owner's staging area: {@link RendezvousRing} layout, written by   |  its ring's bytes
 *   | the one sender the owner granted it to                             |  ({@link RendezvousRing#ringBytesFor}) + 256
 *   +--------------------------------------------------------------------+
 * </pre>
 *
 * A segment grows with the job's size only by the queue's room-wanted bits (128 bytes per 1024
 * ranks), and its staging ring shrinks as the job grows (the rings of a job take about 16 MiB
 * together), so the window of a job of N ranks is N segments: O(N), where one queue per ordered
 * pair of ranks would be O(N^2). The window is allocated collectively and zeroed, and every rank
 * computes the same offsets from the job's size, so the layout needs no header of its own.
 */
final class SegmentDescriptor
{
    static final long DOORBELL_OFFSET = 0;
    /** Bytes ahead of the queue: the doorbell and its padding. */
    static final long BELL_SLOT_BYTES = 2 * QueueDescriptor.WORD_PAD_BYTES;
    static final long QUEUE_OFFSET = BELL_SLOT_BYTES;

    private final int ranks;
    private final int queueCapacity;
    private final long queueBytes;
    private final int ringBytes;

    /**
     * @param ranks         ranks of the job.
     * @param queueCapacity bytes of data of each rank's queue (a power of two).
     * @throws IllegalArgumentException naming the value, if either is out of range.
     */
    SegmentDescriptor(final int ranks, final int queueCapacity)
    {
        QueueDescriptor.checkProducers(ranks);
        this.ranks = ranks;
        this.queueCapacity = queueCapacity;
        this.queueBytes = QueueDescriptor.bytesFor(queueCapacity, ranks);
        this.ringBytes = RendezvousRing.ringBytesFor(ranks);
    }

    int ranks()
    {
        return ranks;
    }

    int queueCapacity()
    {
        return queueCapacity;
    }

    /** Bytes of the queue, control block and room-wanted words included. */
    long queueBytes()
    {
        return queueBytes;
    }

    /** The doorbell of the rank whose segment is {@code segment}. */
    Doorbell doorbell(final MemorySegment segment)
    {
        return new Doorbell(segment.asSlice(DOORBELL_OFFSET, Doorbell.BYTES));
    }

    /**
     * The queue of the rank whose segment is {@code segment}, as rank {@code viewer} sees it: its
     * owner reads from it, every other rank writes into it.
     */
    ShmQueue queue(final MemorySegment segment, final int viewer)
    {
        return new ShmQueue(segment.asSlice(QUEUE_OFFSET, queueBytes), queueCapacity, ranks, viewer);
    }

    /** Offset of the staging area: after the queue, which is a whole number of cache-line pairs. */
    long stagingOffset()
    {
        return QUEUE_OFFSET + queueBytes;
    }

    /** The staging area of the rank whose segment is {@code segment}. */
    RendezvousRing staging(final MemorySegment segment)
    {
        return new RendezvousRing(segment.asSlice(stagingOffset(), RendezvousRing.bytesFor(ringBytes)), ringBytes);
    }

    /** Bytes of one segment. */
    long lengthBytes()
    {
        return stagingOffset() + RendezvousRing.bytesFor(ringBytes);
    }
}
