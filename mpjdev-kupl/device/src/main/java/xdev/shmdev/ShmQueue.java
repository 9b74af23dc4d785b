package xdev.shmdev;

import static xdev.shmdev.QueueDescriptor.HEADER_BYTES;
import static xdev.shmdev.QueueDescriptor.HEAD_OFFSET;
import static xdev.shmdev.QueueDescriptor.KIND_PADDING;
import static xdev.shmdev.QueueDescriptor.TAIL_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.IntConsumer;

import xdev.XDevException;

/**
 * A many-producer, single-consumer queue of variable-length records in shared memory: one per
 * rank, in its own segment ({@link SegmentDescriptor}), into which every rank writes what it has
 * for that rank. The layout ({@link QueueDescriptor}) and protocol follow Agrona's
 * {@code ManyToOneRingBuffer}: positions that only grow, each on its own pair of cache lines, a
 * power-of-two data area addressed by position modulo its size, 8-byte-aligned records with an
 * 8-byte header naming kind and source, and a padding record where a record would not fit before
 * the end.
 *
 * <p><b>Producers.</b> A producer claims room with a compare-and-set of the tail (retried if
 * another producer claimed first), marks the record as being written (negative length), writes
 * the payload with plain stores and publishes everything with one release store of the positive
 * length ({@link #commit}). One producer claims its records one after another, so they lie in the
 * queue in the order it wrote them, and the consumer reads in position order: a sender's
 * messages cannot overtake each other. "Full" is a value ({@link #claim} returns -1), so that the
 * caller decides how to wait; {@link #wantRoom} asks the owner to ring the producer's doorbell
 * once it has freed room.
 *
 * <p><b>Consumer.</b> The owner reads the length at its head with an acquire load: with nothing
 * to receive, a poll costs that one load, however many ranks the job has. It hands each complete
 * record to a {@link Reader}, zeroes the record's room (so that the next lap reads "not written"
 * there) and releases it with a release store of the head.
 *
 * <p><b>Stalls.</b> A record claimed and not yet published stops the consumer there; the records
 * behind it wait. A producer never waits between claim and commit (or {@link #abort}), and one
 * that dies in between is found by the device's liveness check, which breaks the device.
 *
 * <p>Each instance is one process's view of a queue: the producer side of its rank, or the
 * owner's consumer side. Each side is used by one thread at a time (the device holds its lock).
 */
final class ShmQueue
{
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final int NOTHING_CLAIMED = -1;
    /** Zeros that a read record is overwritten with: copied from, rather than a slice made to fill, per record. */
    private static final MemorySegment ZEROS = MemorySegment.ofArray(new byte[4096]);

    private final MemorySegment memory;
    private final int capacity;
    private final int mask;
    /** The rank of the process holding this view: the source of the records it writes. */
    private final short ownRank;
    private final long roomWantedOffset;
    private final int roomWantedWords;
    private final long ownRoomWantedOffset;
    private final long ownRoomWantedBit;
    /** Producer: a head read earlier, re-read only when the queue seems to be full. */
    private long headCache;
    /** Producer: index of the record claimed and not yet committed, or {@link #NOTHING_CLAIMED}. */
    private int claimedIndex = NOTHING_CLAIMED;
    /** Producer: length, header included, of the claimed record. */
    private int claimedLength;
    private long committedRecords;
    /** Consumer: position of the next record to read. */
    private long head;

    /**
     * @param memory    {@link QueueDescriptor#bytesFor}{@code (capacity, producers)} bytes of
     *                  8-byte-aligned shared memory, zero at first (or left by an earlier view of
     *                  the same queue).
     * @param producers ranks that may write into the queue (the job's size).
     * @param ownRank   rank of the process holding this view.
     */
    ShmQueue(final MemorySegment memory, final int capacity, final int producers, final int ownRank)
    {
        final long bytes = QueueDescriptor.bytesFor(capacity, producers);
        if (memory.byteSize() < bytes || (memory.address() & 7) != 0)
        {
            throw new IllegalArgumentException("queue memory of " + memory.byteSize() + " bytes at 0x" +
                Long.toHexString(memory.address()) + " cannot hold a queue of " + capacity + " bytes for " +
                producers + " ranks (" + bytes + " bytes)");
        }
        if (ownRank < 0 || ownRank >= producers)
        {
            throw new IllegalArgumentException("rank=" + ownRank + " is not a rank of " + producers);
        }
        this.memory = memory;
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.ownRank = (short)ownRank;
        this.roomWantedOffset = QueueDescriptor.roomWantedOffset(capacity);
        this.roomWantedWords = QueueDescriptor.roomWantedWords(producers);
        this.ownRoomWantedOffset = roomWantedOffset + (long)(ownRank / Long.SIZE) * Long.BYTES;
        this.ownRoomWantedBit = 1L << (ownRank % Long.SIZE);
        // Acquire: pairs with the consumer's release, should this queue be in use already.
        this.head = (long)LONG.getAcquire(memory, HEAD_OFFSET);
        this.headCache = head;
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
     * and then calls {@link #commit()} (or {@link #abort()}), without waiting in between: the
     * consumer cannot read past the claimed record until then. Records do not straddle the end of
     * the data area, so a record larger than half the capacity may not fit even in an empty queue:
     * the device's records are at most a quarter of it ({@link ShmDevice#CHUNK_BYTES}).
     *
     * @return {@code n}, or -1 if there is no room for the smallest such record yet.
     * @throws IllegalStateException if a claimed record is not yet committed.
     */
    int claim(final int kind, final int fixedBytes, final int maxData, final int minData)
    {
        if (claimedIndex != NOTHING_CLAIMED)
        {
            throw new IllegalStateException("a record is claimed at index " + claimedIndex +
                " already: commit it first");
        }
        final long smallest = QueueDescriptor.recordBytes(fixedBytes + Math.min(minData, maxData));
        while (true)
        {
            // Volatile: the latest claim of any producer; the compare-and-set below fails if another came since.
            final long tail = (long)LONG.getVolatile(memory, TAIL_OFFSET);
            long room = room(tail, headCache, smallest);
            if (room < 0)
            {
                // Volatile: pairs with the consumer's release of head (its zeroing of the room is visible), and
                // after wantRoom's read-modify-write it is the second half of the Dekker pair with forEachRoomWanted.
                headCache = (long)LONG.getVolatile(memory, HEAD_OFFSET);
                room = room(tail, headCache, smallest);
                if (room < 0)
                {
                    return -1;
                }
            }
            final int index = (int)(tail & mask);
            final int padding = capacity - index < smallest ? capacity - index : 0;
            final int n = (int)Math.min(maxData, room - HEADER_BYTES - fixedBytes);
            final int length = HEADER_BYTES + fixedBytes + n;
            // Volatile compare-and-set: the room from tail on is this producer's if no other producer claimed first.
            if (LONG.compareAndSet(memory, TAIL_OFFSET, tail, tail + padding + QueueDescriptor.align(length)))
            {
                start(index, padding, kind, length);
                return n;
            }
        }
    }

    /**
     * Bytes a record may take at {@code tail} (after padding to the end, if the smallest record does
     * not fit before it), or -1 if not even {@code smallest} bytes are free.
     */
    private long room(final long tail, final long head, final long smallest)
    {
        final long free = capacity - (tail - head);
        final long toEnd = capacity - (tail & mask);
        if (toEnd >= smallest)
        {
            return free >= smallest ? Math.min(free, toEnd) : -1;
        }
        return free - toEnd >= smallest ? free - toEnd : -1;
    }

    /** Writes the padding (if any) and the header of a record just claimed at {@code index}. */
    private void start(final int index, final int padding, final int kind, final int length)
    {
        int at = index;
        if (padding > 0)
        {
            putHeader(at, KIND_PADDING);
            // Release: the padding record is complete (the consumer skips its room).
            INT.setRelease(memory, QueueDescriptor.lengthOffset(at), padding);
            at = 0;
        }
        putHeader(at, kind);
        // Opaque: the record is being written; commit's release store replaces this length with the positive one.
        INT.setOpaque(memory, QueueDescriptor.lengthOffset(at), -length);
        claimedIndex = at;
        claimedLength = length;
    }

    /** Offset in {@link #memory()} of the payload of the record claimed last. */
    long claimedPayload()
    {
        return QueueDescriptor.payloadOffset(claimedIndex);
    }

    /** Publishes the record claimed last to the consumer. */
    void commit()
    {
        final int index = checkClaimed();
        // Release: publishes the header and payload written since claim (plain stores) with the positive length.
        INT.setRelease(memory, QueueDescriptor.lengthOffset(index), claimedLength);
        claimedIndex = NOTHING_CLAIMED;
        committedRecords++;
    }

    /** Gives up the record claimed last (its payload could not be written): the consumer skips it as padding. */
    void abort()
    {
        final int index = checkClaimed();
        memory.set(ValueLayout.JAVA_SHORT, QueueDescriptor.kindOffset(index), (short)KIND_PADDING);
        // Release: publishes the padding kind with the positive length.
        INT.setRelease(memory, QueueDescriptor.lengthOffset(index), claimedLength);
        claimedIndex = NOTHING_CLAIMED;
    }

    /** Records this view has committed: it moves whenever this producer writes one. */
    long committedRecords()
    {
        return committedRecords;
    }

    /**
     * Asks the owner to ring this rank's doorbell once it has freed room: called when a claim
     * failed, and followed by another claim, which sees the room freed in the meantime.
     */
    void wantRoom()
    {
        // Volatile load: the bit may still be set from an earlier ask the owner has not answered.
        if (((long)LONG.getVolatile(memory, ownRoomWantedOffset) & ownRoomWantedBit) == 0)
        {
            // Volatile read-modify-write, a full fence: the next claim's volatile load of head cannot move before it.
            final long ignored = (long)LONG.getAndBitwiseOr(memory, ownRoomWantedOffset, ownRoomWantedBit);
        }
    }

    private int checkClaimed()
    {
        if (claimedIndex == NOTHING_CLAIMED)
        {
            throw new IllegalStateException("no record is claimed");
        }
        return claimedIndex;
    }

    private void putHeader(final int index, final int kind)
    {
        // Plain stores: published by the release store of the record's length.
        memory.set(ValueLayout.JAVA_SHORT, QueueDescriptor.kindOffset(index), (short)kind);
        memory.set(ValueLayout.JAVA_SHORT, QueueDescriptor.sourceOffset(index), ownRank);
    }

    // ---- consumer side ----

    /** What the consumer does with each record. */
    interface Reader
    {
        /** Handles a record from rank {@code source} whose payload is {@code length} bytes at {@code offset}. */
        void onRecord(int source, int kind, MemorySegment memory, long offset, int length);
    }

    /**
     * Hands the complete records at the head to {@code reader}, in order, up to the first one not
     * yet published and at most one lap of the data area (so that busy producers cannot keep the
     * owner from its own sends). Each record's room is zeroed and released after the reader has
     * returned, also when it throws.
     *
     * @return whether there was any record.
     * @throws XDevException if a record's length does not fit the queue (corrupted memory).
     */
    boolean poll(final Reader reader)
    {
        // Acquire: pairs with the producer's release in commit; header and payload are visible.
        int length = (int)INT.getAcquire(memory, QueueDescriptor.lengthOffset((int)(head & mask)));
        if (length <= 0)
        {
            return false;
        }
        final long lapEnd = head + capacity;
        do
        {
            final int index = (int)(head & mask);
            final int bytes = checkedRecordBytes(index, length);
            final int kind = Short.toUnsignedInt(memory.get(ValueLayout.JAVA_SHORT, QueueDescriptor.kindOffset(index)));
            final int source = Short.toUnsignedInt(memory.get(ValueLayout.JAVA_SHORT,
                QueueDescriptor.sourceOffset(index)));
            try
            {
                if (kind != KIND_PADDING)
                {
                    reader.onRecord(source, kind, memory, QueueDescriptor.payloadOffset(index), length - HEADER_BYTES);
                }
            }
            finally
            {
                // Plain stores: the next lap reads zero, "not written", here; published by the release of head.
                zero(QueueDescriptor.recordOffset(index), bytes);
                head += bytes;
                // Release: the record is read out and zeroed; producers may claim its room from now on.
                LONG.setRelease(memory, HEAD_OFFSET, head);
            }
            if (head >= lapEnd)
            {
                break;
            }
            // Acquire: as above, for the next record.
            length = (int)INT.getAcquire(memory, QueueDescriptor.lengthOffset((int)(head & mask)));
        }
        while (length > 0);
        return true;
    }

    /** Overwrites {@code bytes} bytes at {@code offset} with zeros. */
    private void zero(final long offset, final int bytes)
    {
        for (int done = 0; done < bytes; done += (int)ZEROS.byteSize())
        {
            MemorySegment.copy(ZEROS, 0, memory, offset + done, Math.min(bytes - done, ZEROS.byteSize()));
        }
    }

    /**
     * Hands each rank that asked for room ({@link #wantRoom}) to {@code wake}, once, and forgets its
     * ask: the owner calls it after a poll freed room.
     */
    void forEachRoomWanted(final IntConsumer wake)
    {
        // Full fence: the releases of head (poll) come before the loads below. With wantRoom's read-modify-write
        // before a producer's load of head, either the producer sees the room or this sees its bit (Dekker).
        VarHandle.fullFence();
        for (int word = 0; word < roomWantedWords; word++)
        {
            final long offset = roomWantedOffset + (long)word * Long.BYTES;
            // Volatile load first: most of the time nobody waits, and a load does not take the line from producers.
            if ((long)LONG.getVolatile(memory, offset) != 0)
            {
                // Volatile swap: a bit set after it stays set for the next call.
                long bits = (long)LONG.getAndSet(memory, offset, 0L);
                while (bits != 0)
                {
                    wake.accept(word * Long.SIZE + Long.numberOfTrailingZeros(bits));
                    bits &= bits - 1;
                }
            }
        }
    }

    /** Position up to which producers have claimed room (for tests and diagnostics). */
    long tailPosition()
    {
        return (long)LONG.getVolatile(memory, TAIL_OFFSET);
    }

    /** The consumer's position. */
    long headPosition()
    {
        return head;
    }

    private int checkedRecordBytes(final int index, final int length)
    {
        final long bytes = QueueDescriptor.align(length);
        if (length < HEADER_BYTES || bytes > capacity - index)
        {
            throw new XDevException("shm device: corrupted queue: a record of " + length + " bytes at position " +
                head + " (index " + index + " of " + capacity + ")");
        }
        return (int)bytes;
    }
}
