package xdev.shmdev;

import static xdev.shmdev.MessageRecords.ENVELOPE_BYTES;
import static xdev.shmdev.MessageRecords.KIND_ACK;
import static xdev.shmdev.MessageRecords.KIND_CLEAR_TO_SEND;
import static xdev.shmdev.MessageRecords.KIND_DATA;
import static xdev.shmdev.MessageRecords.KIND_EAGER;
import static xdev.shmdev.MessageRecords.KIND_READ;
import static xdev.shmdev.MessageRecords.KIND_RENDEZVOUS;
import static xdev.shmdev.MessageRecords.SEQUENCE_BYTES;

import java.lang.foreign.MemorySegment;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

import xdev.XDevException;

/**
 * The device's eager and rendezvous protocols, between this rank and each peer: starts sends,
 * dispatches every record that arrives, and binds matched messages to their receives.
 *
 * <p>Up to {@link ShmDevice#EAGER_LIMIT} bytes a message goes at once (eager): the receiver
 * copies it straight into a posted receive's buffer, or into a staging array if none is posted
 * yet. A larger one sends only its envelope (rendezvous); once a receive matches it, the receiver
 * grants it its staging area ({@link StagedTransfers}; the next such message waits its turn) and
 * answers clear-to-send, and the sender copies the bytes into that area chunk by chunk while the
 * receiver copies them out, so nothing larger than the area is ever buffered. Where direct reads
 * are turned on ({@link DirectReads}), the receiver first tries to read the bytes straight from
 * the sender's memory and answers read. A synchronous
 * send completes when the receiver has matched it (an acknowledgement for eager messages, the
 * clear-to-send or read for rendezvous ones). Each send's state is its {@link SendStateMachine};
 * each arriving message's is its {@link Incoming}. Used under the device's lock.
 */
final class MessageProtocol implements ShmQueue.Reader
{
    private final int ownRank;
    private final PeerQueues queues;
    private final MatchQueues matching;
    private final Completions completions;
    private final DirectReads directReads;
    private final StagedTransfers staged;
    private final IntToLongFunction pidOfRank;
    private final IntFunction<UUID> idOfRank;
    private final int[] nextSequence;
    /** Messages whose envelope has arrived but not every byte, by source and sequence. */
    private final SequenceTable<Incoming> arriving;
    /** Rendezvous and synchronous sends waiting for their receiver's answer, by destination and sequence. */
    private final SequenceTable<SendRequest> awaitingReceiver;
    /**
     * Incomings of eager messages that were received and are referenced nowhere, for the next envelopes: a message
     * that arrives makes no object. At most {@link #SPARE_INCOMINGS}; the last kept is the next used, so that the
     * few in use keep their staging arrays warm.
     */
    private final java.util.ArrayDeque<Incoming> spare = new java.util.ArrayDeque<>();
    private static final int SPARE_INCOMINGS = 16;

    /**
     * @param pidOfRank each rank's process id, for direct reads.
     * @param idOfRank  each rank's identity, for receive statuses.
     */
    MessageProtocol(final int ownRank, final int size, final PeerQueues queues, final MatchQueues matching,
        final Completions completions, final DirectReads directReads, final StagedTransfers staged,
        final IntToLongFunction pidOfRank, final IntFunction<UUID> idOfRank)
    {
        this.ownRank = ownRank;
        this.queues = queues;
        this.matching = matching;
        this.completions = completions;
        this.directReads = directReads;
        this.staged = staged;
        this.pidOfRank = pidOfRank;
        this.idOfRank = idOfRank;
        this.nextSequence = new int[size];
        this.arriving = new SequenceTable<>(ownRank, size, "message");
        this.awaitingReceiver = new SequenceTable<>(ownRank, size, "send");
    }

    /** Sequence number of the next message to {@code destination}. */
    int nextSequence(final int destination)
    {
        return nextSequence[destination]++;
    }

    /** Starts {@code send}: delivered here at once if it is to this rank, else queued and written what fits. */
    void start(final SendRequest send)
    {
        if (send.destination == ownRank)
        {
            // A message to this very process: matched here, its bytes staged (it cannot wait in a queue).
            final Incoming message = Incoming.fromLocalSend(send);
            send.protocol.deliveredLocally();
            completions.completeIfFinished(send);
            arrive(message);
            return;
        }
        if (send.rendezvous || send.synchronous)
        {
            awaitingReceiver.put(send.destination, send.sequence, send);
        }
        queues.addMessage(send);
        queues.flush(send.destination);
    }

    /** Binds {@code receive} to the message it matched (taken from the unexpected ones) and writes any answer. */
    void bindAndFlush(final RecvRequest receive, final Incoming message)
    {
        bind(receive, message);
        queues.flushAll();
    }

    /** Handles one record from {@code source}, from this rank's queue (called by {@link ShmQueue#poll}). */
    @Override
    public void onRecord(final int source, final int kind, final MemorySegment memory, final long offset,
        final int length)
    {
        final int sequence = MessageRecords.sequence(memory, offset);
        switch (kind)
        {
            case KIND_EAGER, KIND_RENDEZVOUS -> onEnvelope(source, kind, memory, offset, length);
            case KIND_DATA ->
                accept(arriving.get(source, sequence, "data"), memory, offset + SEQUENCE_BYTES,
                    length - SEQUENCE_BYTES);
            case KIND_CLEAR_TO_SEND ->
            {
                final SendRequest send = awaitingReceiver.take(source, sequence, "clear-to-send");
                send.protocol.clearToSend();
                staged.startSending(send);
            }
            case KIND_READ ->
            {
                final SendRequest send = awaitingReceiver.take(source, sequence, "read");
                send.protocol.readDirectly();
                completions.completeIfFinished(send);
            }
            case KIND_ACK ->
            {
                final SendRequest send = awaitingReceiver.take(source, sequence, "acknowledgement");
                send.protocol.acknowledged();
                completions.completeIfFinished(send);
            }
            default -> throw new XDevException("shm device: rank " + ownRank + " got a record of unknown kind " +
                kind + " from rank " + source + " (corrupted queue?)");
        }
    }

    private void onEnvelope(final int source, final int kind, final MemorySegment memory, final long offset,
        final int length)
    {
        final Incoming message = MessageRecords.readEnvelope(spare.pollLast(), source, kind, memory, offset);
        if (!message.isComplete())
        {
            arriving.put(source, message.sequence, message);
        }
        arrive(message);
        final int inline = length - ENVELOPE_BYTES;
        if (inline > 0)
        {
            accept(message, memory, offset + ENVELOPE_BYTES, inline);
        }
    }

    private void accept(final Incoming message, final MemorySegment memory, final long at, final int length)
    {
        message.accept(memory, at, length);
        if (message.isComplete())
        {
            arriving.remove(message.source, message.sequence);
            finishReceive(message);
        }
    }

    /** A new envelope: matched with the first posted receive that fits, else kept as unexpected. */
    private void arrive(final Incoming message)
    {
        final RecvRequest receive = matching.arrive(message);
        if (receive != null)
        {
            bind(receive, message);
        }
    }

    private void bind(final RecvRequest receive, final Incoming message)
    {
        final String refusal = receive.refusal(message);
        if (refusal != null)
        {
            message.discard();
            completions.fail(receive, new XDevException("shm device: " + refusal + ", but " + receive.describe() +
                " on rank " + ownRank + " cannot take it"));
        }
        else
        {
            message.matchedBy(receive);
        }
        final SendRequest localSend = message.localSend();
        if (localSend != null)
        {
            if (localSend.synchronous)
            {
                localSend.protocol.acknowledged();
            }
            completions.completeIfFinished(localSend);
        }
        else if (message.rendezvous && (message.isDiscarded() || readDirectly(message)))
        {
            // Read (or dropped): the sender's buffer is free again.
            message.arrivedDirectly();
            arriving.remove(message.source, message.sequence);
            queues.addControl(message.source, KIND_READ, message.sequence);
        }
        else if (message.rendezvous && staged.offer(message))
        {
            queues.addControl(message.source, KIND_CLEAR_TO_SEND, message.sequence);
        }
        else if (message.synchronous && !message.rendezvous)
        {
            queues.addControl(message.source, KIND_ACK, message.sequence);
        }
        if (message.isComplete())
        {
            finishReceive(message);
        }
    }

    /**
     * Moves the bytes of rendezvous messages through the staging areas: writes what the peers'
     * areas have room for, copies out what has arrived in this rank's, and, once the message
     * granted this rank's area is complete, finishes its receive and clears the next one's sender.
     *
     * @return whether anything moved.
     */
    boolean pumpStaged()
    {
        boolean moved = staged.writeOutbound();
        final Incoming message = staged.receiving();
        if (message != null && staged.readInbound())
        {
            moved = true;
            if (message.isComplete())
            {
                arriving.remove(message.source, message.sequence);
                finishReceive(message);
                final Incoming next = staged.grantNext();
                if (next != null)
                {
                    queues.addControl(next.source, KIND_CLEAR_TO_SEND, next.sequence);
                }
            }
        }
        return moved;
    }

    /** Whether no send is still writing into a peer's staging area. */
    boolean isIdleSending()
    {
        return staged.isIdleSending();
    }

    /** Copies a rendezvous message straight from the sender's memory into the receive buffer, if allowed. */
    private boolean readDirectly(final Incoming message)
    {
        final MemorySegment target = message.receive().directTarget();
        return target != null && directReads.tryRead(pidOfRank.applyAsLong(message.source), message.senderAddress,
            target);
    }

    private void finishReceive(final Incoming message)
    {
        final RecvRequest receive = message.receive();
        if (receive != null && !receive.isDone())
        {
            try
            {
                receive.finish(idOfRank.apply(message.source));
            }
            catch (final XDevException e)
            {
                completions.fail(receive, e);
                return;
            }
            completions.complete(receive);
            recycle(message);
        }
    }

    /**
     * Keeps {@code message}, received, for a later envelope if nothing can still reach it: an eager message through
     * a queue (out of every table and list by now; a rendezvous one may still be named by the staging areas, a
     * local one holds its send).
     */
    private void recycle(final Incoming message)
    {
        if (!message.rendezvous && message.localSend() == null && spare.size() < SPARE_INCOMINGS)
        {
            message.reset(-1, -1, 0, 0, 0, 0, 0, -1, false, false, false, 0);
            spare.add(message);
        }
    }
}
