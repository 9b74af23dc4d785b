package xdev.shmdev;

import java.lang.foreign.MemorySegment;

import mpjbuf.Buffer;
import mpjdev.Status;
import xdev.Device;

/** A posted receive: what it matches, and where the message goes ({@link ReceiveTarget}). */
final class RecvRequest extends ShmRequest
{
    // Not final: a thread's blocking receives reuse one request (restart); set before the device sees it each time.
    /** Source rank, or {@link #ANY} for {@code ANY_SOURCE}. */
    int source;
    int tag;
    int context;
    private final ReceiveTarget target;
    private Incoming message;

    static final int ANY = -1;

    /** A receive into MPJ Express's {@code buffer}. */
    RecvRequest(final RequestDriver driver, final int source, final int tag, final int context, final Buffer buffer,
        final Status status)
    {
        this(driver, source, tag, context, new BufferReceive(buffer), status);
    }

    RecvRequest(final RequestDriver driver, final int source, final int tag, final int context,
        final ReceiveTarget target, final Status status)
    {
        super(driver, status);
        this.source = source;
        this.tag = tag;
        this.context = context;
        this.target = target;
    }

    /**
     * This request, waited for, as a new receive into the same target (which the caller has set up for it): a
     * thread's blocking receives ({@link ArrayMessages}), no object made.
     */
    void restart(final int source, final int tag, final int context)
    {
        restart();
        this.source = source;
        this.tag = tag;
        this.context = context;
        this.message = null;
    }

    /** Its target, if it receives into an array (the one a reused request sets up for the next receive). */
    ElementReceive elementTarget()
    {
        return target instanceof ElementReceive elements ? elements : null;
    }

    boolean matches(final Incoming in)
    {
        return matches(source, tag, context, in);
    }

    /** Whether a receive of {@code source} (or {@link #ANY}), {@code tag} (or any) and {@code context} takes it. */
    static boolean matches(final int source, final int tag, final int context, final Incoming in)
    {
        return in.context == context && (source == ANY || source == in.source) &&
            (tag == Device.ANY_TAG || tag == in.tag);
    }

    /** The {@code mpjbuf.Buffer} it receives into (a receive that niodev may take over, in a job across nodes). */
    Buffer buffer()
    {
        if (!(target instanceof BufferReceive receive))
        {
            throw new IllegalStateException(describe() + " receives into an array, not an mpjbuf.Buffer");
        }
        return receive.buffer;
    }

    /** Why {@code in} cannot be received here, or null. */
    String refusal(final Incoming in)
    {
        return target.refusal(in);
    }

    /** Where the bound message's static bytes may be read straight from the sender, or null. */
    MemorySegment directTarget()
    {
        return target.directTarget(message);
    }

    /** Whether a message has matched it (under the device's lock). */
    boolean isBound()
    {
        return message != null || isDone();
    }

    /** Binds this receive to a matched message; its bytes go straight to the target from now on. */
    void bind(final Incoming in)
    {
        message = in;
        target.bind(in);
    }

    /** Copies payload bytes {@code [position, position + length)} from {@code source} at {@code at}. */
    void accept(final long position, final MemorySegment source, final long at, final int length)
    {
        target.accept(position, source, at, length);
    }

    /**
     * Completes the target and the status once every byte has arrived (as smpdev leaves them).
     *
     * @throws xdev.XDevException if the message's contents do not fit what was announced.
     */
    void finish(final java.util.UUID sourceId)
    {
        status.srcID = sourceId;
        status.tag = message.tag;
        target.finish(message, status);
        // The message is done with: the protocol may make its Incoming the next one's.
        message = null;
    }

    @Override
    String describe()
    {
        return "a receive from " + (source == ANY ? "any rank" : "rank " + source) + " (tag " +
            (tag == Device.ANY_TAG ? "any" : Integer.toString(tag)) + ", context " + context + ", " +
            target.describeRoom() + ")";
    }
}
