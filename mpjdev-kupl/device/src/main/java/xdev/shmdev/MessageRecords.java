package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The records the shm device writes into a queue ({@link ShmRing}), after the ring's own record
 * header: what each kind carries and where.
 *
 * <pre>
 *   envelope (EAGER, RENDEZVOUS): 40 bytes, then, for an eager message, its first bytes
 *     0 sequence | 4 tag | 8 context | 12 static bytes | 16 dynamic bytes | 20 numEls
 *     24 type code | 28 flags (SYNCHRONOUS) | 32 sender's address of the static bytes (8; 0: no direct read)
 *   data (DATA): 0 sequence | 4 padding | 8 message bytes (16-byte aligned)
 *   control (CLEAR_TO_SEND, ACK, READ): 0 sequence | 4 padding
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

    private static final long TAG_OFFSET = 4;
    private static final long CONTEXT_OFFSET = 8;
    private static final long STATIC_BYTES_OFFSET = 12;
    private static final long DYNAMIC_BYTES_OFFSET = 16;
    private static final long NUM_ELS_OFFSET = 20;
    private static final long TYPE_CODE_OFFSET = 24;
    private static final long FLAGS_OFFSET = 28;
    private static final long SENDER_ADDRESS_OFFSET = 32;
    private static final int FLAG_SYNCHRONOUS = 1;

    /**
     * Data per record, so that a full record (header, fields, data) is exactly
     * {@link ShmDevice#CHUNK_BYTES}: a whole number of them fills the queue, and records never
     * straddle its end, which would cut them into pieces and padding.
     */
    private static final int MAX_RECORD_DATA = ShmDevice.CHUNK_BYTES - ShmRing.HEADER_BYTES - SEQUENCE_BYTES;
    private static final int MAX_ENVELOPE_DATA = ShmDevice.CHUNK_BYTES - ShmRing.HEADER_BYTES - ENVELOPE_BYTES;
    /** A data record is not split smaller than this when the queue is nearly full. */
    private static final int MIN_PIECE_BYTES = 4096;

    private MessageRecords()
    {
    }

    /**
     * Writes the envelope of {@code send} (with its first bytes, if eager), then, if eager, the rest.
     *
     * @param directReads whether the receiver may read the bytes straight from this process.
     * @return false if the queue is full: call again later, it goes on where it stopped.
     */
    static boolean writeEnvelope(final ShmRing ring, final int kind, final SendRequest send, final boolean directReads)
    {
        if (!send.envelopeWritten)
        {
            final long total = send.totalBytes();
            final int inline = kind == KIND_EAGER ? (int)Math.min(total, MAX_ENVELOPE_DATA) : 0;
            final int n = ring.claim(kind, ENVELOPE_BYTES, inline, Math.min(inline, MIN_PIECE_BYTES));
            if (n < 0)
            {
                return false;
            }
            final MemorySegment memory = ring.memory();
            final long at = ring.claimedPayload();
            memory.set(ValueLayout.JAVA_INT, at, send.sequence);
            memory.set(ValueLayout.JAVA_INT, at + TAG_OFFSET, send.tag);
            memory.set(ValueLayout.JAVA_INT, at + CONTEXT_OFFSET, send.context);
            memory.set(ValueLayout.JAVA_INT, at + STATIC_BYTES_OFFSET, send.staticBytes);
            memory.set(ValueLayout.JAVA_INT, at + DYNAMIC_BYTES_OFFSET, send.dynamicBytes);
            memory.set(ValueLayout.JAVA_INT, at + NUM_ELS_OFFSET, send.numEls);
            memory.set(ValueLayout.JAVA_INT, at + TYPE_CODE_OFFSET, send.typeCode);
            memory.set(ValueLayout.JAVA_INT, at + FLAGS_OFFSET, send.synchronous ? FLAG_SYNCHRONOUS : 0);
            memory.set(ValueLayout.JAVA_LONG, at + SENDER_ADDRESS_OFFSET, directReads ? send.staticAddress() : 0);
            if (n > 0)
            {
                send.copyPayload(0, memory, at + ENVELOPE_BYTES, n);
            }
            ring.commit();
            send.written = n;
            send.envelopeWritten = true;
        }
        // The rest of an eager message follows at once; a rendezvous one waits for clear-to-send.
        return kind == KIND_RENDEZVOUS || writeData(ring, send);
    }

    /** Writes what is left of {@code send}'s bytes in data records; false if the queue filled up first. */
    static boolean writeData(final ShmRing ring, final SendRequest send)
    {
        final long total = send.totalBytes();
        while (send.written < total)
        {
            final int want = (int)Math.min(total - send.written, MAX_RECORD_DATA);
            final int n = ring.claim(KIND_DATA, SEQUENCE_BYTES, want, Math.min(want, MIN_PIECE_BYTES));
            if (n < 0)
            {
                return false;
            }
            final long at = ring.claimedPayload();
            ring.memory().set(ValueLayout.JAVA_INT, at, send.sequence);
            send.copyPayload(send.written, ring.memory(), at + SEQUENCE_BYTES, n);
            ring.commit();
            send.written += n;
        }
        return true;
    }

    /** Writes a control record about message {@code sequence}; false if the queue is full. */
    static boolean writeControl(final ShmRing ring, final int kind, final int sequence)
    {
        if (ring.claim(kind, SEQUENCE_BYTES, 0, 0) < 0)
        {
            return false;
        }
        ring.memory().set(ValueLayout.JAVA_INT, ring.claimedPayload(), sequence);
        ring.commit();
        return true;
    }

    /** The message a record at {@code offset} belongs to (every kind starts with it). */
    static int sequence(final MemorySegment memory, final long offset)
    {
        return memory.get(ValueLayout.JAVA_INT, offset);
    }

    /** The message an envelope record at {@code offset} announces, from {@code source}. */
    static Incoming readEnvelope(final int source, final int kind, final MemorySegment memory, final long offset)
    {
        final Incoming message = new Incoming(source, sequence(memory, offset),
            memory.get(ValueLayout.JAVA_INT, offset + TAG_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + CONTEXT_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + STATIC_BYTES_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + DYNAMIC_BYTES_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + NUM_ELS_OFFSET),
            memory.get(ValueLayout.JAVA_INT, offset + TYPE_CODE_OFFSET),
            (memory.get(ValueLayout.JAVA_INT, offset + FLAGS_OFFSET) & FLAG_SYNCHRONOUS) != 0,
            kind == KIND_RENDEZVOUS);
        message.senderAddress = memory.get(ValueLayout.JAVA_LONG, offset + SENDER_ADDRESS_OFFSET);
        return message;
    }
}
