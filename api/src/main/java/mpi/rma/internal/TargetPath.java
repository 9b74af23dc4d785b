package mpi.rma.internal;

import java.lang.foreign.MemorySegment;

import mpi.rma.RmaException;
import mpi.rma.SharedSegment;
import mpi.rma.internal.message.MessageTargets;
import mpi.rma.internal.message.MessageWindow;
import mpi.rma.internal.shared.SharedTargets;
import mpi.rma.internal.sync.PscwPath;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.types.TypeLayout;

/**
 * How a window reaches its targets, behind {@code Win}: by loads and stores of shared memory
 * ({@link SharedTargets}) or by MPJ Express messages ({@link MessageTargets}). {@code Win} has checked
 * every argument and the epoch before it calls here; a path only moves data, completes and
 * synchronises. {@code call} names the user's call for error messages; {@code offset} is the
 * checked byte offset of the target buffer in {@code target}'s memory; layouts describe each
 * buffer ({@link TypeLayout}), counts are copies of them.
 */
public interface TargetPath
{
    void put(String call, Object origin, int originOffset, TypeLayout originType, int originCount, int target,
        long offset, TypeLayout targetType, int targetCount);

    void get(String call, Object origin, int originOffset, TypeLayout originType, int originCount, int target,
        long offset, TypeLayout targetType, int targetCount);

    /** Element-wise atomic with every other accumulate to the same target. */
    void accumulate(String call, ReduceOp op, Object origin, int originOffset, TypeLayout originType,
        int originCount, int target, long offset, TypeLayout targetType, int targetCount);

    /** Element-wise atomic; {@code originType} is null with {@link ReduceOp#NO_OP} (origin is not read). */
    void getAccumulate(String call, ReduceOp op, Object origin, int originOffset, TypeLayout originType,
        int originCount, Object result, int resultOffset, TypeLayout resultType, int resultCount, int target,
        long offset, TypeLayout targetType, int targetCount);

    /**
     * {@link #get}, started for a request-based call ({@code Win.rGet}): returns what is left to complete. A path
     * whose calls complete before they return has nothing left ({@link Completion#DONE}); the message path returns
     * once the request is sent ({@link MessageWindow#startGet}).
     */
    default Completion startGet(final String call, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        get(call, origin, originOffset, originType, originCount, target, offset, targetType, targetCount);
        return Completion.DONE;
    }

    /** {@link #getAccumulate}, started for {@code Win.rGetAccumulate}, as {@link #startGet} is. */
    default Completion startGetAccumulate(final String call, final ReduceOp op, final Object origin,
        final int originOffset, final TypeLayout originType, final int originCount, final Object result,
        final int resultOffset, final TypeLayout resultType, final int resultCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        getAccumulate(call, op, origin, originOffset, originType, originCount, result, resultOffset, resultType,
            resultCount, target, offset, targetType, targetCount);
        return Completion.DONE;
    }

    /** One element of {@code type}; {@code origin} is not read with {@link ReduceOp#NO_OP}. */
    void fetchAndOp(String call, BasicType type, ReduceOp op, Object origin, int originOffset, Object result,
        int resultOffset, int target, long offset);

    /** Returns the old value, raw ({@link BasicType#rawFromArray}). */
    long compareAndSwap(String call, BasicType type, long compare, long replacement, int target, long offset);

    /**
     * The synchronisation of a fence, collective: throws {@code localError} here, and an error on every
     * other process, if it is not null.
     */
    void fence(String call, RmaException localError);

    /** Returns once {@code target}'s lock is held by this process. */
    void lock(String call, int target, boolean exclusive);

    /**
     * Completes this process's operations at {@code target}; releases its lock there if {@code held}
     * (not held: the epoch was opened with MODE_NOCHECK, or by a lockAll with it).
     */
    void unlock(String call, int target, boolean held, boolean exclusive);

    /** Completes this process's operations at {@code target}, or at every target for -1. */
    void flush(String call, int target);

    /**
     * Collective: completes everything and releases the window's memory and helpers. Throws
     * {@code localError} here (and an error on every other process) if it is not null; {@link #released()}
     * then says whether the window was released all the same.
     */
    void free(String call, RmaException localError);

    /** Whether {@link #free} released the window (then it is unusable, whatever free threw). */
    boolean released();

    /** {@code MPI_Win_shared_query} for a checked {@code rank} or {@code MPI.PROC_NULL}. */
    SharedSegment sharedQuery(int rank);

    /** This process's own memory ({@code MPI_WIN_BASE}). */
    MemorySegment localMemory();

    /** One of {@code Win.FLAVOR_*}. */
    int flavor();

    /** {@code Win.UNIFIED} or {@code Win.SEPARATE}. */
    int model();

    /**
     * The memory this process attached to a dynamic window; the facade asks only a window of flavor
     * {@code Win.FLAVOR_DYNAMIC}, whose path is the message path.
     */
    default AttachedMemory attachedMemory()
    {
        throw new IllegalStateException(getClass().getSimpleName() + " carries no dynamic window: only the " +
            "message path attaches memory");
    }

    /** How post, start, complete and wait signal the window's other processes. */
    PscwPath pscw();
}
