package xdev.shmdev.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import kupl.ShmWin;

/**
 * The shared memory of one communicator's collectives: an engine window in which each rank owns two
 * staging slots, used alternately, one per phase. A phase is: each rank writes its slot, a fence, each
 * rank reads any rank's slot.
 *
 * <pre>
 *  segment of rank r:
 *  +-------------------------------+----------------------+-------------------------------+----------------------+
 *  | header, slot 0 (128 bytes)    | data, slot 0         | header, slot 1 (128 bytes)    | data, slot 1         |
 *  +-------------------------------+----------------------+-------------------------------+----------------------+
 *  header: 0       4       8               12              16
 *          +-------+-------+---------------+---------------+
 *          |status | type  | send elements | recv elements |
 *          +-------+-------+---------------+---------------+
 * </pre>
 *
 * <p>Why two slots make one fence per phase enough: a rank writes slot {@code p % 2} in phase
 * {@code p + 2} only after the fence of phase {@code p + 1}, which no rank passes before it has finished
 * reading phase {@code p}. The fence is a full memory barrier, so plain stores and loads suffice.
 *
 * <p>The header lets every rank take the same decision from the same data: after the first fence of a
 * collective each rank reads all headers, and the collective runs here only if every rank could handle it
 * and the types and counts agree; otherwise every rank runs MPJ Express's own algorithm.
 */
final class StagingArea implements AutoCloseable
{
    /** Header bytes before each slot's data: two cache lines, so data starts aligned for every type. */
    static final long HEADER_BYTES = 128;
    private static final long STATUS_OFFSET = 0;
    private static final long TYPE_OFFSET = 4;
    private static final long SEND_ELEMENTS_OFFSET = 8;
    private static final long RECV_ELEMENTS_OFFSET = 12;
    /** Header status: this rank can run the collective here. */
    private static final int READY = 1;
    /** Header status: this rank cannot (a datatype, buffer or size that only MPJ Express handles). */
    private static final int UNSUPPORTED = 2;
    /** A count that the rank does not know or that does not matter to it (the receive side of a non-root). */
    static final int NO_COUNT = -1;
    private static final long[] COUNT_OFFSETS = {SEND_ELEMENTS_OFFSET, RECV_ELEMENTS_OFFSET};

    private final ShmWin win;
    private final MemorySegment[] segments;
    private final long slotBytes;
    private final long capacityBytes;
    private long phase;
    private long readSlotOffset;

    StagingArea(final ShmWin win, final long capacityBytes)
    {
        this.win = win;
        this.capacityBytes = capacityBytes;
        this.slotBytes = HEADER_BYTES + capacityBytes;
        final int size = win.comm().size();
        this.segments = new MemorySegment[size];
        for (int rank = 0; rank < size; rank++)
        {
            segments[rank] = win.segment(rank);
        }
    }

    /** Bytes of data one slot holds. */
    long capacityBytes()
    {
        return capacityBytes;
    }

    /** Bytes {@code segmentBytes(capacity)} a rank's segment needs. */
    static long segmentBytes(final long capacityBytes)
    {
        return 2 * (HEADER_BYTES + capacityBytes);
    }

    /** Where this phase's data starts in a rank's segment (for writing, before {@link #fence()}). */
    long writeOffset()
    {
        return (phase & 1) * slotBytes + HEADER_BYTES;
    }

    /** Where the last completed phase's data starts in a rank's segment (for reading, after {@link #fence()}). */
    long readOffset()
    {
        return readSlotOffset + HEADER_BYTES;
    }

    /** The segment of {@code rank}. */
    MemorySegment segment(final int rank)
    {
        return segments[rank];
    }

    /** Writes this rank's header for this phase: whether it can run the collective here, and its counts. */
    void writeHeader(final int rank, final ElementType type, final int sendElements, final int recvElements)
    {
        final MemorySegment own = segments[rank];
        final long header = (phase & 1) * slotBytes;
        own.set(ValueLayout.JAVA_INT, header + STATUS_OFFSET, type == null ? UNSUPPORTED : READY);
        own.set(ValueLayout.JAVA_INT, header + TYPE_OFFSET, type == null ? -1 : type.ordinal());
        own.set(ValueLayout.JAVA_INT, header + SEND_ELEMENTS_OFFSET, sendElements);
        own.set(ValueLayout.JAVA_INT, header + RECV_ELEMENTS_OFFSET, recvElements);
    }

    /**
     * After the fence: whether every rank said it can run the collective here, with the same element type,
     * and every count that a rank gave ({@link #NO_COUNT} aside) is the same number.
     */
    boolean allReady()
    {
        int type = Integer.MIN_VALUE;
        int count = NO_COUNT;
        for (final MemorySegment segment : segments)
        {
            if (segment.get(ValueLayout.JAVA_INT, readSlotOffset + STATUS_OFFSET) != READY)
            {
                return false;
            }
            final int rankType = segment.get(ValueLayout.JAVA_INT, readSlotOffset + TYPE_OFFSET);
            if (type != Integer.MIN_VALUE && rankType != type)
            {
                return false;
            }
            type = rankType;
            for (final long offset : COUNT_OFFSETS)
            {
                final int rankCount = segment.get(ValueLayout.JAVA_INT, readSlotOffset + offset);
                if (rankCount != NO_COUNT)
                {
                    if (count != NO_COUNT && rankCount != count)
                    {
                        return false;
                    }
                    count = rankCount;
                }
            }
        }
        return true;
    }

    /** Ends the phase: every rank's writes of this phase become visible to every rank's reads after it. */
    void fence()
    {
        if (FenceAllocation.COUNTING)
        {
            FenceAllocation.fence(win);
        }
        else
        {
            win.fence();
        }
        readSlotOffset = (phase & 1) * slotBytes;
        phase++;
    }

    /** Frees the window; collective. */
    @Override
    public void close()
    {
        win.close();
    }
}
