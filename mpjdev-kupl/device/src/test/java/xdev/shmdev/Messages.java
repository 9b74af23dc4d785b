package xdev.shmdev;

import java.nio.ByteBuffer;

import mpjbuf.Buffer;
import mpjbuf.BufferException;
import mpjbuf.NIOBuffer;
import mpjbuf.Type;

/** Builds and reads the {@code mpjbuf.Buffer}s that MPJ Express hands to a device. */
final class Messages
{
    private Messages()
    {
    }

    /** A buffer of {@code capacity} bytes for receiving. */
    static Buffer empty(final int capacity)
    {
        return new Buffer(new NIOBuffer(capacity, ByteBuffer.allocateDirect(capacity)), 0, capacity);
    }

    /** A committed buffer holding one INT section with {@code values}. */
    static Buffer ints(final int... values) throws BufferException
    {
        final Buffer buffer = empty(16 + 4 * values.length);
        buffer.putSectionHeader(Type.INT);
        buffer.write(values, 0, values.length);
        buffer.commit();
        return buffer;
    }

    /** A buffer of {@code capacity} bytes on the Java heap (its bytes have no fixed address). */
    static Buffer emptyOnHeap(final int capacity)
    {
        return new Buffer(new NIOBuffer(capacity, ByteBuffer.allocate(capacity)), 0, capacity);
    }

    /** A committed buffer holding one BYTE section of {@code length} bytes, byte i being (i * 31 + seed). */
    static Buffer bytes(final int length, final int seed) throws BufferException
    {
        return bytes(empty(16 + length), length, seed);
    }

    /** As {@link #bytes(int, int)}, written into {@code buffer}. */
    static Buffer bytes(final Buffer buffer, final int length, final int seed) throws BufferException
    {
        final byte[] values = new byte[length];
        for (int i = 0; i < length; i++)
        {
            values[i] = (byte)(i * 31 + seed);
        }
        buffer.putSectionHeader(Type.BYTE);
        buffer.write(values, 0, length);
        buffer.commit();
        return buffer;
    }

    /** A committed buffer holding Java objects (MPJ's dynamic section). */
    static Buffer objects(final Object... values) throws BufferException
    {
        final Buffer buffer = empty(64);
        buffer.putSectionHeader(Type.OBJECT);
        buffer.write(values, 0, values.length);
        buffer.commit();
        return buffer;
    }

    static int[] readInts(final Buffer buffer, final int count) throws BufferException
    {
        buffer.commit();
        buffer.getSectionHeader();
        final int[] values = new int[count];
        buffer.read(values, 0, count);
        return values;
    }

    static byte[] readBytes(final Buffer buffer, final int count) throws BufferException
    {
        buffer.commit();
        buffer.getSectionHeader();
        final byte[] values = new byte[count];
        buffer.read(values, 0, count);
        return values;
    }

    static Object[] readObjects(final Buffer buffer, final int count) throws BufferException
    {
        buffer.commit();
        buffer.getSectionHeader();
        final Object[] values = new Object[count];
        buffer.read(values, 0, count);
        return values;
    }

    /** Whether {@code values} is what {@link #bytes(int, int)} wrote. */
    static boolean isPattern(final byte[] values, final int seed)
    {
        for (int i = 0; i < values.length; i++)
        {
            if (values[i] != (byte)(i * 31 + seed))
            {
                return false;
            }
        }
        return true;
    }
}
