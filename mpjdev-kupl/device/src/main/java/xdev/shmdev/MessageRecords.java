package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The records the shm device writes into a queue ({@link ShmRing}), after the ring's own record
 * header ({@link RingDescriptor}): what each kind carries and where. It encodes and decodes
 * records only; what a record means for a request is the protocol's business
 * ({@link SendStateMachine}, {@link MessageProtocol}).
 *
 * <pre>
 *   envelope (EAGER, RENDEZVOUS): 40 bytes, then, for an eager message, its first bytes
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+
 *   |  0 sequence                     |  4 tag                        |
 *   |  8 context                      | 12 static bytes               |
 *   | 16 dynamic bytes                | 20 numEls                     |
 *   | 24 type code (-1: empty)        | 28 flags (1: SYNCHRONOUS)     |
 *   | 32 sender's address of the static bytes (8; 0: no direct read)  |
 *   +---------------------------------------------------------------+
 *   data (DATA):                         0 sequence | 4 padding | 8 message bytes (16-byte aligned)
 *   control (CLEAR_TO_SEND, ACK, READ):  0 sequence | 4 padding
 * </pre>
 *
 * A sequence numbers a sender's messages to one receiver; data and control records name the
 * message they belong to by it. Every record is at most {@link ShmDevice#CHUNK_BYTES} long.
 */
final class MessageRecords
{
    static final int KIND_EAGER = 1;
    static final int KIND_RENDEZVOUS = 2;
    static final int KIND_DATA = 3;
    static final int KIND_CLEAR_TO_SEND = 4;
    static final int KIND_ACK = 5;
    /** The receiver has read a rendezvous message straight from the sender's memory. */
    static final int KIND_READ = 6;

    static final int ENVELOPE_BYTES = 40;
    /** Data and control fields: sequence and padding, so that data starts 16-byte aligned. */
    static final int SEQUENCE_BYTES = 8;

    static final long SEQUENCE_OFFSET = 0;
    static final long TAG_OFFSET = 4;
    static final long CONTEXT_OFFSET = 8;
    static final long STATIC_BYTES_OFFSET = 12;
    static final long DYNAMIC_BYTES_OFFSET = 16;
    static final long NUM_ELS_OFFSET = 20;
    static final long TYPE_CODE_OFFSET = 24;
    static final long FLAGS_OFFSET = 28;
    static final long SENDER_ADDRESS_OFFSET = 32;
    static final int FLAG_SYNCHRONOUS = 1;

    /**
     * Data per record, so that a full record (header, fields, data) is exactly
     * {@link ShmDevice#CHUNK_BYTES}: a whole number of them fills the queue, and records never
     * straddle its end, which would cut them into pieces and padding.
     */
    static final int MAX_RECORD_DATA = ShmDevice.CHUNK_BYTES - RingDescriptor.HEADER_BYTES - SEQUENCE_BYTES;
    static final int MAX_ENVELOPE_DATA = ShmDevice.CHUNK_BYTES - RingDescriptor.HEADER_BYTES - ENVELOPE_BYTES;
    /** A data record is not split smaller than this when the queue is nearly full. */
    static final int MIN_PIECE_BYTES = 4096;

    private MessageRecords()
    {
    }

    /**
     * Writes the envelope of {@code send}, with its first bytes if {@code kind} is eager.
     *
     * @param senderAddress where the receiver may read the static section directly, or 0.
     * @return how many bytes of the payload it carries, or -1 if the queue is full (nothing written).
     */
    static int writeEnvelope(final ShmRing ring, final int kind, final SendRequest send, final long senderAddress)
    {
        final long total = send.totalBytes();
        final int inline = kind == KIND_EAGER ? (int)Math.min(total, MAX_ENVELOPE_DATA) : 0;
        final int n = ring.claim(kind, ENVELOPE_BYTES, inline, Math.min(inline, MIN_PIECE_BYTES));
        if (n < 0)
        {
            return -1;
        }
        final MemorySegment memory = ring.memory();
        final long at = ring.claimedPayload();
        // Plain stores: the ring's commit publishes them with its release of the tail.
        memory.set(ValueLayout.JAVA_INT, at + SEQUENCE_OFFSET, send.sequence);
        memory.set(ValueLayout.JAVA_INT, at + TAG_OFFSET, send.tag);
        memory.set(ValueLayout.JAVA_INT, at + CONTEXT_OFFSET, send.context);
        memory.set(ValueLayout.JAVA_INT, at + STATIC_BYTES_OFFSET, send.bytes.staticBytes());
        memory.set(ValueLayout.JAVA_INT, at + DYNAMIC_BYTES_OFFSET, send.bytes.dynamicBytes());
        memory.set(ValueLayout.JAVA_INT, at + NUM_ELS_OFFSET, send.bytes.numEls());
        memory.set(ValueLayout.JAVA_INT, at + TYPE_CODE_OFFSET, send.bytes.typeCode());
        memory.set(ValueLayout.JAVA_INT, at + FLAGS_OFFSET, send.synchronous ? FLAG_SYNCHRONOUS : 0);
        memory.set(ValueLayout.JAVA_LONG, at + SENDER_ADDRESS_OFFSET, senderAddress);
        if (n > 0)
        {
            send.bytes.copyTo(0, memory, at + ENVELOPE_BYTES, n);
        }
        ring.commit();
        return n;
    }

    /**
     * Writes one data record with the bytes of {@code send} from payload position {@code from}:
     * as many as fit, up to {@link #MAX_RECORD_DATA}.
     *
     * @return how many bytes it carries, or -1 if the queue is full (nothing written).
     */
    static int writeData(final ShmRing ring, final SendRequest send, final long from)
    {
        final int want = (int)Math.min(send.totalBytes() - from, MAX_RECORD_DATA);
        final int n = ring.claim(KIND_DATA, SEQUENCE_BYTES, want, Math.min(want, MIN_PIECE_BYTES));
        if (n < 0)
        {
            return -1;
        }
        final long at = ring.claimedPayload();
        ring.memory().set(ValueLayout.JAVA_INT, at + SEQUENCE_OFFSET, send.sequence);
        send.bytes.copyTo(from, ring.memory(), at + SEQUENCE_BYTES, n);
        ring.commit();
        return n;
    }

    /** Writes a control record about message {@code sequence}; false if the queue is full. */
    static boolean writeControl(final ShmRing ring, final int kind, final int sequence)
    {
        if (ring.claim(kind, SEQUENCE_BYTES, 0, 0) < 0)
        {
            return false;
        }
        ring.memory().set(ValueLayout.JAVA_INT, ring.claimedPayload() + SEQUENCE_OFFSET, sequence);
        ring.commit();
        return true;
    }

    /** The message a record at {@code offset} belongs to (every kind starts with it). */
    static int sequence(final MemorySegment memory, final long offset)
    {
        return memory.get(ValueLayout.JAVA_INT, offset + SEQUENCE_OFFSET);
    }

    /** The message an envelope record at {@code offset} announces, from {@code source}. */
    static Incoming readEnvelope(final int source, final int kind, final MemorySegment memory, final long offset)
    {
        return new Incoming(source, sequence(memory, offset),
            memory.get(ValueLayout.JAVA_INT, offset + TAG_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + CONTEXT_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + STATIC_BYTES_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + DYNAMIC_BYTES_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + NUM_ELS_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + TYPE_CODE_OFFSET),
            (memory.get(ValueLayout.JAVA_INT, offset + FLAGS_OFFSET) & FLAG_SYNCHRONOUS) != 0,
            kind == KIND_RENDEZVOUS,
            memory.get(ValueLayout.JAVA_LONG, offset + SENDER_ADDRESS_OFFSET));
    }
}
