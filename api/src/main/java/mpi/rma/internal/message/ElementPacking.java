package mpi.rma.internal.message;

import java.lang.foreign.MemorySegment;

import mpi.rma.spi.common.BasicType;
import mpi.rma.internal.types.StridedCopy;
import mpi.rma.internal.types.TypeCursor;
import mpi.rma.internal.types.TypeLayout;

/**
 * The origin side of a derived datatype on the message path: packs the elements of an origin
 * buffer, in its type map's order, into a new dense array that one message carries, and unpacks a
 * reply's dense elements into a result buffer by its datatype ({@link MessageTargets}). The target
 * side applies the dense elements to its memory through {@link TargetRuns}.
 *
 * <p>A strided type of one-element blocks (a matrix column) goes through {@link StridedCopy}'s plain
 * loop, with the dense array seen as a heap segment; other types walk their blocks with a
 * {@link TypeCursor} and copy each with {@link System#arraycopy}. The caller has checked that every
 * element lies in the buffer.
 */
public final class ElementPacking
{
    private ElementPacking()
    {
    }

    /** The {@code elements} elements of {@code count} copies of {@code layout} in {@code array} from {@code offset}. */
    static Object pack(final TypeLayout layout, final Object array, final int offset, final int count,
        final int elements)
    {
        final BasicType type = layout.basic();
        final Object packed = RmaRequest.newArray(type, elements);
        final TypeLayout.Strided strided = layout.strided(count);
        if (strided != null && strided.blockLength() == 1 && type != BasicType.BOOLEAN)
        {
            StridedCopy.toMemory(type, array, offset + strided.first(), strided.stride(), heapSegment(packed), 0,
                type.sizeBytes(), strided.blocks(), 1);
            return packed;
        }
        final TypeCursor from = new TypeCursor(layout, count);
        int at = 0;
        while (from.available() > 0)
        {
            final int run = (int)from.available();
            System.arraycopy(array, Math.toIntExact(offset + from.position()), packed, at, run);
            at += run;
            from.advance(run);
        }
        return packed;
    }

    /** Stores {@code packed}'s elements into {@code count} copies of {@code layout} in {@code array}. */
    static void unpack(final Object packed, final TypeLayout layout, final Object array, final int offset,
        final int count)
    {
        final BasicType type = layout.basic();
        final TypeLayout.Strided strided = layout.strided(count);
        if (strided != null && strided.blockLength() == 1 && type != BasicType.BOOLEAN)
        {
            StridedCopy.fromMemory(type, heapSegment(packed), 0, type.sizeBytes(), array, offset + strided.first(),
                strided.stride(), strided.blocks(), 1);
            return;
        }
        final TypeCursor into = new TypeCursor(layout, count);
        int at = 0;
        while (into.available() > 0)
        {
            final int run = (int)into.available();
            System.arraycopy(packed, at, array, Math.toIntExact(offset + into.position()), run);
            at += run;
            into.advance(run);
        }
    }

    /** A dense array of any basic type but boolean as a segment, for {@link StridedCopy}. */
    private static MemorySegment heapSegment(final Object dense)
    {
        final MemorySegment segment = WindowBase.arraySegment(dense);
        if (segment == null)
        {
            throw new IllegalArgumentException("no heap segment of a " + dense.getClass().getSimpleName());
        }
        return segment;
    }
}
