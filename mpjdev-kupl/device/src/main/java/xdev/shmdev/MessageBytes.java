package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import mpjbuf.Buffer;
import mpjbuf.BufferException;
import mpjbuf.NIOBuffer;
import xdev.XDevException;

/**
 * The bytes of a message to send, taken without copying: from its {@code mpjbuf.Buffer}, the
 * static section, then the dynamic one, with the first section's type and element count that
 * the receiver's status reports; or, for a send of a Java array of a basic type, the array's
 * elements themselves ({@link #ofElements}), copied from the array as they go without a memory segment
 * made to view it (one is made only for a piece that splits an element, or for a large message's staging).
 */
final class MessageBytes
{
    private MemorySegment staticData;
    private final byte[] dynamicData;
    private int numEls;
    private int typeCode;
    private int staticBytes;
    /** An element message's array, its kind and first element; null for a buffer's bytes. */
    private Object array;
    private ElementKind kind;
    private int firstElement;

    /**
     * @param staticData  the static section (a view of the buffer's memory).
     * @param dynamicData the dynamic section, or null if empty.
     * @param numEls      elements of the first section, 0 for an empty buffer.
     * @param typeCode    {@code mpjbuf.Type} code of the first section, -1 for an empty buffer.
     */
    MessageBytes(final MemorySegment staticData, final byte[] dynamicData, final int numEls, final int typeCode)
    {
        this.staticData = staticData;
        this.dynamicData = dynamicData;
        this.numEls = numEls;
        this.typeCode = typeCode;
        this.staticBytes = (int)staticData.byteSize();
        this.array = null;
        this.kind = null;
        this.firstElement = 0;
    }

    private MessageBytes(final Object array, final ElementKind kind, final int firstElement, final int count)
    {
        this.dynamicData = null;
        viewElements(array, kind, firstElement, count);
    }

    /** Elements {@code [first, first + count)} of {@code array}, an array of {@code kind}, where they lie. */
    static MessageBytes ofElements(final Object array, final ElementKind kind, final int first, final int count)
    {
        return new MessageBytes(array, kind, first, count);
    }

    /** Now elements {@code [first, first + count)} of {@code array}: the bytes of a reused send's next message. */
    void viewElements(final Object array, final ElementKind kind, final int first, final int count)
    {
        this.staticData = null;
        this.numEls = count;
        this.typeCode = kind.code;
        this.staticBytes = count * kind.bytes();
        this.array = array;
        this.kind = kind;
        this.firstElement = first;
    }

    /** Lets go of the array of a reused send's last message (a thread's request must not keep it alive). */
    void clearElements()
    {
        staticData = null;
        array = null;
    }

    /** Commits {@code buffer} (as MPJ Express's devices do before sending) and views its sections. */
    static MessageBytes of(final Buffer buffer)
    {
        int typeCode = -1;
        int numEls = 0;
        try
        {
            buffer.commit();
            if (buffer.getSize() > 0)
            {
                typeCode = buffer.getSectionHeader().getCode();
                numEls = buffer.getSectionSize();
            }
        }
        catch (final BufferException e)
        {
            throw new XDevException("shm device: cannot read the message buffer: " + e.getMessage());
        }
        final ByteBuffer staticBuffer = ((NIOBuffer)buffer.getStaticBuffer()).getBuffer();
        final MemorySegment staticData = MemorySegment.ofBuffer(staticBuffer.duplicate().clear())
            .asSlice(buffer.offset(), buffer.getSize());
        final byte[] dynamic = buffer.getDynamicBuffer();
        return new MessageBytes(staticData, dynamic == null || dynamic.length == 0 ? null : dynamic, numEls,
            typeCode);
    }

    /** The static section (an element message's elements), as memory. */
    MemorySegment staticData()
    {
        if (staticData == null)
        {
            staticData = kind.view(array).asSlice((long)firstElement * kind.bytes(), staticBytes);
        }
        return staticData;
    }

    /** Whether the static section lies in native memory (a direct buffer), at an address that stays put. */
    boolean isNative()
    {
        return array == null && staticData.isNative();
    }

    /** Whether the static data are array elements in native order, with no section header. */
    boolean elements()
    {
        return array != null;
    }

    int numEls()
    {
        return numEls;
    }

    int typeCode()
    {
        return typeCode;
    }

    int staticBytes()
    {
        return staticBytes;
    }

    int dynamicBytes()
    {
        return dynamicData == null ? 0 : dynamicData.length;
    }

    long totalBytes()
    {
        return (long)staticBytes + dynamicBytes();
    }

    /** Copies {@code length} bytes from position {@code from} of the payload to {@code target} at {@code offset}. */
    void copyTo(final long from, final MemorySegment target, final long offset, final int length)
    {
        if (array != null && from % kind.bytes() == 0 && length % kind.bytes() == 0)
        {
            kind.copyOut(array, firstElement + (int)(from / kind.bytes()), target, offset, length / kind.bytes());
            return;
        }
        long position = from;
        long at = offset;
        int left = length;
        if (position < staticBytes)
        {
            final int n = (int)Math.min(left, staticBytes - position);
            MemorySegment.copy(staticData(), position, target, at, n);
            position += n;
            at += n;
            left -= n;
        }
        if (left > 0)
        {
            MemorySegment.copy(MemorySegment.ofArray(dynamicData), position - staticBytes, target, at, left);
        }
    }
}
