package xdev.shmdev;

import mpjbuf.Buffer;
import mpjbuf.BufferException;
import mpjbuf.BufferFactory;
import mpjbuf.RawBuffer;
import mpjbuf.Type;
import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;

/**
 * Byte arrays between ranks over the network device while a job that spans nodes sets itself up (which
 * rank runs on which node, the out-of-band steps of a node's shared memory): blocking sends and receives in
 * a context of their own, which no communicator of MPJ Express uses (its contexts count up from 0).
 */
final class NetworkBytes
{
    /** The context of the device's own messages. */
    static final int SETUP_CONTEXT = Integer.MIN_VALUE + 0x5e7;

    private NetworkBytes()
    {
    }

    /** Sends {@code data} to {@code destination} with {@code tag}; returns once the network has taken it. */
    static void send(final Device network, final ProcessID destination, final int tag, final byte[] data)
    {
        final int overhead = network.getSendOverhead();
        final int capacity = overhead + Buffer.SECTION_OVERHEAD + data.length;
        final RawBuffer raw = BufferFactory.create(capacity);
        try
        {
            final Buffer buffer = new Buffer(raw, overhead, capacity);
            buffer.putSectionHeader(Type.BYTE);
            buffer.write(data, 0, data.length);
            buffer.commit();
            network.send(buffer, destination, tag, SETUP_CONTEXT);
        }
        catch (final BufferException e)
        {
            throw new XDevException("shm device: cannot pack " + data.length + " bytes for the network: " +
                e.getMessage());
        }
        finally
        {
            BufferFactory.destroy(raw);
        }
    }

    /** Receives exactly {@code length} bytes from {@code source} with {@code tag}. */
    static byte[] receive(final Device network, final ProcessID source, final int tag, final int length)
    {
        final int overhead = network.getRecvOverhead();
        final int capacity = overhead + Buffer.SECTION_OVERHEAD + length;
        final RawBuffer raw = BufferFactory.create(capacity);
        try
        {
            final Buffer buffer = new Buffer(raw, overhead, capacity);
            network.recv(buffer, source, tag, SETUP_CONTEXT);
            buffer.commit();
            buffer.getSectionHeader();
            final int got = buffer.getSectionSize();
            if (got != length)
            {
                throw new XDevException("shm device: expected " + length + " bytes from process " + source.uuid() +
                    " while setting up, got " + got);
            }
            final byte[] data = new byte[length];
            buffer.read(data, 0, length);
            return data;
        }
        catch (final BufferException e)
        {
            throw new XDevException("shm device: cannot unpack " + length + " bytes from the network: " +
                e.getMessage());
        }
        finally
        {
            BufferFactory.destroy(raw);
        }
    }
}
