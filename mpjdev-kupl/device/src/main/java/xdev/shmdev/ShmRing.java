package xdev.shmdev;

import static xdev.shmdev.RingDescriptor.HEAD_OFFSET;
import static xdev.shmdev.RingDescriptor.HEADER_BYTES;
import static xdev.shmdev.RingDescriptor.KIND_PADDING;
import static xdev.shmdev.RingDescriptor.TAIL_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A single-producer, single-consumer queue of variable-length records in shared memory: one
 * per ordered pair of processes, in the receiver's segment ({@link SegmentDescriptor}). The
 * layout ({@link RingDescriptor}) follows the ring buffers of Agrona/Aeron: a producer position
 * (tail) and a consumer position (head) that only grow, each on its own pair of cache lines, a
 * power-of-two data area addressed by position modulo its size, 8-byte-aligned records with an
 * 8-byte header, and a padding record where a record would not fit before the end.
 *
 * <p>Ordering: the producer writes a record (header and payload) with plain stores and then
 * publishes the new tail with a release store; the consumer reads the tail with an acquire
 * load, so everything before the published tail is visible. The consumer releases the space
 * of a record (head, release store) only after it has copied the record out. Each side keeps
 * a cached copy of the other's position and re-reads it only when it seems to be out of room
 * or out of records, so a busy queue costs no cache-line transfer per record.
 *
 * <p>"Full" is a value ({@link #claim} returns -1), so that the caller decides how to wait. The
 * producer side is used by one thread at a time, and so is the consumer side (the device holds
 * its lock).
 */
final class ShmRing
{
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment memory;
    private final int capacity;
    private final int mask;
    /** Producer: position of the next record; consumer: its cached copy of the producer's. */
    private long tail;
    /** Consumer: position of the next record to read; producer: its cached copy of the consumer's. */
    private long head;
    private long claimedPayload = -1;
    private long claimedEnd;

    /**
     * @param memory {@link RingDescriptor#bytesFor}{@code (capacity)} bytes of 8-byte-aligned
     *               shared memory, zero at first (or left by an earlier ring of the same capacity).
     */
    ShmRing(final MemorySegment memory, final int capacity)
    {
        RingDescriptor.checkCapacity(capacity);
        if (memory.byteSize() < RingDescriptor.bytesFor(capacity) || (memory.address() & 7) != 0)
        {
            throw new IllegalArgumentException("ring memory of " + memory.byteSize() + " bytes at 0x" +
                Long.toHexString(memory.address()) + " cannot hold a ring of " + capacity + " bytes");
        }
        this.memory = memory;
        this.capacity = capacity;
        this.mask = capacity - 1;
        // Acquire: pairs with the other side's release stores, should this ring be in use already.
        this.tail = (long)LONG.getAcquire(memory, TAIL_OFFSET);
        this.head = (long)LONG.getAcquire(memory, HEAD_OFFSET);
    }

    MemorySegment memory()
    {
        return memory;
    }

    int capacity()
    {
        return capacity;
    }

    // ---- producer side ----

    /**
     * Claims room for a record of {@code fixedBytes} of fields and {@code n} bytes of data, with
     * {@code n} as large as the free room allows up to {@code maxData}, but at least
     * {@code min(minData, maxData)}. The caller writes the payload at {@link #claimedPayload()}
     * and then calls {@link #commit()}. Records do not straddle the end of the data area, so a
     * record larger than half the capacity may not fit even in an empty ring: the device's
     * records are at most an eighth of it ({@link ShmDevice#CHUNK_BYTES}).
     *
     * @return {@code n}, or -1 if there is no room for the smallest such record yet.
     */
    int claim(final int kind, final int fixedBytes, final int maxData, final int minData)
    {
        final int lowest = Math.min(minData, maxData);
        int n = tryClaim(kind, fixedBytes, maxData, lowest);
        if (n < 0)
        {
            // Acquire: pairs with the consumer's release of head, so its reads of the freed room are done.
            head = (long)LONG.getAcquire(memory, HEAD_OFFSET);
            n = tryClaim(kind, fixedBytes, maxData, lowest);
        }
        return n;
    }

    private int tryClaim(final int kind, final int fixedBytes, final int maxData, final int lowest)
    {
        final long free = capacity - (tail - head);
        final int index = (int)(tail & mask);
        final long toEnd = capacity - index;
        final long smallest = RingDescriptor.recordBytes(fixedBytes + lowest);
        long position = tail;
        long room = Math.min(free, toEnd);
        if (room < smallest)
        {
            if (free - toEnd < smallest)
            {
                return -1;
            }
            // Not enough before the end, enough at the start: pad to the end and wrap.
            putHeader(index, KIND_PADDING, (int)toEnd - HEADER_BYTES);
            position += toEnd;
            room = free - toEnd;
        }
        final int n = (int)Math.min(maxData, room - HEADER_BYTES - fixedBytes);
        final int at = (int)(position & mask);
        putHeader(at, kind, fixedBytes + n);
        claimedPayload = RingDescriptor.payloadOffset(at);
        claimedEnd = position + RingDescriptor.recordBytes(fixedBytes + n);
        return n;
    }

    /** The producer's position: it moves whenever a record is committed. */
    long producerPosition()
    {
        return tail;
    }

    /** Offset in {@link #memory()} of the payload of the record claimed last. */
    long claimedPayload()
    {
        return claimedPayload;
    }

    /** Publishes the record claimed last (and any padding before it) to the consumer. */
    void commit()
    {
        tail = claimedEnd;
        // Release: publishes the headers and payload written since the last commit (plain stores) with the tail.
        LONG.setRelease(memory, TAIL_OFFSET, tail);
    }

    // ---- consumer side ----

    /** What the consumer does with each record. */
    interface Reader
    {
        /** Handles a record whose payload is {@code length} bytes at {@code offset} of {@code memory}. */
        void onRecord(int source, int kind, MemorySegment memory, long offset, int length);
    }

    /**
     * Hands every record published so far to {@code reader}, releasing each record's room after
     * the reader has returned (also when it throws).
     *
     * @return whether there was any record.
     */
    boolean poll(final Reader reader, final int source)
    {
        if (head == tail)
        {
            // Acquire: pairs with the producer's release in commit; the records before the tail are visible.
            tail = (long)LONG.getAcquire(memory, TAIL_OFFSET);
            if (head == tail)
            {
                return false;
            }
        }
        while (head != tail)
        {
            final int index = (int)(head & mask);
            final int kind = memory.get(ValueLayout.JAVA_INT, RingDescriptor.kindOffset(index));
            final int length = memory.get(ValueLayout.JAVA_INT, RingDescriptor.lengthOffset(index));
            try
            {
                if (kind != KIND_PADDING)
                {
                    reader.onRecord(source, kind, memory, RingDescriptor.payloadOffset(index), length);
                }
            }
            finally
            {
                head += RingDescriptor.recordBytes(length);
                // Release: the record has been read out; the producer may overwrite its room from now on.
                LONG.setRelease(memory, HEAD_OFFSET, head);
            }
        }
        return true;
    }

    private void putHeader(final int index, final int kind, final int length)
    {
        // Plain stores: published by the release of the tail in commit.
        memory.set(ValueLayout.JAVA_INT, RingDescriptor.kindOffset(index), kind);
        memory.set(ValueLayout.JAVA_INT, RingDescriptor.lengthOffset(index), length);
    }
}
