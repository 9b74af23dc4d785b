package mpi.rma.internal;

import java.lang.foreign.MemorySegment;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.shared.ClientArea;

/**
 * How a collective synchronisation call (fence, free) fails on every process when one
 * process finds an error, at no cost when none does (docs/design.md#collective-calls-fail-together).
 *
 * <p>The failing process still takes part in the underlying fence, so that nobody waits for
 * it, after writing one shared word: the number of the collective call, its rank and the error
 * class. Every process reads the word after the fence (whose barrier makes the write visible)
 * and throws if it names this call. The failing process throws its own, detailed error; the
 * others throw one that names it.
 *
 * <p>Two words, used by turns: a process that leaves a fence early may record a failure of the
 * next call before a slower one has read this call's word, but it cannot record the call after
 * that before everyone has entered the next fence, that is, has read this call's word.
 */
public final class CollectiveFailure
{
    private static final int RANK_SHIFT = 8;
    private static final int SEQUENCE_SHIFT = 24;

    private final MemorySegment area;
    private long sequence;

    public CollectiveFailure(final MemorySegment area)
    {
        this.area = area;
    }

    /** Starts the next collective call; returns its number. */
    public long next()
    {
        return ++sequence;
    }

    /** Records, before the fence, that this process found {@code error} in call number {@code call}. */
    public void record(final long call, final int rank, final ErrorClass error)
    {
        ClientArea.setRelease(area, ClientArea.failureWordOffset(call),
            (call << SEQUENCE_SHIFT) | ((long)rank << RANK_SHIFT) | error.ordinal());
    }

    /** After the fence: throws if some other process recorded a failure of call number {@code call}. */
    public void check(final long call, final String what)
    {
        final long word = ClientArea.getAcquire(area, ClientArea.failureWordOffset(call));
        if (word >>> SEQUENCE_SHIFT == call)
        {
            final int rank = (int)(word >>> RANK_SHIFT) & 0xFFFF;
            final ErrorClass error = ErrorClass.values()[(int)word & 0xFF];
            throw new RmaException(error, what + " failed on every process because rank " + rank + " called it " +
                "wrongly (" + error.mpiName() + "; rank " + rank + "'s exception says why)");
        }
    }
}
