package xdev.shmdev;

import static xdev.shmdev.MessageRecords.KIND_DATA;
import static xdev.shmdev.MessageRecords.KIND_EAGER;
import static xdev.shmdev.MessageRecords.KIND_RENDEZVOUS;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import kupl.Doorbell;

/**
 * The queues between this rank and every peer: the rings it reads from and writes to, the
 * peers' doorbells, and, per peer, the records waiting for room in its ring. Writing records
 * moves sends through their protocol ({@link SendStateMachine}) and completes them when it
 * finishes. Used under the device's lock.
 */
final class PeerQueues
{
    /** Something waiting to be written into one outgoing queue: a send's records, or a control record. */
    private record Outgoing(int kind, SendRequest send, int sequence)
    {
    }

    private final int ownRank;
    private final ShmRing[] inbound;
    private final ShmRing[] outbound;
    private final Doorbell[] peerBells;
    private final List<ArrayDeque<Outgoing>> pending;
    private final DirectReads directReads;
    private final Completions completions;

    /**
     * @param inbound   the ring from each peer to this rank (its own entry unused).
     * @param outbound  the ring from this rank to each peer (its own entry unused).
     * @param peerBells each rank's doorbell, this rank's included.
     */
    PeerQueues(final int ownRank, final ShmRing[] inbound, final ShmRing[] outbound, final Doorbell[] peerBells,
        final DirectReads directReads, final Completions completions)
    {
        this.ownRank = ownRank;
        this.inbound = inbound.clone();
        this.outbound = outbound.clone();
        this.peerBells = peerBells.clone();
        this.directReads = directReads;
        this.completions = completions;
        this.pending = new ArrayList<>(outbound.length);
        for (int peer = 0; peer < outbound.length; peer++)
        {
            pending.add(new ArrayDeque<>());
        }
    }

    /** Queues the envelope (and, if eager, the bytes) of {@code send}. */
    void addMessage(final SendRequest send)
    {
        pending.get(send.destination).add(
            new Outgoing(send.rendezvous ? KIND_RENDEZVOUS : KIND_EAGER, send, send.sequence));
    }

    /** Queues the data records of a rendezvous {@code send} that its receiver cleared. */
    void addData(final SendRequest send)
    {
        pending.get(send.destination).add(new Outgoing(KIND_DATA, send, send.sequence));
    }

    /** Queues a control record about message {@code sequence} from {@code peer}. */
    void addControl(final int peer, final int kind, final int sequence)
    {
        pending.get(peer).add(new Outgoing(kind, null, sequence));
    }

    /** Whether every queued record has been written. */
    boolean isFlushed()
    {
        for (final ArrayDeque<Outgoing> queue : pending)
        {
            if (!queue.isEmpty())
            {
                return false;
            }
        }
        return true;
    }

    /** Hands every record that has arrived from any peer to {@code reader}; returns whether there was any. */
    boolean drain(final ShmRing.Reader reader)
    {
        boolean read = false;
        for (int peer = 0; peer < inbound.length; peer++)
        {
            if (peer != ownRank && inbound[peer].poll(reader, peer))
            {
                // After the release of head (poll): the sender may be asleep waiting for room in this queue.
                peerBells[peer].ringIfSleeping();
                read = true;
            }
        }
        return read;
    }

    /** Writes what every outgoing queue has room for; returns whether anything was written. */
    boolean flushAll()
    {
        boolean wrote = false;
        for (int peer = 0; peer < outbound.length; peer++)
        {
            if (peer != ownRank && !pending.get(peer).isEmpty())
            {
                wrote |= flush(peer);
            }
        }
        return wrote;
    }

    /** Writes what the queue to {@code peer} has room for, in order; returns whether anything was written. */
    boolean flush(final int peer)
    {
        final ArrayDeque<Outgoing> queue = pending.get(peer);
        final ShmRing ring = outbound[peer];
        final long before = ring.producerPosition();
        Outgoing next;
        while ((next = queue.peek()) != null && write(ring, next))
        {
            queue.poll();
            if (next.send() != null)
            {
                completions.completeIfFinished(next.send());
            }
        }
        if (ring.producerPosition() == before)
        {
            return false;
        }
        // After the release of the tail (commit): the receiver may be asleep waiting for a record.
        peerBells[peer].ringIfSleeping();
        return true;
    }

    /** Writes all of {@code next} that fits; true if it is all written. */
    private boolean write(final ShmRing ring, final Outgoing next)
    {
        return switch (next.kind())
        {
            case KIND_EAGER, KIND_RENDEZVOUS -> writeMessage(ring, next.send());
            case KIND_DATA -> writeData(ring, next.send());
            default -> MessageRecords.writeControl(ring, next.kind(), next.sequence());
        };
    }

    private boolean writeMessage(final ShmRing ring, final SendRequest send)
    {
        if (send.protocol.phase() == SendStateMachine.Phase.ENVELOPE_QUEUED)
        {
            final long address = directReads.enabled() ? send.staticAddress() : 0;
            final int inline = MessageRecords.writeEnvelope(ring, send.rendezvous ? KIND_RENDEZVOUS : KIND_EAGER,
                send, address);
            if (inline < 0)
            {
                return false;
            }
            send.protocol.envelopeWritten(inline);
        }
        // The rest of an eager message follows at once; a rendezvous one waits for clear-to-send.
        return send.rendezvous || writeData(ring, send);
    }

    private boolean writeData(final ShmRing ring, final SendRequest send)
    {
        while (send.protocol.phase() == SendStateMachine.Phase.WRITING_DATA)
        {
            final int n = MessageRecords.writeData(ring, send, send.protocol.written());
            if (n < 0)
            {
                return false;
            }
            send.protocol.dataWritten(n);
        }
        return true;
    }
}
