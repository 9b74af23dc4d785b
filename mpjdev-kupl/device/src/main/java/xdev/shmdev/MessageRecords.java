package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The records the shm device writes into a queue ({@link ShmQueue}), after the queue's own record
 * header ({@link QueueDescriptor}): what each kind carries and where. It encodes and decodes
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
 *   | 24 type code (-1: empty)        | 28 flags (1: SYNCHRONOUS, 2: ELEMENTS)|
 *   | 32 sender's address of the static bytes (8; 0: no direct read)  |
 *   +---------------------------------------------------------------+
 *   data (DATA):                         0 sequence | 4 padding | 8 message bytes (16-byte aligned)
 *   control (CLEAR_TO_SEND, ACK, READ):  0 sequence | 4 padding
 * </pre>
 *
 * An ELEMENTS message carries its elements as they lie in the sender's Java array (native byte
 * order, no section header: {@link ElementReceive}); any other carries an {@code mpjbuf.Buffer}'s
 * static and dynamic sections as MPJ Express packed them. A sequence numbers a sender's messages to one receiver; data and control records name the
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
    /** The static bytes are a Java array's elements, not an {@code mpjbuf} section ({@link MessageBytes#elements}). */
    static final int FLAG_ELEMENTS = 2;

    /**
     * Data per record, so that a full record (header, fields, data) is exactly
     * {@link ShmDevice#CHUNK_BYTES}: with one sender streaming, a whole number of them fills the
     * queue and none is cut short at its end.
     */
    static final int MAX_RECORD_DATA = ShmDevice.CHUNK_BYTES - QueueDescriptor.HEADER_BYTES - SEQUENCE_BYTES;
    static final int MAX_ENVELOPE_DATA = ShmDevice.CHUNK_BYTES - QueueDescriptor.HEADER_BYTES - ENVELOPE_BYTES;
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
    static int writeEnvelope(final ShmQueue queue, final int kind, final SendRequest send, final long senderAddress)
    {
        final long total = send.totalBytes();
        final int inline = kind == KIND_EAGER ? (int)Math.min(total, MAX_ENVELOPE_DATA) : 0;
        final int n = queue.claim(kind, ENVELOPE_BYTES, inline, Math.min(inline, MIN_PIECE_BYTES));
        if (n < 0)
        {
            return -1;
        }
        final MemorySegment memory = queue.memory();
        final long at = queue.claimedPayload();
        // Plain stores: the queue's commit publishes them with its release of the length.
        memory.set(ValueLayout.JAVA_INT, at + SEQUENCE_OFFSET, send.sequence);
        memory.set(ValueLayout.JAVA_INT, at + TAG_OFFSET, send.tag);
        memory.set(ValueLayout.JAVA_INT, at + CONTEXT_OFFSET, send.context);
        memory.set(ValueLayout.JAVA_INT, at + STATIC_BYTES_OFFSET, send.bytes.staticBytes());
        memory.set(ValueLayout.JAVA_INT, at + DYNAMIC_BYTES_OFFSET, send.bytes.dynamicBytes());
        memory.set(ValueLayout.JAVA_INT, at + NUM_ELS_OFFSET, send.bytes.numEls());
        memory.set(ValueLayout.JAVA_INT, at + TYPE_CODE_OFFSET, send.bytes.typeCode());
        memory.set(ValueLayout.JAVA_INT, at + FLAGS_OFFSET, (send.synchronous ? FLAG_SYNCHRONOUS : 0) |
            (send.bytes.elements() ? FLAG_ELEMENTS : 0));
        memory.set(ValueLayout.JAVA_LONG, at + SENDER_ADDRESS_OFFSET, senderAddress);
        copyOrAbort(queue, send, 0, at + ENVELOPE_BYTES, n);
        queue.commit();
        return n;
    }

    /**
     * Writes one data record with the bytes of {@code send} from payload position {@code from}:
     * as many as fit, up to {@link #MAX_RECORD_DATA}.
     *
     * @return how many bytes it carries, or -1 if the queue is full (nothing written).
     */
    static int writeData(final ShmQueue queue, final SendRequest send, final long from)
    {
        final int want = (int)Math.min(send.totalBytes() - from, MAX_RECORD_DATA);
        final int n = queue.claim(KIND_DATA, SEQUENCE_BYTES, want, Math.min(want, MIN_PIECE_BYTES));
        if (n < 0)
        {
            return -1;
        }
        final long at = queue.claimedPayload();
        queue.memory().set(ValueLayout.JAVA_INT, at + SEQUENCE_OFFSET, send.sequence);
        copyOrAbort(queue, send, from, at + SEQUENCE_BYTES, n);
        queue.commit();
        return n;
    }

    /**
     * Copies {@code n} bytes of {@code send} from payload position {@code from} into the claimed
     * record; if that fails, gives the record up first, since a claimed record that is never
     * published would stop the receiver's queue for good.
     */
    private static void copyOrAbort(final ShmQueue queue, final SendRequest send, final long from, final long at,
        final int n)
    {
        if (n == 0)
        {
            return;
        }
        try
        {
            send.bytes.copyTo(from, queue.memory(), at, n);
        }
        catch (final RuntimeException | Error e)
        {
            queue.abort();
            throw e;
        }
    }

    /** Writes a control record about message {@code sequence}; false if the queue is full. */
    static boolean writeControl(final ShmQueue queue, final int kind, final int sequence)
    {
        if (queue.claim(kind, SEQUENCE_BYTES, 0, 0) < 0)
        {
            return false;
        }
        queue.memory().set(ValueLayout.JAVA_INT, queue.claimedPayload() + SEQUENCE_OFFSET, sequence);
        queue.commit();
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
        return readEnvelope(null, source, kind, memory, offset);
    }

    /** As {@link #readEnvelope(int, int, MemorySegment, long)}, into {@code spare} (an Incoming done with) if not null. */
    static Incoming readEnvelope(final Incoming spare, final int source, final int kind, final MemorySegment memory,
        final long offset)
    {
        final Incoming message = spare != null ? spare : new Incoming(0, 0, 0, 0, 0, 0, 0, -1, false, false, false, 0);
        final int flags = memory.get(ValueLayout.JAVA_INT, offset + FLAGS_OFFSET);
        message.reset(source, sequence(memory, offset),
            memory.get(ValueLayout.JAVA_INT, offset + TAG_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + CONTEXT_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + STATIC_BYTES_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + DYNAMIC_BYTES_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + NUM_ELS_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + TYPE_CODE_OFFSET),
            (flags & FLAG_SYNCHRONOUS) != 0,
            (flags & FLAG_ELEMENTS) != 0,
            kind == KIND_RENDEZVOUS,
            memory.get(ValueLayout.JAVA_LONG, offset + SENDER_ADDRESS_OFFSET));
        return message;
    }
}
