package xdev.shmdev;

import static xdev.shmdev.MessageRecords.KIND_EAGER;
import static xdev.shmdev.MessageRecords.KIND_RENDEZVOUS;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntConsumer;

import kupl.Doorbell;

/**
 * This rank's queues: the one it reads from (every peer writes into it), the peers' queues it
 * writes into, the peers' doorbells, and, per peer, the records waiting for room in its queue.
 * Writing records moves sends through their protocol ({@link SendStateMachine}) and completes
 * them when it finishes. A pass costs the same whatever the number of ranks when there is
 * nothing to read or write: one load of this rank's queue and one check of a set of peers.
 * Used under the device's lock.
 */
final class PeerQueues
{
    /** A control record waiting to be written into one outgoing queue. */
    private record Control(int kind, int sequence)
    {
    }

    private final int ownRank;
    private final ShmQueue inbound;
    private final ShmQueue[] outbound;
    private final Doorbell[] peerBells;
    /** Per peer, in order, what waits to be written: a send (its records) itself, or a {@link Control}. */
    private final List<ArrayDeque<Object>> pending;
    /** The peers whose entry of {@link #pending} is not empty. */
    private final BitSet peersWithPending;
    private final DirectReads directReads;
    private final Completions completions;
    /** Wakes a peer that asked for room in this rank's queue (a field: no allocation per drain). */
    private final IntConsumer ringPeer;

    /**
     * @param inbound   this rank's queue, as its consumer.
     * @param outbound  each peer's queue, as this rank's producer view (its own entry unused).
     * @param peerBells each rank's doorbell, this rank's included.
     */
    PeerQueues(final int ownRank, final ShmQueue inbound, final ShmQueue[] outbound, final Doorbell[] peerBells,
        final DirectReads directReads, final Completions completions)
    {
        this.ownRank = ownRank;
        this.inbound = inbound;
        this.outbound = outbound.clone();
        this.peerBells = peerBells.clone();
        this.directReads = directReads;
        this.completions = completions;
        this.pending = new ArrayList<>(outbound.length);
        for (int peer = 0; peer < outbound.length; peer++)
        {
            pending.add(new ArrayDeque<>());
        }
        this.peersWithPending = new BitSet(outbound.length);
        this.ringPeer = peer -> this.peerBells[peer].ringIfSleeping();
    }

    /** Queues the envelope (and, if eager, the bytes) of {@code send}. */
    void addMessage(final SendRequest send)
    {
        // The send itself, not a wrapper: queueing a message makes no object.
        add(send.destination, send);
    }

    /** Queues a control record about message {@code sequence} from {@code peer}. */
    void addControl(final int peer, final int kind, final int sequence)
    {
        add(peer, new Control(kind, sequence));
    }

    private void add(final int peer, final Object next)
    {
        pending.get(peer).add(next);
        peersWithPending.set(peer);
    }

    /** Whether every queued record has been written. */
    boolean isFlushed()
    {
        return peersWithPending.isEmpty();
    }

    /** Hands every record that has arrived from any peer to {@code reader}; returns whether there was any. */
    boolean drain(final ShmQueue.Reader reader)
    {
        if (!inbound.poll(reader))
        {
            return false;
        }
        // After the releases of head (poll): a peer that found the queue full may be asleep waiting for room.
        inbound.forEachRoomWanted(ringPeer);
        return true;
    }

    /** Writes what every outgoing queue has room for; returns whether anything was written. */
    boolean flushAll()
    {
        boolean wrote = false;
        for (int peer = peersWithPending.nextSetBit(0); peer >= 0; peer = peersWithPending.nextSetBit(peer + 1))
        {
            wrote |= flush(peer);
        }
        return wrote;
    }

    /** Writes what the queue of {@code peer} has room for, in order; returns whether anything was written. */
    boolean flush(final int peer)
    {
        final ArrayDeque<Object> queue = pending.get(peer);
        final ShmQueue out = outbound[peer];
        final long before = out.committedRecords();
        boolean askedForRoom = false;
        Object next;
        while ((next = queue.peek()) != null)
        {
            if (write(out, next))
            {
                queue.poll();
                if (next instanceof SendRequest send)
                {
                    completions.completeIfFinished(send);
                }
            }
            else if (!askedForRoom)
            {
                // Full: ask the peer to ring this rank once it frees room, then try once more, since it may have
                // freed room before it could see the ask (the claim re-reads its head after the ask).
                out.wantRoom();
                askedForRoom = true;
            }
            else
            {
                break;
            }
        }
        if (queue.isEmpty())
        {
            peersWithPending.clear(peer);
        }
        if (out.committedRecords() == before)
        {
            return false;
        }
        // After the release of the records (commit): the peer may be asleep waiting for one.
        peerBells[peer].ringIfSleeping();
        return true;
    }

    /** Writes all of {@code next} that fits; true if it is all written. */
    private boolean write(final ShmQueue out, final Object next)
    {
        return next instanceof SendRequest send ? writeMessage(out, send) :
            MessageRecords.writeControl(out, ((Control)next).kind(), ((Control)next).sequence());
    }

    private boolean writeMessage(final ShmQueue out, final SendRequest send)
    {
        if (send.protocol.phase() == SendStateMachine.Phase.ENVELOPE_QUEUED)
        {
            final long address = directReads.enabled() ? send.staticAddress() : 0;
            final int inline = MessageRecords.writeEnvelope(out, send.rendezvous ? KIND_RENDEZVOUS : KIND_EAGER,
                send, address);
            if (inline < 0)
            {
                return false;
            }
            send.protocol.envelopeWritten(inline);
        }
        // The rest of an eager message follows at once; a rendezvous one waits for clear-to-send (then the ring).
        return send.rendezvous || writeData(out, send);
    }

    private boolean writeData(final ShmQueue out, final SendRequest send)
    {
        while (send.protocol.phase() == SendStateMachine.Phase.WRITING_DATA)
        {
            final int n = MessageRecords.writeData(out, send, send.protocol.written());
            if (n < 0)
            {
                return false;
            }
            send.protocol.dataWritten(n);
        }
        return true;
    }
}
