package xdev.shmdev;

import java.lang.foreign.MemorySegment;

import mpjbuf.Type;

/**
 * A message whose envelope has arrived: what it matches on, its sizes, and where its bytes go
 * (a matched receive, or a staging array while it is unexpected and eager).
 */
final class Incoming
{
    final int source;
    final int sequence;
    final int tag;
    final int context;
    final int staticBytes;
    final int dynamicBytes;
    final int numEls;
    final int typeCode;
    final boolean synchronous;
    final boolean rendezvous;
    /** Payload bytes that have arrived so far. */
    long arrived;
    /** Where the bytes of an unmatched eager message wait; null once matched. */
    byte[] staging;
    /** The receive it matched, or null. */
    RecvRequest receive;
    /** A send to this very process, completed when matched if it is synchronous. */
    SendRequest localSend;
    /** Matched by a receive whose buffer is too small: its bytes are dropped. */
    boolean discard;
    /** Address of the bytes in the sender, if the receiver may read them directly; else 0. */
    long senderAddress;

    Incoming(final int source, final int sequence, final int tag, final int context, final int staticBytes,
        final int dynamicBytes, final int numEls, final int typeCode, final boolean synchronous,
        final boolean rendezvous)
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
        this.rendezvous = rendezvous;
    }

    long totalBytes()
    {
        return (long)staticBytes + dynamicBytes;
    }

    boolean isComplete()
    {
        return arrived == totalBytes();
    }

    Type type()
    {
        return typeCode < 0 ? null : Type.getType(typeCode);
    }

    /** Takes payload bytes {@code [arrived, arrived + length)} from {@code memory} at {@code at}. */
    void accept(final MemorySegment memory, final long at, final int length)
    {
        if (receive != null)
        {
            receive.accept(arrived, memory, at, length);
        }
        else if (!discard)
        {
            MemorySegment.copy(memory, at, MemorySegment.ofArray(staging), arrived, length);
        }
        arrived += length;
    }
}
