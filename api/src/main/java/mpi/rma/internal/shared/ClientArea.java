package mpi.rma.internal.shared;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import mpi.rma.internal.CollectiveFailure;
import mpi.rma.internal.sync.PscwFlags;

/**
 * Layout of the shared words the API keeps in a window's client area
 * ({@link mpi.rma.spi.SharedMemory#clientArea()}), one padded line per use:
 *
 * <pre>
 *   0, 64     collective failure words of odd and even calls: (sequence << 24) | (rank << 8) | error class,
 *             see {@link CollectiveFailure}
 *   128 * (1 + t) + 0    passive-target lock of rank t: EXCLUSIVE bit | number of shared holders
 *   128 * (1 + t) + 64   accumulate lock of rank t: 0 free, else 1 + the holder's rank
 *   posts:     row of origin o, word t: how many times target t has posted to o (win.post)
 *   completes: row of target t, word o: how many times origin o has completed to t (win.complete)
 * </pre>
 *
 * The two words of a rank sit on different 64-byte lines of one 128-byte block; the lock words
 * of different ranks never share a block (no false sharing, no adjacent-line prefetch). The PSCW
 * rows ({@link PscwFlags}) follow, each {@code ranks} words padded to 128 bytes: every word is
 * written by one process only and only grows, so it is never reset under a reader.
 */
public final class ClientArea
{
    public static final int LINE_BYTES = 128;
    private static final long SECOND_WORD_DELTA = 64;

    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private ClientArea()
    {
    }

    public static long requiredBytes(final int ranks)
    {
        return pscwRowsOffset(ranks) + 2L * ranks * rowBytes(ranks);
    }

    /** Bytes of one PSCW row: a word per rank, padded so that rows never share a block. */
    static long rowBytes(final int ranks)
    {
        return ((long)ranks * Long.BYTES + LINE_BYTES - 1) / LINE_BYTES * LINE_BYTES;
    }

    /** The word in which {@code target} counts its posts to {@code origin}, in a window of {@code ranks}. */
    public static long postWordOffset(final int ranks, final int origin, final int target)
    {
        return pscwRowsOffset(ranks) + origin * rowBytes(ranks) + (long)target * Long.BYTES;
    }

    /** The word in which {@code origin} counts its completes to {@code target}, in a window of {@code ranks}. */
    public static long completeWordOffset(final int ranks, final int target, final int origin)
    {
        return pscwRowsOffset(ranks) + (ranks + (long)target) * rowBytes(ranks) + (long)origin * Long.BYTES;
    }

    private static long pscwRowsOffset(final int ranks)
    {
        return (ranks + 1L) * LINE_BYTES;
    }

    /** The failure word of collective call number {@code call}: the two words take turns. */
    public static long failureWordOffset(final long call)
    {
        return (call & 1) * SECOND_WORD_DELTA;
    }

    static long passiveLockOffset(final int rank)
    {
        return (1L + rank) * LINE_BYTES;
    }

    static long accumulateLockOffset(final int rank)
    {
        return passiveLockOffset(rank) + SECOND_WORD_DELTA;
    }

    public static long getAcquire(final MemorySegment area, final long offset)
    {
        return (long)LONG.getAcquire(area, offset);
    }

    public static void setRelease(final MemorySegment area, final long offset, final long value)
    {
        LONG.setRelease(area, offset, value);
    }

    static boolean compareAndSet(final MemorySegment area, final long offset, final long expected, final long value)
    {
        return LONG.compareAndSet(area, offset, expected, value);
    }

    static long getAndAdd(final MemorySegment area, final long offset, final long delta)
    {
        return (long)LONG.getAndAdd(area, offset, delta);
    }
}
