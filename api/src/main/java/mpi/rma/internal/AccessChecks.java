package mpi.rma.internal;

import mpi.Datatype;
import mpi.MPI;
import mpi.Op;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.message.MessageFaults;
import mpi.rma.internal.types.AccumulateOps;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.types.TypeLayout;
import mpi.rma.internal.types.TypeLayouts;
import mpi.rma.internal.vocabulary.Assertions;

/**
 * The argument checks every window flavour shares, origin side: buffers against their datatypes,
 * type signatures, ranks, and the range of a target access against the target's memory
 * ({@link #targetOffset}). Each failure is an {@link RmaException} saying what to give instead.
 * Kept out of {@code Win} so that the facade reads as the MPI surface it is.
 *
 * <p>A transfer that moves nothing (a count of 0 or a datatype of size 0, on every side) is checked
 * only for what MPI asks of every call: its datatypes, counts that are not negative, the rank, the epoch
 * and a displacement that is not negative. Its buffers are never touched, so they may be null or of
 * another type, its datatypes may differ (empty type signatures match, MPI-4.1 §3.3.1 and §12.3.1), and
 * any displacement is in range; it reaches no target (docs/design.md#transfers-that-move-nothing).
 */
public final class AccessChecks
{
    /**
     * What {@link #accessOffset} and {@link #transferOffset} return for {@code MPI.PROC_NULL}
     * (docs/design.md#proc-null-targets), and the transfer offsets for a transfer that moves nothing:
     * nothing to access.
     */
    public static final long NO_TARGET = -1;

    private final long[] sizes;
    private final int[] dispUnits;
    /** A dynamic window's: target displacements are addresses, which only the target can check. */
    private final boolean addresses;

    /**
     * @param sizes     bytes of each rank's memory.
     * @param dispUnits each rank's displacement unit.
     * @param addresses whether displacements are addresses of attached memory ({@code Win.createDynamic}).
     */
    public AccessChecks(final long[] sizes, final int[] dispUnits, final boolean addresses)
    {
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.addresses = addresses;
    }

    /** Where a put, get or accumulate goes: both sides' layouts and the byte offset in the target segment. */
    record Transfer(TypeLayout origin, TypeLayout target, long offset)
    {
    }

    /**
     * Checks a put/get/accumulate's arguments and epoch; returns null for {@code MPI.PROC_NULL} and for a
     * transfer that moves nothing.
     *
     * @param writesTarget whether the target's elements are written (put, accumulate): then they must not overlap.
     */
    Transfer transfer(final Epochs epochs, final String call, final Object origin, final int originOffset,
        final int originCount, final Datatype originType, final int targetRank, final long targetDisp,
        final int targetCount, final Datatype targetType, final boolean writesTarget)
    {
        final long offset = transferOffset(epochs, call, origin, originOffset, originCount, originType, targetRank,
            targetDisp, targetCount, targetType, writesTarget);
        return offset == NO_TARGET ? null :
            new Transfer(TypeLayouts.of(originType, call, "origin"), TypeLayouts.of(targetType, call, "target"),
                offset);
    }

    /**
     * As {@link #transfer}, for the blocking calls, which take the layouts from {@link TypeLayouts} themselves
     * (an array index for a basic type): the byte offset in the target's segment, or {@link #NO_TARGET} for
     * {@code MPI.PROC_NULL} and for a transfer that moves nothing, and no object made per call.
     */
    public long transferOffset(final Epochs epochs, final String call, final Object origin, final int originOffset,
        final int originCount, final Datatype originType, final int targetRank, final long targetDisp,
        final int targetCount, final Datatype targetType, final boolean writesTarget)
    {
        final TypeLayout originLayout = TypeLayouts.of(originType, call, "origin");
        final TypeLayout targetLayout = TypeLayouts.of(targetType, call, "target");
        if (movesNothing(call, "origin", originLayout, originCount) &&
            movesNothing(call, "target", targetLayout, targetCount))
        {
            return emptyAccess(call, epochs, targetRank, targetDisp);
        }
        // The signatures first: where one side moves nothing and the other something, ERR_COUNT says so, not the
        // empty side's (null) buffer.
        checkSameSignature(call, "origin", originLayout, originCount, targetLayout, targetCount);
        checkBuffer(call, "origin", origin, originOffset, originCount, originLayout);
        final long offset = accessOffset(call, epochs, targetRank, targetDisp, targetCount, targetLayout);
        if (offset != NO_TARGET && writesTarget)
        {
            checkNoOverlap(call, "target", targetLayout, targetCount,
                call.equals("Win.put") || call.equals("Win.rPut") ? "§12.3.1" : "§12.3.4");
        }
        return offset;
    }

    /** Where a getAccumulate goes: its operation, the layouts of its buffers (origin null with NO_OP), the offset. */
    public record ResultTransfer(ReduceOp op, TypeLayout origin, TypeLayout result, TypeLayout target, long offset)
    {
    }

    /**
     * Checks a getAccumulate's arguments and epoch; returns null for {@code MPI.PROC_NULL} and for one that
     * moves nothing (with {@code Win.NO_OP} the origin moves nothing whatever its count).
     */
    public ResultTransfer resultTransfer(final Epochs epochs, final String call, final Object origin,
        final int originOffset,
        final int originCount, final Datatype originType, final Object result, final int resultOffset,
        final int resultCount, final Datatype resultType, final int targetRank, final long targetDisp,
        final int targetCount, final Datatype targetType, final Op op)
    {
        final TypeLayout type = TypeLayouts.of(targetType, call, "target");
        final ReduceOp reduce = AccumulateOps.forGetAccumulate(op, originType, resultType, targetType, type, call);
        final TypeLayout originLayout = reduce.readsOrigin() ? TypeLayouts.of(originType, call, "origin") : null;
        final TypeLayout resultLayout = TypeLayouts.of(resultType, call, "result");
        if ((originLayout == null || movesNothing(call, "origin", originLayout, originCount)) &&
            movesNothing(call, "result", resultLayout, resultCount) && movesNothing(call, "target", type, targetCount))
        {
            emptyAccess(call, epochs, targetRank, targetDisp);
            return null;
        }
        if (originLayout != null)
        {
            checkSameSignature(call, "origin", originLayout, originCount, type, targetCount);
            checkBuffer(call, "origin", origin, originOffset, originCount, originLayout);
        }
        checkSameSignature(call, "result", resultLayout, resultCount, type, targetCount);
        checkBuffer(call, "result", result, resultOffset, resultCount, resultLayout);
        final long offset = accessOffset(call, epochs, targetRank, targetDisp, targetCount, type);
        if (offset == NO_TARGET)
        {
            return null;
        }
        checkNoOverlap(call, "result", resultLayout, resultCount, "§12.3.4.2");
        checkNoOverlap(call, "target", type, targetCount, "§12.3.4.2");
        return new ResultTransfer(reduce, originLayout, resultLayout, type, offset);
    }

    /**
     * Checks that {@code targetRank} is a rank or PROC_NULL and inside an access epoch of {@code epochs}; returns
     * {@link #NO_TARGET} for PROC_NULL, else the checked byte offset of the target buffer (see {@link #targetOffset}).
     */
    public long accessOffset(final String call, final Epochs epochs, final int targetRank, final long targetDisp,
        final int count, final TypeLayout type)
    {
        checkRank(call, "targetRank", targetRank, true);
        epochs.checkAccess(call, targetRank);
        return targetRank == MPI.PROC_NULL ? NO_TARGET : targetOffset(call, targetRank, targetDisp, count, type);
    }

    /**
     * Whether {@code count} copies of {@code layout} are no element at all; ERR_COUNT for a negative count, which
     * is wrong even where nothing moves. Under the test fault that refuses empty transfers ({@link MessageFaults}),
     * never: such a transfer is then checked as if it moved data.
     */
    private static boolean movesNothing(final String call, final String what, final TypeLayout layout,
        final int count)
    {
        if (count < 0)
        {
            throw new RmaException(ErrorClass.ERR_COUNT, call + ": " + what + "Count=" + count + " is negative");
        }
        return (count == 0 || layout.size() == 0) && !MessageFaults.refusesEmptyTransfers();
    }

    /**
     * The checks of a transfer that moves nothing: the rank, the epoch (an empty put outside one is as wrong as
     * any other) and a displacement that is not negative; no range, since no byte is accessed. Returns
     * {@link #NO_TARGET}: nothing goes to the target.
     */
    private long emptyAccess(final String call, final Epochs epochs, final int targetRank, final long targetDisp)
    {
        checkRank(call, "targetRank", targetRank, true);
        epochs.checkAccess(call, targetRank);
        if (targetRank != MPI.PROC_NULL)
        {
            checkDisp(call, targetDisp);
        }
        return NO_TARGET;
    }

    public void checkRank(final String call, final String what, final int value, final boolean procNullAllowed)
    {
        if ((value < 0 || value >= sizes.length) && !(procNullAllowed && value == MPI.PROC_NULL))
        {
            throw new RmaException(ErrorClass.ERR_RANK, call + ": " + what + "=" + value + " is not a rank of the " +
                "window's " + sizes.length + " processes: give 0 to " + (sizes.length - 1) +
                (procNullAllowed ? " or MPI.PROC_NULL" : ""));
        }
    }

    /**
     * The origin-side range check: byte offset of {@code targetDisp} in {@code targetRank}'s memory, checked so
     * that every element of {@code count} copies of {@code type} lies in it.
     */
    long targetOffset(final String call, final int targetRank, final long targetDisp, final int count,
        final TypeLayout type)
    {
        checkDisp(call, targetDisp);
        if (addresses)
        {
            // An address: only its target knows what is attached there, and checks it (AttachedRegions).
            return targetDisp;
        }
        final long segmentBytes = sizes[targetRank];
        final int unit = dispUnits[targetRank];
        final long elementBytes = type.basic().sizeBytes();
        final long offset;
        try
        {
            offset = Math.multiplyExact(targetDisp, (long)unit);
            final long first = Math.addExact(offset, Math.multiplyExact(type.lowestElement(count), elementBytes));
            final long end = Math.addExact(offset, Math.multiplyExact(type.endElement(count), elementBytes));
            if (first >= 0 && end <= segmentBytes)
            {
                return offset;
            }
        }
        catch (final ArithmeticException e)
        {
            throw outOfRange(call, targetRank, targetDisp, count, type, segmentBytes, unit);
        }
        throw outOfRange(call, targetRank, targetDisp, count, type, segmentBytes, unit);
    }

    private static void checkDisp(final String call, final long targetDisp)
    {
        if (targetDisp < 0)
        {
            throw new RmaException(ErrorClass.ERR_DISP, call + ": targetDisp=" + targetDisp + " is negative");
        }
    }

    /**
     * Past the end is always an error, never a store into the next segment
     * (docs/design.md#accesses-past-the-end-are-rejected).
     */
    private static RmaException outOfRange(final String call, final int targetRank, final long targetDisp,
        final int count, final TypeLayout type, final long segmentBytes, final int unit)
    {
        return new RmaException(ErrorClass.ERR_RMA_RANGE, call + ": targetDisp=" + targetDisp + " (x dispUnit " + unit +
            ") with targetCount=" + count + " of " + type.name() + " reaches " +
            (targetDisp * unit + type.lowestElement(count) * type.basic().sizeBytes() < 0 ? "before the start" :
            "past the end") + " of rank " + targetRank + "'s segment of " + segmentBytes +
            " bytes; nothing was written");
    }

    public static TypeLayout checkBuffer(final String call, final String what, final Object buffer, final int offset,
        final int count, final Datatype datatype)
    {
        return checkBuffer(call, what, buffer, offset, count, TypeLayouts.of(datatype, call, what));
    }

    public static TypeLayout checkBuffer(final String call, final String what, final Object buffer, final int offset,
        final int count, final BasicType basic)
    {
        return checkBuffer(call, what, buffer, offset, count, TypeLayout.basic(basic));
    }

    /**
     * Checks a buffer against its datatype: the array class, and that every element of {@code count}
     * copies lies in the array ({@code offset} is an array index, as in MPJ Express's calls).
     */
    public static TypeLayout checkBuffer(final String call, final String what, final Object buffer, final int offset,
        final int count, final TypeLayout layout)
    {
        final BasicType type = layout.basic();
        if (count < 0)
        {
            throw new RmaException(ErrorClass.ERR_COUNT, call + ": " + what + "Count=" + count + " is negative");
        }
        if (buffer == null)
        {
            throw new RmaException(ErrorClass.ERR_BUFFER, call + ": " + what + " buffer is null: give a " +
                type.arrayName() + " for " + type.mpiName());
        }
        if (!type.describes(buffer))
        {
            throw new RmaException(ErrorClass.ERR_TYPE, call + ": " + what + " is a " +
                buffer.getClass().getSimpleName() + " but " + what + "Type is " + layout.name() +
                ", which describes a " + type.arrayName());
        }
        final int length = java.lang.reflect.Array.getLength(buffer);
        final long first = offset + layout.lowestElement(count);
        final long end = offset + layout.endElement(count);
        if (offset < 0 || first < 0 || end > length)
        {
            throw new RmaException(ErrorClass.ERR_ARG, call + ": " + what + "Offset=" + offset + " and " + what +
                "Count=" + count + (layout.isDense() && layout.extent() == 1 ? "" : " of " + layout.name() +
                " (elements " + first + " to " + (end - 1) + ")") + " do not fit in the " + what +
                " array of length " + length);
        }
        return layout;
    }

    /**
     * Origin and target must carry the same type signature: the same basic type, and as many elements
     * (MPI-4.1 §12.3.1). A different number of elements is ERR_COUNT, as with basic types.
     */
    static void checkSameSignature(final String call, final String what, final TypeLayout type,
        final int count, final TypeLayout targetType, final int targetCount)
    {
        if (targetCount < 0)
        {
            throw new RmaException(ErrorClass.ERR_COUNT, call + ": targetCount=" + targetCount + " is negative");
        }
        if (type.basic() != targetType.basic())
        {
            throw new RmaException(ErrorClass.ERR_TYPE, call + ": " + what + "Type " + type.name() +
                " and targetType " + targetType.name() + " differ: both sides must move the same basic type");
        }
        final long elements = count * type.size();
        final long targetElements = targetCount * targetType.size();
        if (elements != targetElements)
        {
            throw new RmaException(ErrorClass.ERR_COUNT, call + ": " + what + "Count=" + count + " and targetCount=" +
                targetCount + " differ" + (type.isDense() && targetType.isDense() && type.size() == 1 &&
                targetType.size() == 1 ? "" : " in elements (" + elements + " of " + type.name() + " against " +
                targetElements + " of " + targetType.name() + ")") +
                ": both sides must move the same number of elements");
        }
    }

    /** A buffer that is written must not name one location twice: MPI calls that erroneous. */
    public static void checkNoOverlap(final String call, final String what, final TypeLayout layout, final int count,
        final String section)
    {
        if (layout.overlaps(count))
        {
            throw new RmaException(ErrorClass.ERR_TYPE, call + ": " + what + "Type " + layout.name() + " with " + what +
                "Count=" + count + " names some element twice, and that buffer is written: overlapping entries are " +
                "erroneous there (MPI-4.1 " + section + ")");
        }
    }

    public static void checkLockAssertion(final String call, final int assertion)
    {
        if ((assertion & ~Assertions.NOCHECK) != 0)
        {
            throw new RmaException(ErrorClass.ERR_ASSERT, call + ": assertion=" + assertion +
                " has bits a lock does not accept: give 0 or Win.MODE_NOCHECK");
        }
    }
}
