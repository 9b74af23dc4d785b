package mpi.rma;

import java.lang.foreign.MemorySegment;

import mpi.MPI;

/**
 * The message path of a window made by {@link Win#create} or {@link Win#allocate}, as a {@link TargetPath}:
 * turns each call into the runs of one basic type that {@link MessageWindow} sends. Messages carry
 * basic and contiguous datatypes only, so a derived datatype on either side is refused here with
 * ERR_TYPE (docs/design.md, "windows reached by messages").
 */
final class MessageTargets implements TargetPath
{
    private final int rank;
    private final long[] sizes;
    private final int[] dispUnits;
    private final MessageWindow messages;
    private final PscwMessages pscw;
    private boolean released;

    MessageTargets(final int rank, final long[] sizes, final int[] dispUnits, final MessageWindow messages)
    {
        this.rank = rank;
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.messages = messages;
        this.pscw = new PscwMessages(messages, sizes.length);
    }

    @Override
    public void put(final String call, final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount, final int target, final long offset, final TypeLayout targetType, final int targetCount)
    {
        messages.put(call, originType.basic(), origin, denseStart(call, originType, targetType, originOffset),
            denseCount(originType, originCount), target, denseTargetOffset(offset, targetType));
    }

    @Override
    public void get(final String call, final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount, final int target, final long offset, final TypeLayout targetType, final int targetCount)
    {
        messages.get(call, originType.basic(), origin, denseStart(call, originType, targetType, originOffset),
            denseCount(originType, originCount), target, denseTargetOffset(offset, targetType));
    }

    @Override
    public void accumulate(final String call, final ReduceOp op, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        messages.accumulate(call, originType.basic(), op, origin, denseStart(call, originType, targetType,
            originOffset), denseCount(originType, originCount), target, denseTargetOffset(offset, targetType));
    }

    @Override
    public void getAccumulate(final String call, final ReduceOp op, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final Object result, final int resultOffset,
        final TypeLayout resultType, final int resultCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        if (originType != null && !originType.isDense())
        {
            denseStart(call, originType, targetType, originOffset);
        }
        messages.getAccumulate(call, targetType.basic(), op, origin,
            originType == null ? originOffset : originOffset + (int)originType.displacement(0), result,
            denseStart(call, resultType, targetType, resultOffset), denseCount(resultType, resultCount), target,
            denseTargetOffset(offset, targetType));
    }

    @Override
    public Completion startGet(final String call, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        return messages.startGet(call, originType.basic(), origin, denseStart(call, originType, targetType,
            originOffset), denseCount(originType, originCount), target, denseTargetOffset(offset, targetType));
    }

    @Override
    public Completion startGetAccumulate(final String call, final ReduceOp op, final Object origin,
        final int originOffset, final TypeLayout originType, final int originCount, final Object result,
        final int resultOffset, final TypeLayout resultType, final int resultCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        if (originType != null && !originType.isDense())
        {
            denseStart(call, originType, targetType, originOffset);
        }
        return messages.startGetAccumulate(call, targetType.basic(), op, origin,
            originType == null ? originOffset : originOffset + (int)originType.displacement(0), result,
            denseStart(call, resultType, targetType, resultOffset), denseCount(resultType, resultCount), target,
            denseTargetOffset(offset, targetType));
    }

    @Override
    public void fetchAndOp(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int target, final long offset)
    {
        messages.getAccumulate(call, type, op, origin, originOffset, result, resultOffset, 1, target, offset);
    }

    @Override
    public long compareAndSwap(final String call, final BasicType type, final long compare, final long replacement,
        final int target, final long offset)
    {
        return messages.compareAndSwap(call, type, compare, replacement, target, offset);
    }

    @Override
    public void fence(final String call, final RmaException localError)
    {
        messages.fence(call, localError);
    }

    @Override
    public void lock(final String call, final int target, final boolean exclusive)
    {
        messages.lock(call, target, exclusive);
    }

    @Override
    public void unlock(final String call, final int target, final boolean held, final boolean exclusive)
    {
        messages.unlock(call, target, held, exclusive);
    }

    @Override
    public void flush(final String call, final int target)
    {
        messages.flush(call, target);
    }

    @Override
    public void free(final String call, final RmaException localError)
    {
        messages.free(call, localError);
        released = true;
    }

    @Override
    public boolean released()
    {
        return released;
    }

    /** MPI-4.1 12.2.3 for a window reached by messages: only this process's memory is shared with it. */
    @Override
    public SharedSegment sharedQuery(final int peer)
    {
        final boolean own = peer == rank || peer == MPI.PROC_NULL && sizes[rank] > 0;
        return own ? new SharedSegment(sizes[rank], dispUnits[rank], messages.localMemory()) :
            new SharedSegment(0, peer == MPI.PROC_NULL ? 0 : dispUnits[peer], MemorySegment.NULL);
    }

    /** The message path itself, for what only some windows have (a dynamic window's attached memory). */
    MessageWindow window()
    {
        return messages;
    }

    @Override
    public MemorySegment localMemory()
    {
        return messages.localMemory();
    }

    @Override
    public int flavor()
    {
        return messages.flavor();
    }

    @Override
    public int model()
    {
        return Win.SEPARATE;
    }

    @Override
    public PscwPath pscw()
    {
        return pscw;
    }

    /** The first origin element of a transfer; throws ERR_TYPE unless both sides are runs of one basic type. */
    private static int denseStart(final String call, final TypeLayout origin, final TypeLayout target,
        final int originOffset)
    {
        if (!origin.isDense() || !target.isDense())
        {
            throw new RmaException(ErrorClass.ERR_TYPE, call + ": this window reaches its targets by messages, "
                + "which carry basic and contiguous datatypes only (origin " + origin.name() + ", target "
                + target.name() + "); use a window made by Win.allocateShared for derived datatypes, or "
                + "one call per contiguous block");
        }
        return originOffset + (int)origin.displacement(0);
    }

    /** The byte offset of a dense transfer's first target element. */
    private static long denseTargetOffset(final long offset, final TypeLayout target)
    {
        return offset + target.displacement(0) * target.basic().sizeBytes();
    }

    /** Basic elements a dense transfer of {@code count} origin copies moves. */
    private static int denseCount(final TypeLayout origin, final int count)
    {
        return Math.toIntExact(origin.size() * count);
    }
}
