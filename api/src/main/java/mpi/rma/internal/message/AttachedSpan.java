package mpi.rma.internal.message;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The bytes of one access to a dynamic window's attached memory ({@link AttachedRegions#span}): a slice of
 * the one region that holds them, or, for an access that runs across regions whose memory touches, a copy
 * of the bytes of each region in turn. (For a window with one segment, {@link ExposedMemory} gives every
 * access that segment, as a span made once.) A Java program cannot view two segments as one (that takes the
 * restricted {@code MemorySegment.reinterpret}), so such an access reads and writes the copy, and
 * {@link #store} writes it back into the regions. Made and used under the monitor of {@link ExposedMemory},
 * so the copy is as atomic as a direct access.
 */
final class AttachedSpan
{
    /** The bytes of a zero-byte access: nothing to read or write. */
    static final AttachedSpan EMPTY = new AttachedSpan(MemorySegment.NULL, null);

    private final MemorySegment memory;
    /** The regions' own bytes that {@link #memory} copies, in address order; null when it is a region's own slice. */
    private final MemorySegment[] pieces;

    private AttachedSpan(final MemorySegment memory, final MemorySegment[] pieces)
    {
        this.memory = memory;
        this.pieces = pieces;
    }

    /** A slice of one region: reads and writes go to the attached memory itself. */
    static AttachedSpan of(final MemorySegment slice)
    {
        return new AttachedSpan(slice, null);
    }

    /** A copy of {@code pieces} one after another, made now. */
    static AttachedSpan copyOf(final MemorySegment[] pieces, final long bytes)
    {
        // Native and 8-byte aligned whatever the size: an access may move more than a Java array holds.
        final MemorySegment copy = Arena.ofAuto().allocate(bytes, Long.BYTES);
        long at = 0;
        for (final MemorySegment piece : pieces)
        {
            MemorySegment.copy(piece, 0, copy, at, piece.byteSize());
            at += piece.byteSize();
        }
        return new AttachedSpan(copy, pieces);
    }

    /** The bytes to read and write, from the access's first byte. */
    MemorySegment memory()
    {
        return memory;
    }

    /** Whether {@link #memory} is a copy of several regions' bytes, rather than attached memory itself. */
    boolean isCopy()
    {
        return pieces != null;
    }

    /** Writes what was written to {@link #memory} into the regions, if it is a copy; nothing otherwise. */
    void store()
    {
        if (pieces == null)
        {
            return;
        }
        long at = 0;
        for (final MemorySegment piece : pieces)
        {
            MemorySegment.copy(memory, at, piece, 0, piece.byteSize());
            at += piece.byteSize();
        }
    }
}
