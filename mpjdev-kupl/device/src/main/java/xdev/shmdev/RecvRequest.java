package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import mpjbuf.Buffer;
import mpjbuf.NIOBuffer;
import mpjdev.Status;
import xdev.Device;

/** A posted receive: what it matches and the {@code mpjbuf.Buffer} the message goes into. */
final class RecvRequest extends ShmRequest
{
    /** Source rank, or {@link #ANY} for {@code ANY_SOURCE}. */
    final int source;
    final int tag;
    final int context;
    final Buffer buffer;
    private final ByteBuffer staticBuffer;
    private final MemorySegment staticTarget;
    private final int offset;
    private Incoming message;
    private byte[] dynamicData;

    static final int ANY = -1;

    RecvRequest(final RequestDriver driver, final int source, final int tag, final int context, final Buffer buffer,
        final Status status)
    {
        super(driver, status);
        this.source = source;
        this.tag = tag;
        this.context = context;
        this.buffer = buffer;
        this.staticBuffer = ((NIOBuffer)buffer.getStaticBuffer()).getBuffer();
        // A view from 0 to the capacity: the buffer's own position and limit are left alone until the end.
        this.staticTarget = MemorySegment.ofBuffer(staticBuffer.duplicate().clear());
        this.offset = buffer.offset();
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

    /** Room for the static section, in bytes. */
    long staticRoom()
    {
        return staticTarget.byteSize() - offset;
    }

    /** Where the static section goes: {@code bytes} bytes of the buffer's memory. */
    MemorySegment staticTarget(final int bytes)
    {
        return staticTarget.asSlice(offset, bytes);
    }

    /** Whether a message has matched it (under the device's lock). */
    boolean isBound()
    {
        return message != null || isDone();
    }

    /** Binds this receive to a matched message; its bytes go straight into the buffer from now on. */
    void bind(final Incoming in)
    {
        message = in;
        dynamicData = in.dynamicBytes > 0 ? new byte[in.dynamicBytes] : null;
    }

    /** Copies payload bytes {@code [position, position + length)} from {@code source} at {@code at}. */
    void accept(final long position, final MemorySegment source, final long at, final int length)
    {
        final int staticBytes = message.staticBytes;
        long p = position;
        long from = at;
        int left = length;
        if (p < staticBytes)
        {
            final int n = (int)Math.min(left, staticBytes - p);
            MemorySegment.copy(source, from, staticTarget, offset + p, n);
            p += n;
            from += n;
            left -= n;
        }
        if (left > 0)
        {
            MemorySegment.copy(source, from, MemorySegment.ofArray(dynamicData), p - staticBytes, left);
        }
    }

    /** Sets the buffer's sizes and the status once every byte has arrived (as smpdev leaves them). */
    void finish(final java.util.UUID sourceId)
    {
        buffer.setSize(message.staticBytes);
        if (dynamicData != null)
        {
            buffer.setDynamicBuffer(dynamicData);
        }
        staticBuffer.limit(offset + message.staticBytes);
        staticBuffer.position(0);
        status.srcID = sourceId;
        status.tag = message.tag;
        status.numEls = message.numEls;
        status.type = message.type();
    }

    @Override
    String describe()
    {
        return "a receive from " + (source == ANY ? "any rank" : "rank " + source) + " (tag " +
            (tag == Device.ANY_TAG ? "any" : Integer.toString(tag)) + ", context " + context + ")";
    }
}
