package xdev.shmdev;

import xdev.XDevException;

/**
 * The eager/rendezvous protocol of one send, as an explicit state machine: every record written
 * for it and every record its receiver answers with is an event, and an event the current phase
 * does not allow is an {@link XDevException} naming the peer, the message's sequence number and
 * the phase (a corrupted queue or a protocol bug, never a silent wrong state).
 *
 * <pre>
 *   eager:       ENVELOPE_QUEUED --envelopeWritten--> WRITING_DATA --dataWritten (last bytes)--> WRITTEN
 *                (an envelope that carries every byte goes straight to WRITTEN)
 *                acknowledged: synchronous sends only, once, in WRITING_DATA or WRITTEN
 *   rendezvous:  ENVELOPE_QUEUED --envelopeWritten--> AWAITING_RECEIVER --clearToSend--> WRITING_DATA
 *                AWAITING_RECEIVER --readDirectly--> WRITTEN;  WRITING_DATA --dataWritten (last)--> WRITTEN
 *   to itself:   ENVELOPE_QUEUED --deliveredLocally--> WRITTEN (then acknowledged when matched)
 * </pre>
 *
 * Finished (the request completes) in WRITTEN, once acknowledged if it is a synchronous eager
 * send: the rendezvous reply (clear-to-send or read) is itself the receiver's match.
 */
final class SendStateMachine
{
    /** Where a send is in its protocol. */
    enum Phase
    {
        /** Nothing written yet: the envelope waits for room in the queue. */
        ENVELOPE_QUEUED,
        /** Rendezvous envelope written; waiting for the receiver to match it. */
        AWAITING_RECEIVER,
        /** Bytes are being written: an eager message's in data records, a rendezvous one's into the staging ring. */
        WRITING_DATA,
        /** Every byte is in the queue or the ring, or was read by the receiver: the buffer is free. */
        WRITTEN
    }

    private int peer;
    private int sequence;
    private boolean synchronous;
    private boolean rendezvous;
    private long totalBytes;
    private Phase phase;
    private long written;
    private boolean acknowledged;

    SendStateMachine(final int peer, final int sequence, final boolean synchronous, final boolean rendezvous,
        final long totalBytes)
    {
        restart(peer, sequence, synchronous, rendezvous, totalBytes);
    }

    /** The protocol of a new send, from its start: a reused request's ({@link SendRequest#restart}). */
    void restart(final int peer, final int sequence, final boolean synchronous, final boolean rendezvous,
        final long totalBytes)
    {
        this.peer = peer;
        this.sequence = sequence;
        this.synchronous = synchronous;
        this.rendezvous = rendezvous;
        this.totalBytes = totalBytes;
        this.phase = Phase.ENVELOPE_QUEUED;
        this.written = 0;
        this.acknowledged = false;
    }

    Phase phase()
    {
        return phase;
    }

    /** Payload bytes written so far (static then dynamic section). */
    long written()
    {
        return written;
    }

    /** Whether the request may complete: its buffer is free and a synchronous send was matched. */
    boolean isFinished()
    {
        return phase == Phase.WRITTEN && (acknowledged || !synchronous || rendezvous);
    }

    /** The envelope is in the queue, with the first {@code inlineBytes} of an eager message. */
    void envelopeWritten(final int inlineBytes)
    {
        expect(Phase.ENVELOPE_QUEUED, "envelope written");
        if (rendezvous ? inlineBytes != 0 : inlineBytes < 0 || inlineBytes > totalBytes)
        {
            throw illegal("envelope written with " + inlineBytes + " bytes");
        }
        written = inlineBytes;
        phase = rendezvous ? Phase.AWAITING_RECEIVER : written == totalBytes ? Phase.WRITTEN : Phase.WRITING_DATA;
    }

    /** A data record with the next {@code bytes} of the payload is in the queue. */
    void dataWritten(final int bytes)
    {
        expect(Phase.WRITING_DATA, "data written");
        if (bytes <= 0 || written + bytes > totalBytes)
        {
            throw illegal("data record of " + bytes + " bytes written after " + written);
        }
        written += bytes;
        if (written == totalBytes)
        {
            phase = Phase.WRITTEN;
        }
    }

    /** The receiver matched a rendezvous message and asks for its bytes. */
    void clearToSend()
    {
        expectRendezvous("clear-to-send");
        expect(Phase.AWAITING_RECEIVER, "clear-to-send");
        phase = Phase.WRITING_DATA;
    }

    /** The receiver matched a rendezvous message and read its bytes straight from this process. */
    void readDirectly()
    {
        expectRendezvous("read");
        expect(Phase.AWAITING_RECEIVER, "read");
        written = totalBytes;
        phase = Phase.WRITTEN;
    }

    /** The receiver matched a synchronous eager message. */
    void acknowledged()
    {
        if (rendezvous || !synchronous || acknowledged ||
            phase != Phase.WRITING_DATA && phase != Phase.WRITTEN)
        {
            throw illegal("acknowledgement");
        }
        acknowledged = true;
    }

    /** The message went to this very process, its bytes copied there at once. */
    void deliveredLocally()
    {
        expect(Phase.ENVELOPE_QUEUED, "local delivery");
        written = totalBytes;
        phase = Phase.WRITTEN;
    }

    private void expectRendezvous(final String event)
    {
        if (!rendezvous)
        {
            throw illegal(event);
        }
    }

    private void expect(final Phase expected, final String event)
    {
        if (phase != expected)
        {
            throw illegal(event);
        }
    }

    private XDevException illegal(final String event)
    {
        return new XDevException("shm device: " + event + " is not allowed for message " + sequence + " to rank " +
            peer + " in phase " + phase + " (" + (synchronous ? "synchronous " : "") +
            (rendezvous ? "rendezvous" : "eager") + ", " + written + " of " + totalBytes + " bytes written" +
            (acknowledged ? ", acknowledged" : "") + "): corrupted queue or protocol error");
    }

    @Override
    public String toString()
    {
        return "send " + sequence + " to rank " + peer + " in " + phase;
    }
}
