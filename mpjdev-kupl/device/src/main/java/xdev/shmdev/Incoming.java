package xdev.shmdev;

import java.lang.foreign.MemorySegment;

import mpjbuf.Type;
import xdev.XDevException;

/**
 * A message whose envelope has arrived: what it matches on, its sizes, and where its bytes go.
 * It owns its receive-side state and changes it only through its methods: unmatched, an eager
 * message's bytes wait in a staging array; matched, they go straight into the receive's buffer;
 * matched by a receive too small, they are dropped. Bytes beyond the announced size are an
 * error, not a silent overrun.
 */
final class Incoming
{
    // Not final: the protocol reuses an Incoming whose eager message was received (MessageProtocol#recycle).
    int source;
    int sequence;
    int tag;
    int context;
    int staticBytes;
    int dynamicBytes;
    int numEls;
    int typeCode;
    boolean synchronous;
    /** Whether its static bytes are array elements in native order ({@link MessageRecords#FLAG_ELEMENTS}). */
    boolean elements;
    boolean rendezvous;
    /** Address of the bytes in the sender, if the receiver may read them directly; else 0. */
    long senderAddress;
    /** Payload bytes that have arrived so far. */
    private long arrived;
    /** Where the bytes of an unmatched eager message wait: made when the first of them arrives unmatched. */
    private byte[] staging;
    /**
     * A staging array an earlier message of this (reused) Incoming had, kept for the next one that needs one up to
     * {@link #KEPT_STAGING_BYTES}: a message that arrives before its receive is posted makes no array then.
     */
    private byte[] keptStaging;
    /** Views of {@link #staging} and {@link #keptStaging} as memory, made once per array. */
    private MemorySegment stagingView;
    private MemorySegment keptView;
    static final int KEPT_STAGING_BYTES = 64 * 1024;
    /** The receive it matched, or null. */
    private RecvRequest receive;
    /** A send to this very process, completed when matched if it is synchronous. */
    private SendRequest localSend;
    /** Matched by a receive whose buffer is too small: its bytes are dropped. */
    private boolean discarded;

    Incoming(final int source, final int sequence, final int tag, final int context, final int staticBytes,
        final int dynamicBytes, final int numEls, final int typeCode, final boolean synchronous,
        final boolean elements, final boolean rendezvous, final long senderAddress)
    {
        reset(source, sequence, tag, context, staticBytes, dynamicBytes, numEls, typeCode, synchronous, elements,
            rendezvous, senderAddress);
    }

    /** Makes this a new message, just announced: one received and done with, reused by the protocol. */
    void reset(final int source, final int sequence, final int tag, final int context, final int staticBytes,
        final int dynamicBytes, final int numEls, final int typeCode, final boolean synchronous,
        final boolean elements, final boolean rendezvous, final long senderAddress)
    {
        this.source = source;
        this.sequence = sequence;
        this.tag = tag;
        this.context = context;
        this.staticBytes = staticBytes;
        this.dynamicBytes = dynamicBytes;
        this.numEls = numEls;
        this.typeCode = typeCode;
        this.synchronous = synchronous;
        this.elements = elements;
        this.rendezvous = rendezvous;
        this.senderAddress = senderAddress;
        this.arrived = 0;
        keepStaging();
        this.receive = null;
        this.localSend = null;
        this.discarded = false;
    }

    /** Lets go of the staging array, keeping it (and its view) for a later message if it is the largest yet. */
    private void keepStaging()
    {
        if (staging != null && staging.length <= KEPT_STAGING_BYTES &&
            (keptStaging == null || staging.length > keptStaging.length))
        {
            keptStaging = staging;
            keptView = stagingView;
        }
        staging = null;
        stagingView = null;
    }

    private MemorySegment stagingView()
    {
        if (stagingView == null)
        {
            stagingView = MemorySegment.ofArray(staging);
        }
        return stagingView;
    }

    /** A message from this process to itself: every byte copied from {@code send} now, staged until matched. */
    static Incoming fromLocalSend(final SendRequest send)
    {
        final Incoming message = new Incoming(send.destination, send.sequence, send.tag, send.context,
            send.bytes.staticBytes(), send.bytes.dynamicBytes(), send.bytes.numEls(), send.bytes.typeCode(),
            send.synchronous, send.bytes.elements(), false, 0);
        if (message.totalBytes() > 0)
        {
            message.staging = new byte[(int)message.totalBytes()];
            send.bytes.copyTo(0, MemorySegment.ofArray(message.staging), 0, message.staging.length);
        }
        message.arrived = message.totalBytes();
        message.localSend = send;
        return message;
    }

    long totalBytes()
    {
        return (long)staticBytes + dynamicBytes;
    }

    /** Payload bytes that have arrived so far. */
    long arrivedBytes()
    {
        return arrived;
    }

    boolean isComplete()
    {
        return arrived == totalBytes();
    }

    Type type()
    {
        return typeCode < 0 ? null : Type.getType(typeCode);
    }

    /** The receive it matched, or null while it is unexpected. */
    RecvRequest receive()
    {
        return receive;
    }

    /** The send of this process it came from, or null if it came through a queue. */
    SendRequest localSend()
    {
        return localSend;
    }

    boolean isDiscarded()
    {
        return discarded;
    }

    /** Matched by {@code matched}: the bytes staged so far move into its buffer, the rest will follow. */
    void matchedBy(final RecvRequest matched)
    {
        checkUnmatched();
        receive = matched;
        matched.bind(this);
        if (staging != null)
        {
            if (arrived > 0)
            {
                matched.accept(0, stagingView(), 0, (int)arrived);
            }
            keepStaging();
        }
    }

    /** Matched by a receive too small for it: what has arrived and what follows is dropped. */
    void discard()
    {
        checkUnmatched();
        discarded = true;
        keepStaging();
    }

    /** Every byte of a rendezvous message was read from the sender directly (or dropped): no data records follow. */
    void arrivedDirectly()
    {
        if (!rendezvous || arrived != 0 || receive == null && !discarded)
        {
            throw new IllegalStateException("message " + sequence + " from rank " + source + " cannot be read " +
                "directly (rendezvous " + rendezvous + ", " + arrived + " bytes arrived, matched " + (receive != null) +
                ")");
        }
        arrived = totalBytes();
    }

    /**
     * Takes payload bytes {@code [arrived, arrived + length)} from {@code memory} at {@code at}.
     *
     * @throws XDevException if they go beyond the size the envelope announced.
     */
    void accept(final MemorySegment memory, final long at, final int length)
    {
        if (length < 0 || arrived + length > totalBytes())
        {
            throw new XDevException("shm device: " + length + " more bytes of message " + sequence + " from rank " +
                source + " arrived after " + arrived + " of " + totalBytes() + " (corrupted queue?)");
        }
        if (receive != null)
        {
            receive.accept(arrived, memory, at, length);
        }
        else if (!discarded)
        {
            if (staging == null)
            {
                // Only now: a message matched on arrival (the common case) never needs one.
                if (keptStaging != null && keptStaging.length >= totalBytes())
                {
                    staging = keptStaging;
                    stagingView = keptView;
                    keptStaging = null;
                    keptView = null;
                }
                else
                {
                    staging = new byte[(int)totalBytes()];
                }
            }
            MemorySegment.copy(memory, at, stagingView(), arrived, length);
        }
        arrived += length;
    }

    private void checkUnmatched()
    {
        if (receive != null || discarded)
        {
            throw new IllegalStateException("message " + sequence + " from rank " + source + " was matched already");
        }
    }
}
