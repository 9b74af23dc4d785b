package xdev.shmdev;

/**
 * Layout of one {@link ShmRing}: a control block with the two positions, then the data area,
 * and the header of each record in it.
 *
 * <pre>
 *   0                                                                  128
 *   +--------------------------------------------------------------------+
 *   | tail (8): producer position in bytes, only grows; written by the   |  128 B
 *   | sender alone (release), read by the receiver (acquire)             |
 *   +--------------------------------------------------------------------+
 *   | head (8): consumer position in bytes, only grows; written by the   |  128 B
 *   | receiver alone (release), read by the sender (acquire)             |
 *   +--------------------------------------------------------------------+
 *   | data area: capacity bytes (a power of two); the record at position |  capacity B
 *   | p starts at p % capacity; records are 8-byte aligned and never     |
 *   | straddle the end (a padding record fills the rest instead)         |
 *   +--------------------------------------------------------------------+
 *
 *   record:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+
 *   |                     kind (0: padding)                         |
 *   +---------------------------------------------------------------+
 *   |                  length of the payload in bytes               |
 *   +---------------------------------------------------------------+
 *   |                  payload (length bytes), then zero to seven  ...
 *   ...                bytes up to the next 8-byte boundary           |
 *   +---------------------------------------------------------------+
 * </pre>
 *
 * A record is complete once the tail has moved past it: the producer writes header and payload
 * with plain stores and publishes them all with one release store of the tail. Each position
 * gets two cache lines: one against false sharing, one against the adjacent-line prefetcher.
 */
final class RingDescriptor
{
    /** Bytes reserved for each contended word. */
    static final int WORD_PAD_BYTES = 128;
    static final long TAIL_OFFSET;
    static final long HEAD_OFFSET;
    /** Bytes of the control block, ahead of the data area. */
    static final int CONTROL_BYTES;

    static final int KIND_OFFSET = 0;
    static final int LENGTH_OFFSET = 4;
    static final int HEADER_BYTES = 8;
    /** Every record starts at a multiple of this. */
    static final int RECORD_ALIGNMENT = 8;
    /** The kind of a record that only fills the room before the end of the data area. */
    static final int KIND_PADDING = 0;
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

    private RingDescriptor()
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

    /** Shared memory a ring of {@code capacity} bytes of data takes: control block and data area. */
    static long bytesFor(final int capacity)
    {
        checkCapacity(capacity);
        return CONTROL_BYTES + (long)capacity;
    }

    /** Offset in the ring's memory of the record at {@code index} of the data area. */
    static long recordOffset(final int index)
    {
        return CONTROL_BYTES + (long)index;
    }

    static long kindOffset(final int index)
    {
        return recordOffset(index) + KIND_OFFSET;
    }

    static long lengthOffset(final int index)
    {
        return recordOffset(index) + LENGTH_OFFSET;
    }

    static long payloadOffset(final int index)
    {
        return recordOffset(index) + HEADER_BYTES;
    }

    /** Room a record with {@code payloadBytes} of payload takes: header, payload, alignment. */
    static long recordBytes(final long payloadBytes)
    {
        return (HEADER_BYTES + payloadBytes + RECORD_ALIGNMENT - 1) & -RECORD_ALIGNMENT;
    }
}
