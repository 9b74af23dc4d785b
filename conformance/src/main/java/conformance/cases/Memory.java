package conformance.cases;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Direct loads and stores of window memory, by element index. Unaligned layouts, since a
 * contiguous window may place a segment at any byte.
 */
final class Memory
{
    private Memory()
    {
    }

    static int getInt(final MemorySegment segment, final long index)
    {
        return segment.get(ValueLayout.JAVA_INT_UNALIGNED, index * Integer.BYTES);
    }

    static void setInt(final MemorySegment segment, final long index, final int value)
    {
        segment.set(ValueLayout.JAVA_INT_UNALIGNED, index * Integer.BYTES, value);
    }

    static long getLong(final MemorySegment segment, final long index)
    {
        return segment.get(ValueLayout.JAVA_LONG_UNALIGNED, index * Long.BYTES);
    }

    static void setLong(final MemorySegment segment, final long index, final long value)
    {
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, index * Long.BYTES, value);
    }

    static byte getByte(final MemorySegment segment, final long index)
    {
        return segment.get(ValueLayout.JAVA_BYTE, index);
    }

    static void setByte(final MemorySegment segment, final long index, final byte value)
    {
        segment.set(ValueLayout.JAVA_BYTE, index, value);
    }

    static double getDouble(final MemorySegment segment, final long index)
    {
        return segment.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, index * Double.BYTES);
    }

    static void setDouble(final MemorySegment segment, final long index, final double value)
    {
        segment.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, index * Double.BYTES, value);
    }
}
