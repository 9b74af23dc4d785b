package xdev.shmdev;

import java.util.ArrayDeque;
import java.util.BitSet;

import kupl.Doorbell;
import xdev.XDevException;

/**
 * The bytes of rendezvous messages, pipelined through the receivers' {@link RendezvousRing}s: the
 * sender copies a piece into the ring while the receiver copies the previous one out, so that on
 * two cores a large message costs about one copy's time, in {@link #PIECE_BYTES} pieces that stay
 * in cache.
 *
 * <p><b>Receiving.</b> This rank's area serves one message at a time: the first matched
 * rendezvous message is granted it ({@link #offer} returns true and the protocol answers
 * clear-to-send); the next wait, in match order, until it is done ({@link #grantNext}).
 * {@link #readInbound} copies what has been filled into the message's receive buffer.
 *
 * <p><b>Sending.</b> On clear-to-send a send starts ({@link #startSending}); {@link #writeOutbound}
 * copies the next pieces into its receiver's ring while it has room, and completes the send once
 * every byte is written (its buffer is then free, as after an eager send: a message that fits the
 * ring does not wait for its receiver to copy it out).
 *
 * <p>Each side rings the other's doorbell (only if it sleeps) after publishing what the other
 * waits for: bytes written, or room freed. Nothing here waits. A pass with nothing in flight
 * costs two checks, whatever the number of ranks. Used under the device's lock.
 */
final class StagedTransfers
{
    /**
     * Most bytes copied between two publications of a counter: 64 KiB, well inside a core's L2
     * cache, so that the bytes the sender has just written are still cached when the receiver
     * copies them out, and large enough that a counter update and a doorbell check cost little
     * beside the copy.
     */
    static final int PIECE_BYTES = ShmDevice.CHUNK_BYTES;

    private final int ownRank;
    private final RendezvousRing inbox;
    /** Each peer's area, as this rank writes into it (its own entry unused). */
    private final RendezvousRing[] peerAreas;
    private final Doorbell[] bells;
    private final Completions completions;
    /** The message granted this rank's area, or null when it is free. */
    private Incoming receiving;
    /** Matched rendezvous messages waiting for this rank's area, in match order. */
    private final ArrayDeque<Incoming> waiting = new ArrayDeque<>();
    /** Bytes copied out of this rank's area so far (its {@code drained} word, which only this rank writes). */
    private long drained;
    /** Per destination, the send writing into its area, or null. */
    private final SendRequest[] sending;
    /** Per destination, the position in its ring of the next byte the send writes. */
    private final long[] filled;
    /** The destinations whose entry of {@link #sending} is set. */
    private final BitSet destinations;

    /**
     * @param areas each rank's staging area, this rank's included.
     * @param bells each rank's doorbell, this rank's included.
     */
    StagedTransfers(final int ownRank, final RendezvousRing[] areas, final Doorbell[] bells,
        final Completions completions)
    {
        this.ownRank = ownRank;
        this.inbox = areas[ownRank];
        this.peerAreas = areas.clone();
        this.bells = bells.clone();
        this.completions = completions;
        this.drained = inbox.drainedAcquire();
        this.sending = new SendRequest[areas.length];
        this.filled = new long[areas.length];
        this.destinations = new BitSet(areas.length);
    }

    // ---- receiving ----

    /**
     * Grants this rank's area to {@code message} (a matched rendezvous message) if it is free.
     *
     * @return true if its sender may be cleared to send now; false if it waits for {@link #grantNext}.
     */
    boolean offer(final Incoming message)
    {
        if (receiving == null)
        {
            receiving = message;
            return true;
        }
        waiting.add(message);
        return false;
    }

    /** The message granted this rank's area, or null. */
    Incoming receiving()
    {
        return receiving;
    }

    /**
     * Copies the bytes written so far into the granted message's receive buffer.
     *
     * @return whether anything was copied.
     */
    boolean readInbound()
    {
        final Incoming message = receiving;
        if (message == null)
        {
            return false;
        }
        final long written = inbox.filledAcquire();
        if (written == drained)
        {
            return false;
        }
        if (written - drained > message.totalBytes() - message.arrivedBytes())
        {
            throw new XDevException("shm device: rank " + message.source + " wrote " + (written - drained) +
                " bytes into rank " + ownRank + "'s staging area, more than the " +
                (message.totalBytes() - message.arrivedBytes()) + " left of message " + message.sequence +
                " (corrupted memory?)");
        }
        while (drained < written)
        {
            final int bytes = (int)Math.min(Math.min(PIECE_BYTES, written - drained), inbox.toEnd(drained));
            message.accept(inbox.memory(), inbox.offset(drained), bytes);
            drained += bytes;
            inbox.releaseDrained(drained);
        }
        // After the release of drained: the sender may sleep waiting for room.
        bells[message.source].ringIfSleeping();
        return true;
    }

    /**
     * Frees this rank's area after the granted message is complete and grants it to the next
     * waiting message, if any.
     *
     * @return the message now granted, whose sender is to be cleared to send, or null.
     */
    Incoming grantNext()
    {
        if (receiving == null || !receiving.isComplete())
        {
            throw new IllegalStateException("the staging area is not free: " + receiving);
        }
        receiving = waiting.poll();
        return receiving;
    }

    // ---- sending ----

    /** Starts writing {@code send}'s bytes into its receiver's area, which the receiver granted to it. */
    void startSending(final SendRequest send)
    {
        final int destination = send.destination;
        if (sending[destination] != null)
        {
            throw new XDevException("shm device: rank " + destination + " cleared message " + send.sequence +
                " from rank " + ownRank + " while message " + sending[destination].sequence +
                " was still being written into its staging area (protocol error)");
        }
        sending[destination] = send;
        // The receiver grants its area only once it is drained: filled == drained, and no one else writes it now.
        filled[destination] = peerAreas[destination].filledAcquire();
        destinations.set(destination);
    }

    /** Whether no send is writing into a peer's area. */
    boolean isIdleSending()
    {
        return destinations.isEmpty();
    }

    /**
     * Writes the next pieces of every started send while its receiver's ring has room, and
     * completes the sends whose bytes are all written.
     *
     * @return whether anything was written.
     */
    boolean writeOutbound()
    {
        boolean wrote = false;
        for (int peer = destinations.nextSetBit(0); peer >= 0; peer = destinations.nextSetBit(peer + 1))
        {
            wrote |= write(peer, sending[peer]);
        }
        return wrote;
    }

    private boolean write(final int peer, final SendRequest send)
    {
        final RendezvousRing area = peerAreas[peer];
        final int ring = area.ringBytes();
        long position = filled[peer];
        long drainedThere = area.drainedAcquire();
        boolean wrote = false;
        while (send.protocol.phase() == SendStateMachine.Phase.WRITING_DATA)
        {
            if (position - drainedThere == ring)
            {
                drainedThere = area.drainedAcquire();
                if (position - drainedThere == ring)
                {
                    break;
                }
            }
            final long from = send.protocol.written();
            final int bytes = (int)Math.min(Math.min(PIECE_BYTES, send.totalBytes() - from),
                Math.min(ring - (position - drainedThere), area.toEnd(position)));
            send.bytes.copyTo(from, area.memory(), area.offset(position), bytes);
            position += bytes;
            area.releaseFilled(position);
            send.protocol.dataWritten(bytes);
            // After the release of filled: the receiver may sleep waiting for bytes.
            bells[peer].ringIfSleeping();
            wrote = true;
        }
        filled[peer] = position;
        if (send.protocol.phase() == SendStateMachine.Phase.WRITTEN)
        {
            sending[peer] = null;
            destinations.clear(peer);
            completions.completeIfFinished(send);
        }
        return wrote;
    }
}
