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
 * elements themselves ({@link #ofElements}).
 *
 * @param staticData  the static section (a view of the buffer's memory).
 * @param dynamicData the dynamic section, or null if empty.
 * @param numEls      elements of the first section, 0 for an empty buffer.
 * @param typeCode    {@code mpjbuf.Type} code of the first section, -1 for an empty buffer.
 * @param elements    whether the static data are array elements in native order, with no section header.
 */
record MessageBytes(MemorySegment staticData, byte[] dynamicData, int numEls, int typeCode, boolean elements)
{
    /** {@code numEls} elements of {@code mpjbuf.Type} code {@code typeCode}, viewed where they lie. */
    static MessageBytes ofElements(final MemorySegment elements, final int numEls, final int typeCode)
    {
        return new MessageBytes(elements, null, numEls, typeCode, true);
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
        return new MessageBytes(staticData, dynamic == null || dynamic.length == 0 ? null : dynamic, numEls, typeCode,
            false);
    }

    int staticBytes()
    {
        return (int)staticData.byteSize();
    }

    int dynamicBytes()
    {
        return dynamicData == null ? 0 : dynamicData.length;
    }

    long totalBytes()
    {
        return staticData.byteSize() + dynamicBytes();
    }

    /** Copies {@code length} bytes from position {@code from} of the payload to {@code target} at {@code offset}. */
    void copyTo(final long from, final MemorySegment target, final long offset, final int length)
    {
        final long staticBytes = staticData.byteSize();
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
}
