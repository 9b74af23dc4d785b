package mpi.rma.internal.message;

import java.lang.foreign.MemorySegment;

import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.SharedSegment;
import mpi.rma.internal.AccessChecks;
import mpi.rma.internal.AttachedMemory;
import mpi.rma.internal.Completion;
import mpi.rma.internal.TargetPath;
import mpi.rma.internal.sync.PscwMessages;
import mpi.rma.internal.sync.PscwPath;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.types.TypeLayout;
import mpi.rma.internal.vocabulary.MemoryModels;

/**
 * The message path of a window made by {@code Win.create}, {@code Win.createDynamic} or {@code Win.allocate}, as a
 * {@link TargetPath}: turns each call into the requests of one basic type that {@link MessageWindow} sends.
 * Basic and contiguous datatypes on both sides travel as they always did: the origin's elements straight from its
 * array, one dense run at the target. A derived datatype on either side takes the derived path
 * (docs/design.md#derived-datatypes-on-the-message-path): a derived origin (or result) buffer is packed into (or
 * unpacked from) a dense array here ({@link ElementPacking}), and a derived target travels as its run list
 * ({@link TargetRuns}), which the target's agent scatters the dense elements into, or gathers a reply from.
 */
public final class MessageTargets implements TargetPath
{
    /** The most elements one call of the derived path moves: its dense array must be a Java array. */
    static final int MAX_ELEMENTS = Integer.MAX_VALUE - 8;

    private final int rank;
    private final long[] sizes;
    private final int[] dispUnits;
    private final MessageWindow messages;
    private final PscwMessages pscw;
    private boolean released;

    public MessageTargets(final int rank, final long[] sizes, final int[] dispUnits, final MessageWindow messages)
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
        if (originType.isDense() && targetType.isDense())
        {
            messages.put(call, originType.basic(), origin, denseStart(originType, originOffset),
                denseCount(originType, originCount), target, denseTargetOffset(offset, targetType), null);
            return;
        }
        final int elements = derivedElements(call, originType, originCount);
        if (elements == 0)
        {
            return;
        }
        messages.put(call, originType.basic(), originArray(originType, origin, originOffset, originCount, elements),
            denseIndex(originType, originOffset), elements, target, targetOffset(offset, targetType),
            runs(targetType, targetCount));
    }

    @Override
    public void get(final String call, final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount, final int target, final long offset, final TypeLayout targetType, final int targetCount)
    {
        if (originType.isDense() && targetType.isDense())
        {
            messages.get(call, originType.basic(), origin, denseStart(originType, originOffset),
                denseCount(originType, originCount), target, denseTargetOffset(offset, targetType), null);
            return;
        }
        final int elements = derivedElements(call, originType, originCount);
        AccessChecks.checkNoOverlap(call, "origin", originType, originCount, "§12.3.2");
        if (elements == 0)
        {
            return;
        }
        final Object into = receiveArray(originType, origin, elements);
        messages.get(call, originType.basic(), into, denseIndex(originType, originOffset), elements, target,
            targetOffset(offset, targetType), runs(targetType, targetCount));
        if (!originType.isDense())
        {
            ElementPacking.unpack(into, originType, origin, originOffset, originCount);
        }
    }

    @Override
    public void accumulate(final String call, final ReduceOp op, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        if (originType.isDense() && targetType.isDense())
        {
            messages.accumulate(call, originType.basic(), op, origin, denseStart(originType, originOffset),
                denseCount(originType, originCount), target, denseTargetOffset(offset, targetType), null);
            return;
        }
        final int elements = derivedElements(call, originType, originCount);
        if (elements == 0)
        {
            return;
        }
        messages.accumulate(call, originType.basic(), op, originArray(originType, origin, originOffset, originCount,
            elements), denseIndex(originType, originOffset), elements, target, targetOffset(offset, targetType),
            runs(targetType, targetCount));
    }

    @Override
    public void getAccumulate(final String call, final ReduceOp op, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final Object result, final int resultOffset,
        final TypeLayout resultType, final int resultCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        if ((originType == null || originType.isDense()) && resultType.isDense() && targetType.isDense())
        {
            messages.getAccumulate(call, targetType.basic(), op, origin,
                originType == null ? originOffset : originOffset + (int)originType.displacement(0), result,
                denseStart(resultType, resultOffset), denseCount(resultType, resultCount), target,
                denseTargetOffset(offset, targetType), null);
            return;
        }
        final int elements = derivedElements(call, resultType, resultCount);
        if (elements == 0)
        {
            return;
        }
        final Object into = receiveArray(resultType, result, elements);
        messages.getAccumulate(call, targetType.basic(), op, operands(originType, origin, originOffset, originCount,
            elements), operandIndex(originType, originOffset), into, denseIndex(resultType, resultOffset), elements,
            target, targetOffset(offset, targetType), runs(targetType, targetCount));
        if (!resultType.isDense())
        {
            ElementPacking.unpack(into, resultType, result, resultOffset, resultCount);
        }
    }

    @Override
    public Completion startGet(final String call, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        if (originType.isDense() && targetType.isDense())
        {
            return messages.startGet(call, originType.basic(), origin, denseStart(originType, originOffset),
                denseCount(originType, originCount), target, denseTargetOffset(offset, targetType), null, null);
        }
        final int elements = derivedElements(call, originType, originCount);
        AccessChecks.checkNoOverlap(call, "origin", originType, originCount, "§12.3.2");
        if (elements == 0)
        {
            return Completion.DONE;
        }
        final Object into = receiveArray(originType, origin, elements);
        return messages.startGet(call, originType.basic(), into, denseIndex(originType, originOffset), elements,
            target, targetOffset(offset, targetType), runs(targetType, targetCount),
            unpacking(into, originType, origin, originOffset, originCount));
    }

    @Override
    public Completion startGetAccumulate(final String call, final ReduceOp op, final Object origin,
        final int originOffset, final TypeLayout originType, final int originCount, final Object result,
        final int resultOffset, final TypeLayout resultType, final int resultCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        if ((originType == null || originType.isDense()) && resultType.isDense() && targetType.isDense())
        {
            return messages.startGetAccumulate(call, targetType.basic(), op, origin,
                originType == null ? originOffset : originOffset + (int)originType.displacement(0), result,
                denseStart(resultType, resultOffset), denseCount(resultType, resultCount), target,
                denseTargetOffset(offset, targetType), null, null);
        }
        final int elements = derivedElements(call, resultType, resultCount);
        if (elements == 0)
        {
            return Completion.DONE;
        }
        final Object into = receiveArray(resultType, result, elements);
        return messages.startGetAccumulate(call, targetType.basic(), op, operands(originType, origin, originOffset,
            originCount, elements), operandIndex(originType, originOffset), into, denseIndex(resultType,
            resultOffset), elements, target, targetOffset(offset, targetType), runs(targetType, targetCount),
            unpacking(into, resultType, result, resultOffset, resultCount));
    }

    @Override
    public void fetchAndOp(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int target, final long offset)
    {
        messages.getAccumulate(call, type, op, origin, originOffset, result, resultOffset, 1, target, offset, null);
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

    /** The message path itself, which keeps a dynamic window's attached memory. */
    @Override
    public AttachedMemory attachedMemory()
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
        return MemoryModels.SEPARATE;
    }

    @Override
    public PscwPath pscw()
    {
        return pscw;
    }

    /** The first origin element of a dense transfer. */
    private static int denseStart(final TypeLayout origin, final int originOffset)
    {
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

    /**
     * Basic elements a transfer of the derived path moves: {@code count} copies of {@code layout}, one side's
     * (the signatures match, AccessChecks).
     *
     * @throws RmaException ERR_COUNT if they are more than one Java array holds.
     */
    private static int derivedElements(final String call, final TypeLayout layout, final int count)
    {
        final long elements = layout.size() * count;
        if (elements > MAX_ELEMENTS)
        {
            throw new RmaException(ErrorClass.ERR_COUNT, call + ": " + count + " of " + layout.name() + " are " +
                elements + " elements, and a window reached by messages moves at most " + MAX_ELEMENTS +
                " elements of a derived datatype in one call (they travel as one Java array): split it into calls " +
                "of fewer copies");
        }
        return (int)elements;
    }

    /** The origin's elements in one dense array: the array itself where the origin type is dense, else packed. */
    private static Object originArray(final TypeLayout layout, final Object origin, final int originOffset,
        final int count, final int elements)
    {
        return layout.isDense() ? origin : ElementPacking.pack(layout, origin, originOffset, count, elements);
    }

    /** Where the elements of a buffer start in {@link #originArray} or {@link #receiveArray}. */
    private static int denseIndex(final TypeLayout layout, final int originOffset)
    {
        return layout.isDense() ? denseStart(layout, originOffset) : 0;
    }

    /** getAccumulate's operands as {@link #originArray}: none with NO_OP (no origin layout). */
    private static Object operands(final TypeLayout layout, final Object origin, final int originOffset,
        final int count, final int elements)
    {
        return layout == null ? origin : originArray(layout, origin, originOffset, count, elements);
    }

    private static int operandIndex(final TypeLayout layout, final int originOffset)
    {
        return layout == null ? originOffset : denseIndex(layout, originOffset);
    }

    /** Where a reply lands: the buffer itself where its type is dense, else a dense array unpacked after. */
    private static Object receiveArray(final TypeLayout layout, final Object buffer, final int elements)
    {
        return layout.isDense() ? buffer : RmaRequest.newArray(layout.basic(), elements);
    }

    /** The unpacking of a reply that landed in {@code dense} into a derived buffer; null for a dense buffer. */
    private static Runnable unpacking(final Object dense, final TypeLayout layout, final Object buffer,
        final int offset, final int count)
    {
        return layout.isDense() ? null : () -> ElementPacking.unpack(dense, layout, buffer, offset, count);
    }

    /** The target's byte offset in a request: its first element's for a dense target, its displacement's else. */
    private static long targetOffset(final long offset, final TypeLayout target)
    {
        return target.isDense() ? denseTargetOffset(offset, target) : offset;
    }

    /** A derived target's run list; null for a dense target, which a request carries as one run. */
    private static TargetRuns runs(final TypeLayout target, final int count)
    {
        return target.isDense() ? null : TargetRuns.of(target, count);
    }
}
