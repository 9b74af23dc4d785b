package mpi.rma.internal.types;

import java.lang.foreign.MemorySegment;

import mpi.rma.internal.shared.AtomicElements;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;

/**
 * Moves the elements of datatypes between a Java array and a target's memory: put and get (block
 * copies), accumulate and getAccumulate (element by element, through {@link AtomicElements}).
 * Element {@code k} of the origin, in type-map order, meets element {@code k} of the target.
 *
 * <p>Offsets: an array offset is an array index (MPJ Express's meaning, whatever the datatype);
 * a target offset is the byte offset of the target buffer's start in the segment. The caller has
 * checked every argument: types, matching element counts, and that every element lies inside the
 * array and the segment.
 *
 * <p>Strided transfers (basic and contiguous types, vectors, any type of equal blocks equally
 * spaced, on either side) go through {@link StridedCopy} without walking a block list; others
 * walk both type maps with a {@link TypeCursor} each and copy the longest runs that stay
 * contiguous on both sides.
 */
public final class TypedMoves
{
    private TypedMoves()
    {
    }

    /** Copies {@code originCount} copies of the origin type into the target ({@code MPI_Put}). */
    public static void put(final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount,
        final MemorySegment target, final long targetOffset, final TypeLayout targetType, final int targetCount)
    {
        final BasicType basic = targetType.basic();
        final int elementBytes = basic.sizeBytes();
        if (bothDense(originType, originCount, targetType))
        {
            // One block: a store of one element stays a store (a bulk copy costs more for it).
            final long elements = originType.size() * originCount;
            StridedCopy.toMemory(basic, origin, originOffset + originType.denseStart(), elements, target,
                targetOffset + targetType.denseStart() * elementBytes, elements * elementBytes, 1, elements);
            return;
        }
        final TypeLayout.Strided[] pair = stridedPair(originType, originCount, targetType, targetCount);
        if (pair != null)
        {
            final TypeLayout.Strided from = pair[0];
            final TypeLayout.Strided to = pair[1];
            StridedCopy.toMemory(basic, origin, originOffset + from.first(), from.stride(), target,
                targetOffset + to.first() * elementBytes, to.stride() * elementBytes, from.blocks(),
                from.blockLength());
            return;
        }
        walkToMemory(origin, originOffset, originType, originCount, target, targetOffset, targetType, targetCount);
    }

    /** Put's general case: both type maps walked, the runs contiguous on both sides copied. */
    private static void walkToMemory(final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount, final MemorySegment target, final long targetOffset, final TypeLayout targetType,
        final int targetCount)
    {
        final BasicType basic = targetType.basic();
        final int elementBytes = basic.sizeBytes();
        final TypeCursor from = new TypeCursor(originType, originCount);
        final TypeCursor to = new TypeCursor(targetType, targetCount);
        while (from.available() > 0)
        {
            final int run = (int)Math.min(from.available(), to.available());
            basic.copyToMemory(origin, Math.toIntExact(originOffset + from.position()), target,
                targetOffset + to.position() * elementBytes, run);
            from.advance(run);
            to.advance(run);
        }
    }

    /** Copies {@code targetCount} copies of the target type into the origin array ({@code MPI_Get}). */
    public static void get(final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount,
        final MemorySegment target, final long targetOffset, final TypeLayout targetType, final int targetCount)
    {
        final BasicType basic = targetType.basic();
        final int elementBytes = basic.sizeBytes();
        if (bothDense(originType, originCount, targetType))
        {
            final long elements = originType.size() * originCount;
            StridedCopy.fromMemory(basic, target, targetOffset + targetType.denseStart() * elementBytes,
                elements * elementBytes, origin, originOffset + originType.denseStart(), elements, 1, elements);
            return;
        }
        final TypeLayout.Strided[] pair = stridedPair(originType, originCount, targetType, targetCount);
        if (pair != null)
        {
            final TypeLayout.Strided into = pair[0];
            final TypeLayout.Strided from = pair[1];
            StridedCopy.fromMemory(basic, target, targetOffset + from.first() * elementBytes,
                from.stride() * elementBytes, origin, originOffset + into.first(), into.stride(), into.blocks(),
                into.blockLength());
            return;
        }
        walkFromMemory(origin, originOffset, originType, originCount, target, targetOffset, targetType, targetCount);
    }

    /** Get's general case: both type maps walked, the runs contiguous on both sides copied. */
    private static void walkFromMemory(final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount, final MemorySegment target, final long targetOffset, final TypeLayout targetType,
        final int targetCount)
    {
        final BasicType basic = targetType.basic();
        final int elementBytes = basic.sizeBytes();
        final TypeCursor into = new TypeCursor(originType, originCount);
        final TypeCursor from = new TypeCursor(targetType, targetCount);
        while (into.available() > 0)
        {
            final int run = (int)Math.min(into.available(), from.available());
            basic.copyFromMemory(target, targetOffset + from.position() * elementBytes, origin,
                Math.toIntExact(originOffset + into.position()), run);
            into.advance(run);
            from.advance(run);
        }
    }

    /**
     * Combines each origin element into its target element with {@code op}, atomically per element;
     * with {@code result} non-null, first stores each target element's old value there
     * ({@code MPI_Accumulate}, {@code MPI_Get_accumulate}). With {@link ReduceOp#NO_OP} origin is unused. A pairwise op
     * ({@link ReduceOp#pairwise}) updates each (value, index) pair as one element.
     */
    public static void accumulate(final AtomicElements atomics, final ReduceOp op, final Object origin,
        final int originOffset, final TypeLayout originType, final int originCount, final Object result,
        final int resultOffset, final TypeLayout resultType, final int resultCount, final int targetRank,
        final MemorySegment target, final long targetOffset, final TypeLayout targetType, final int targetCount)
    {
        final BasicType basic = targetType.basic();
        final int elementBytes = basic.sizeBytes();
        final boolean reads = op.readsOrigin();
        if (targetType.isDense() && (!reads || originType.isDense()) && (result == null || resultType.isDense()))
        {
            // The common case in one run, without cursors (objects where the JIT does not inline the call).
            applyRun(atomics, op, basic, origin, reads ? Math.toIntExact(originOffset + originType.denseStart()) : 0,
                result, result != null ? Math.toIntExact(resultOffset + resultType.denseStart()) : 0, targetRank,
                target, targetOffset + targetType.denseStart() * elementBytes, targetType.size() * targetCount);
            return;
        }
        final TypeCursor from = reads ? new TypeCursor(originType, originCount) : null;
        final TypeCursor back = result != null ? new TypeCursor(resultType, resultCount) : null;
        final TypeCursor to = new TypeCursor(targetType, targetCount);
        while (to.available() > 0)
        {
            long run = to.available();
            run = from != null ? Math.min(run, from.available()) : run;
            run = back != null ? Math.min(run, back.available()) : run;
            final long targetAt = targetOffset + to.position() * elementBytes;
            final int originAt = from != null ? Math.toIntExact(originOffset + from.position()) : 0;
            final int resultAt = back != null ? Math.toIntExact(resultOffset + back.position()) : 0;
            applyRun(atomics, op, basic, origin, originAt, result, resultAt, targetRank, target, targetAt, run);
            to.advance(run);
            if (from != null)
            {
                from.advance(run);
            }
            if (back != null)
            {
                back.advance(run);
            }
        }
    }

    /**
     * Combines {@code run} consecutive origin elements into as many target elements, atomically per
     * element, first storing each old value in {@code result} when it is not null.
     */
    private static void applyRun(final AtomicElements atomics, final ReduceOp op, final BasicType basic,
        final Object origin, final int originAt, final Object result, final int resultAt, final int targetRank,
        final MemorySegment target, final long targetAt, final long run)
    {
        final boolean reads = op.readsOrigin();
        final int elementBytes = basic.sizeBytes();
        if (op.pairwise())
        {
            // A pair type is one dense block on every side: a run holds whole pairs.
            for (int i = 0; i < run; i += 2)
            {
                atomics.applyPair(targetRank, target, targetAt + (long)i * elementBytes, basic, op, origin,
                    originAt + i, result, resultAt + i);
            }
            return;
        }
        for (int i = 0; i < run; i++)
        {
            final long operand = reads ? basic.rawFromArray(origin, originAt + i) : 0;
            final long old = atomics.getAndApply(targetRank, target, targetAt + (long)i * elementBytes, basic, op,
                operand);
            if (result != null)
            {
                basic.rawToArray(old, result, resultAt + i);
            }
        }
    }

    /**
     * Whether both sides are one block (basic or contiguous types, the common case) with elements to
     * move: one copy then, and no pattern objects, which a call the JIT does not inline would allocate.
     */
    private static boolean bothDense(final TypeLayout originType, final int originCount, final TypeLayout targetType)
    {
        return originType.isDense() && targetType.isDense() && originCount > 0 && originType.size() > 0;
    }

    /**
     * Both sides as strided patterns of one block length, or null: one side a single block is cut
     * to the other's blocks; two patterns of different block lengths take the general walk.
     */
    private static TypeLayout.Strided[] stridedPair(final TypeLayout originType, final int originCount,
        final TypeLayout targetType, final int targetCount)
    {
        TypeLayout.Strided origin = originType.strided(originCount);
        TypeLayout.Strided target = targetType.strided(targetCount);
        if (origin == null || target == null)
        {
            return null;
        }
        if (origin.blocks() == 1 && target.blocks() != 1)
        {
            origin = origin.asBlocksOf(target.blockLength());
        }
        else if (target.blocks() == 1 && origin.blocks() != 1)
        {
            target = target.asBlocksOf(origin.blockLength());
        }
        return origin.blockLength() == target.blockLength() ? new TypeLayout.Strided[] {origin, target} : null;
    }
}
