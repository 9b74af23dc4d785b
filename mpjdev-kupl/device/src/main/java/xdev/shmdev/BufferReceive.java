package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import mpjbuf.Buffer;
import mpjbuf.NIOBuffer;
import mpjdev.Status;
import xdev.XDevException;

/**
 * A receive into MPJ Express's {@code mpjbuf.Buffer}, which MPJ Express then unpacks. A packed message goes
 * straight into the buffer's memory; a message of array elements ({@link ElementKind}) goes there behind room
 * for a section header, and is then packed in place: the header written, each element put in big-endian order,
 * as MPJ Express's own packing would have left it.
 */
final class BufferReceive implements ReceiveTarget
{
    private static final ValueLayout.OfInt PACKED_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    final Buffer buffer;
    private final ByteBuffer staticBuffer;
    private final MemorySegment staticTarget;
    private final int offset;
    private byte[] dynamicData;
    private int staticBytes;
    /** Where the static bytes start in the buffer: after room for a header for a message of elements. */
    private int landing;

    BufferReceive(final Buffer buffer)
    {
        this.buffer = buffer;
        this.staticBuffer = ((NIOBuffer)buffer.getStaticBuffer()).getBuffer();
        // A view from 0 to the capacity: the buffer's own position and limit are left alone until the end.
        this.staticTarget = MemorySegment.ofBuffer(staticBuffer.duplicate().clear());
        this.offset = buffer.offset();
    }

    private long room()
    {
        return staticTarget.byteSize() - offset;
    }

    private static long packedBytes(final Incoming message)
    {
        return message.elements ? ElementKind.SECTION_HEADER_BYTES + (long)message.staticBytes : message.staticBytes;
    }

    @Override
    public String refusal(final Incoming message)
    {
        if (message.elements && ElementKind.ofCode(message.typeCode) == null)
        {
            return "message of elements of unknown type code " + message.typeCode + " (corrupted queue?)";
        }
        return packedBytes(message) > room() ? "message truncated: rank " + message.source + " sent " +
            packedBytes(message) + " bytes (tag " + message.tag + ")" : null;
    }

    @Override
    public void bind(final Incoming message)
    {
        staticBytes = message.staticBytes;
        dynamicData = message.dynamicBytes > 0 ? new byte[message.dynamicBytes] : null;
        landing = offset + (message.elements ? ElementKind.SECTION_HEADER_BYTES : 0);
    }

    @Override
    public void accept(final long position, final MemorySegment source, final long at, final int length)
    {
        long p = position;
        long from = at;
        int left = length;
        if (p < staticBytes)
        {
            final int n = (int)Math.min(left, staticBytes - p);
            MemorySegment.copy(source, from, staticTarget, landing + p, n);
            p += n;
            from += n;
            left -= n;
        }
        if (left > 0)
        {
            MemorySegment.copy(source, from, MemorySegment.ofArray(dynamicData), p - staticBytes, left);
        }
    }

    @Override
    public MemorySegment directTarget(final Incoming message)
    {
        return message.elements ? null : staticTarget.asSlice(offset, message.staticBytes);
    }

    @Override
    public void finish(final Incoming message, final Status status)
    {
        final long size = packedBytes(message);
        if (message.elements)
        {
            final ElementKind kind = ElementKind.ofCode(message.typeCode);
            // The header as Buffer.putSectionHeader and commit write it: type code, padding, element count.
            staticTarget.asSlice(offset, ElementKind.SECTION_HEADER_BYTES).fill((byte)0);
            staticTarget.set(ValueLayout.JAVA_BYTE, offset, (byte)message.typeCode);
            staticTarget.set(PACKED_INT, offset + 4, message.numEls);
            if ((long)message.numEls * kind.bytes() != message.staticBytes)
            {
                throw new XDevException("shm device: rank " + message.source + " announced " + message.numEls + " " +
                    kind + " elements in " + message.staticBytes + " bytes (corrupted queue?)");
            }
            kind.pack(staticTarget, landing, message.numEls);
        }
        buffer.setSize((int)size);
        if (dynamicData != null)
        {
            buffer.setDynamicBuffer(dynamicData);
        }
        staticBuffer.limit(offset + (int)size);
        staticBuffer.position(0);
        status.numEls = message.numEls;
        status.type = message.type();
    }

    @Override
    public String describeRoom()
    {
        return "room for " + room() + " bytes";
    }
}
