package xdev.shmdev;

/**
 * Layout of one {@link ShmQueue}, the many-producer single-consumer queue into which every rank
 * writes what it has for the queue's owner: a control block with the two positions, the data
 * area, the room-wanted words, and the header of each record.
 *
 * <pre>
 *   0                                                                  128
 *   +--------------------------------------------------------------------+
 *   | tail (8): position up to which producers have claimed room, in     |  128 B
 *   | bytes, only grows; each producer claims with a compare-and-set     |
 *   +--------------------------------------------------------------------+
 *   | head (8): consumer position in bytes, only grows; written by the   |  128 B
 *   | owner alone (release), read by producers (acquire)                 |
 *   +--------------------------------------------------------------------+
 *   | data area: capacity bytes (a power of two); the record at position |  capacity B
 *   | p starts at p % capacity; records are 8-byte aligned and never     |
 *   | straddle the end (a padding record fills the rest instead); every  |
 *   | byte ahead of the head is zero until a producer writes it          |
 *   +--------------------------------------------------------------------+
 *   | room wanted: one bit per rank (bit r % 64 of word r / 64), set by  |  multiple of 128 B
 *   | a producer that found no room, cleared by the owner when it has    |
 *   | freed room and rung that rank's doorbell                           |
 *   +--------------------------------------------------------------------+
 *
 *   record:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+
 *   |    length of the record in bytes, header included (see below)  |
 *   +-------------------------------+-------------------------------+
 *   |        kind (0: padding)      |  source: the producer's rank  |
 *   +-------------------------------+-------------------------------+
 *   |            payload (length - 8 bytes), then zero to seven    ...
 *   ...          bytes up to the next 8-byte boundary                |
 *   +---------------------------------------------------------------+
 * </pre>
 *
 * The length says where a record stands (Agrona's {@code ManyToOneRingBuffer} protocol): zero,
 * not claimed or not yet begun; negative, being written; positive, complete. The producer
 * publishes header and payload with one release store of the positive length, and the consumer
 * zeroes a record's room before it releases it, so that the next lap again reads zero there.
 * Each position gets two cache lines: one against false sharing, one against the adjacent-line
 * prefetcher.
 */
final class QueueDescriptor
{
    /** Bytes reserved for each contended word. */
    static final int WORD_PAD_BYTES = 128;
    static final long TAIL_OFFSET;
    static final long HEAD_OFFSET;
    /** Bytes of the control block, ahead of the data area. */
    static final int CONTROL_BYTES;

    static final int LENGTH_OFFSET = 0;
    static final int KIND_OFFSET = 4;
    static final int SOURCE_OFFSET = 6;
    static final int HEADER_BYTES = 8;
    /** Every record starts at a multiple of this. */
    static final int RECORD_ALIGNMENT = 8;
    /** The kind of a record that only fills the room before the end of the data area (or an abandoned claim). */
    static final int KIND_PADDING = 0;
    /** Kinds are 16-bit fields. */
    static final int MAX_KIND = 0xFFFF;
    /** Sources are unsigned 16-bit fields: a queue takes records from at most this many ranks. */
    static final int MAX_PRODUCERS = 1 << 16;
    /** The smallest data area: room for a few records. */
    static final int MIN_CAPACITY = 64;

    static
    {
        int offset = 0;
        TAIL_OFFSET = offset;
        offset += WORD_PAD_BYTES;
        HEAD_OFFSET = offset;
        offset += WORD_PAD_BYTES;
        CONTROL_BYTES = offset;
    }

    private QueueDescriptor()
    {
    }

    /**
     * Checks a data-area size.
     *
     * @throws IllegalArgumentException naming the value, if it is not a power of two of at least
     *         {@value #MIN_CAPACITY}.
     */
    static void checkCapacity(final int capacity)
    {
        if (Integer.bitCount(capacity) != 1 || capacity < MIN_CAPACITY)
        {
            throw new IllegalArgumentException("capacity=" + capacity + " must be a power of two of at least " +
                MIN_CAPACITY);
        }
    }

    /**
     * Checks the number of ranks that may write into one queue.
     *
     * @throws IllegalArgumentException naming the value, if it is not 1 to {@value #MAX_PRODUCERS}.
     */
    static void checkProducers(final int producers)
    {
        if (producers < 1 || producers > MAX_PRODUCERS)
        {
            throw new IllegalArgumentException("ranks=" + producers + " must be 1 to " + MAX_PRODUCERS +
                " (a record names its sender in 16 bits)");
        }
    }

    /** Offset of the room-wanted words, after the data area of {@code capacity} bytes. */
    static long roomWantedOffset(final int capacity)
    {
        return CONTROL_BYTES + (long)capacity;
    }

    /** Number of 64-bit room-wanted words for {@code producers} ranks. */
    static int roomWantedWords(final int producers)
    {
        return (producers + Long.SIZE - 1) / Long.SIZE;
    }

    /** Bytes of the room-wanted words, rounded up to whole pairs of cache lines. */
    static long roomWantedBytes(final int producers)
    {
        final long bytes = (long)roomWantedWords(producers) * Long.BYTES;
        return (bytes + WORD_PAD_BYTES - 1) / WORD_PAD_BYTES * WORD_PAD_BYTES;
    }

    /**
     * Shared memory a queue of {@code capacity} bytes of data for {@code producers} ranks takes:
     * control block, data area and room-wanted words.
     */
    static long bytesFor(final int capacity, final int producers)
    {
        checkCapacity(capacity);
        checkProducers(producers);
        return roomWantedOffset(capacity) + roomWantedBytes(producers);
    }

    /** Offset in the queue's memory of the record at {@code index} of the data area. */
    static long recordOffset(final int index)
    {
        return CONTROL_BYTES + (long)index;
    }

    static long lengthOffset(final int index)
    {
        return recordOffset(index) + LENGTH_OFFSET;
    }

    static long kindOffset(final int index)
    {
        return recordOffset(index) + KIND_OFFSET;
    }

    static long sourceOffset(final int index)
    {
        return recordOffset(index) + SOURCE_OFFSET;
    }

    static long payloadOffset(final int index)
    {
        return recordOffset(index) + HEADER_BYTES;
    }

    /** Room a record with {@code payloadBytes} of payload takes: header, payload, alignment. */
    static long recordBytes(final long payloadBytes)
    {
        return align(HEADER_BYTES + payloadBytes);
    }

    /** {@code length} rounded up to the record alignment. */
    static long align(final long length)
    {
        return (length + RECORD_ALIGNMENT - 1) & -RECORD_ALIGNMENT;
    }
}
