package conformance.cases;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import conformance.CaseContext;
import mpi.MPI;
import mpi.rma.Win;

/**
 * Direct loads and stores of window memory, by element index. Unaligned layouts, since a
 * contiguous window may place a segment at any byte. The {@code passive...} reads check another
 * process's memory inside a passive-target epoch on it, on any flavour.
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

    /**
     * The long at displacement {@code disp} of {@code target}, read inside a passive-target epoch on
     * it: a load of its shared segment on an allocateShared window, a get completed by a flush on
     * the others (whose memory no other process can load).
     */
    static long passiveLong(final CaseContext c, final Win win, final int target, final long disp)
    {
        if (c.isShared())
        {
            return getLong(win.sharedQuery(target).memory(), disp * win.sharedQuery(target).dispUnit() / Long.BYTES);
        }
        final long[] value = new long[1];
        win.get(value, 0, 1, MPI.LONG, target, c.disp(win, target, disp), 1, MPI.LONG);
        win.flush(target);
        return value[0];
    }

    /** As {@link #passiveLong} for an int at element {@code index} (the target's disp unit must be 1 or 4). */
    static int passiveInt(final CaseContext c, final Win win, final int target, final long index)
    {
        if (c.isShared())
        {
            return getInt(win.sharedQuery(target).memory(), index);
        }
        final int[] value = new int[1];
        final long unit = c.dispUnit(win, target);
        win.get(value, 0, 1, MPI.INT, target, c.disp(win, target, index * Integer.BYTES / (unit > 0 ? unit : 1)), 1,
            MPI.INT);
        win.flush(target);
        return value[0];
    }

    /** As {@link #passiveLong} for the short at displacement 0 (disp unit 2). */
    static short passiveShort(final CaseContext c, final Win win, final int target)
    {
        if (c.isShared())
        {
            return win.sharedQuery(target).memory().get(ValueLayout.JAVA_SHORT_UNALIGNED, 0);
        }
        final short[] value = new short[1];
        win.get(value, 0, 1, MPI.SHORT, target, c.disp(win, target, 0), 1, MPI.SHORT);
        win.flush(target);
        return value[0];
    }
}
