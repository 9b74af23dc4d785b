package xdev.shmdev;

import java.lang.foreign.MemorySegment;

import mpjdev.Status;

/**
 * One message on its way out: the bytes of its {@code mpjbuf.Buffer} (the static section,
 * then the dynamic one) and how far they have been written into the receiver's queue.
 *
 * <p>Complete once every byte is in the queue (the buffer is then reusable) and, for a
 * synchronous send, once the receiver has matched it: an acknowledgement for an eager message,
 * the clear-to-send for a rendezvous one.
 */
final class SendRequest extends ShmRequest
{
    final int destination;
    final int tag;
    final int context;
    final int sequence;
    final boolean synchronous;
    final boolean rendezvous;
    final int staticBytes;
    final int dynamicBytes;
    final int numEls;
    final int typeCode;
    private final MemorySegment staticData;
    /** Whether the receiver may copy the bytes straight from this process ({@link ProcessMemory}). */
    final boolean readable;
    private final byte[] dynamicData;
    /** The envelope (with the first bytes of an eager message) is in the queue. */
    boolean envelopeWritten;
    /** Bytes of the payload (static then dynamic) written into the queue so far. */
    long written;
    /** The receiver has matched the message (synchronous eager: acknowledged; rendezvous: clear to send). */
    boolean matched;

    SendRequest(final ShmDevice device, final int destination, final int tag, final int context, final int sequence,
        final boolean synchronous, final boolean rendezvous, final MemorySegment staticData, final byte[] dynamicData,
        final int numEls, final int typeCode)
    {
        super(device, new Status(destination, tag, -1));
        this.destination = destination;
        this.tag = tag;
        this.context = context;
        this.sequence = sequence;
        this.synchronous = synchronous;
        this.rendezvous = rendezvous;
        this.staticData = staticData;
        this.dynamicData = dynamicData;
        this.staticBytes = (int)staticData.byteSize();
        this.dynamicBytes = dynamicData == null ? 0 : dynamicData.length;
        this.numEls = numEls;
        this.typeCode = typeCode;
        // Only a static section in native memory (a direct buffer) has an address that stays put.
        this.readable = rendezvous && staticData.isNative() && dynamicBytes == 0;
    }

    /** Address of the static section in this process, for a receiver's direct read. */
    long staticAddress()
    {
        return readable ? staticData.address() : 0;
    }

    long totalBytes()
    {
        return (long)staticBytes + dynamicBytes;
    }

    /** Copies {@code length} bytes of the payload from position {@code from} to {@code target} at {@code offset}. */
    void copyPayload(final long from, final MemorySegment target, final long offset, final int length)
    {
        long position = from;
        long at = offset;
        int left = length;
        if (position < staticBytes)
        {
            final int n = (int)Math.min(left, staticBytes - position);
            MemorySegment.copy(staticData, position, target, at, n);
            position += n;
            at += n;
            left -= n;
        }
        if (left > 0)
        {
            MemorySegment.copy(MemorySegment.ofArray(dynamicData), position - staticBytes, target, at, left);
        }
    }

    /** Whether nothing more is needed for completion. */
    boolean isFinished()
    {
        return written == totalBytes() && (matched || !synchronous);
    }

    @Override
    String describe()
    {
        return (synchronous ? "a synchronous send" : "a send") + " of " + totalBytes() + " bytes to rank " +
            destination + " (tag " + tag + ", context " + context + ")";
    }
}
