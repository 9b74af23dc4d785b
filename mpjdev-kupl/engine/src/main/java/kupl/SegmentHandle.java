package kupl;

import java.nio.ByteBuffer;

/**
 * What another process of the node needs to map a shared-memory object: the creator's pid
 * and file descriptor (opened again through {@code /proc/<pid>/fd/<fd>}, so the object never
 * needs a name) and the mapped length.
 */
record SegmentHandle(long pid, int fd, long lengthBytes)
{
    static final int BYTES = 8 + 8 + 8;
    static final SegmentHandle NONE = new SegmentHandle(0, -1, 0);

    boolean exists()
    {
        return fd >= 0;
    }

    void writeTo(final ByteBuffer buffer)
    {
        buffer.putLong(pid).putLong(fd).putLong(lengthBytes);
    }

    static SegmentHandle readFrom(final ByteBuffer buffer, final int offset)
    {
        return new SegmentHandle(buffer.getLong(offset), (int)buffer.getLong(offset + 8), buffer.getLong(offset + 16));
    }
}
