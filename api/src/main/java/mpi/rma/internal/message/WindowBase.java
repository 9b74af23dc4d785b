package mpi.rma.internal.message;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;

/**
 * The memory a program gives {@code Win.create}: a primitive array, a {@link MemorySegment}
 * (heap or native) or a direct {@link ByteBuffer}, all seen as one {@link MemorySegment}. A
 * heap array is wrapped, never addressed raw: the segment stays valid when the collector moves
 * the array.
 */
public final class WindowBase
{
    private WindowBase()
    {
    }

    /**
     * {@code base} as a segment of all its bytes.
     *
     * @throws RmaException ERR_BASE, saying what to give instead, for null, a boolean[] (its
     *                      elements have no defined bytes), an array of objects, a heap or
     *                      read-only buffer, a read-only segment or one of a confined arena
     *                      (another thread applies the puts), or anything else.
     */
    public static MemorySegment segmentOf(final Object base, final String call)
    {
        final String kinds = "give a primitive array (double[], int[], ...), a MemorySegment or a direct ByteBuffer";
        final MemorySegment ofArray = arraySegment(base);
        final MemorySegment segment = ofArray != null ? ofArray : switch (base)
        {
            case null -> throw new RmaException(ErrorClass.ERR_BASE, call + ": base is null: " + kinds +
                " (new byte[0] for a window that exposes nothing)");
            case MemorySegment given -> given;
            case ByteBuffer buffer when buffer.isDirect() && !buffer.isReadOnly() -> MemorySegment.ofBuffer(buffer);
            case ByteBuffer buffer -> throw new RmaException(ErrorClass.ERR_BASE, call + ": base is a " +
                (buffer.isReadOnly() ? "read-only" : "heap") + " ByteBuffer: give a writable direct one " +
                "(ByteBuffer.allocateDirect), or the array behind it");
            case boolean[] array -> throw new RmaException(ErrorClass.ERR_BASE, call + ": base is a boolean[], " +
                "whose elements have no defined bytes: use a byte[] of 0 and 1");
            default -> throw new RmaException(ErrorClass.ERR_BASE, call + ": base is a " +
                base.getClass().getSimpleName() + ": " + kinds);
        };
        if (!segment.isAccessibleBy(Thread.ofPlatform().unstarted(() -> { })))
        {
            throw new RmaException(ErrorClass.ERR_BASE, call + ": base is a MemorySegment of a confined arena, " +
                "which only its owner thread may touch, and the window's agent thread applies other processes' " +
                "puts to it: allocate it from Arena.ofShared(), Arena.ofAuto() or Arena.global()");
        }
        if (segment.isReadOnly())
        {
            throw new RmaException(ErrorClass.ERR_BASE, call + ": base is a read-only MemorySegment: other " +
                "processes' puts must be able to write it");
        }
        return segment;
    }

    /**
     * A primitive array but a boolean[] as a heap segment of all its bytes (wrapped, so the collector may
     * move the array), or null for anything else.
     */
    static MemorySegment arraySegment(final Object array)
    {
        return switch (array)
        {
            case byte[] bytes -> MemorySegment.ofArray(bytes);
            case char[] chars -> MemorySegment.ofArray(chars);
            case short[] shorts -> MemorySegment.ofArray(shorts);
            case int[] ints -> MemorySegment.ofArray(ints);
            case long[] longs -> MemorySegment.ofArray(longs);
            case float[] floats -> MemorySegment.ofArray(floats);
            case double[] doubles -> MemorySegment.ofArray(doubles);
            case null, default -> null;
        };
    }
}
