package mpi.rma.internal.message;

import java.lang.foreign.MemorySegment;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.common.BasicType;
import mpi.rma.internal.types.StridedCopy;
import mpi.rma.internal.types.TypeLayout;

/**
 * Where the elements of a derived target datatype lie, as a request of the message path carries
 * them ({@link RmaRequest}): a pattern of runs (byte offset from the target displacement, length in
 * elements) repeated {@code repeats} times {@code repeatBytes} apart, and that repeated {@code copies}
 * times {@code copyBytes} apart. Elements are taken in order: every run of the first repetition of
 * the first copy, then of the second repetition, and so on, which is the type map's order, so
 * element {@code k} of the origin's dense data meets the {@code k}-th element of these runs.
 *
 * <p>Why repeated patterns and not every run listed: {@code count} copies of a datatype are its
 * blocks repeated at its extent, and a vector is one run repeated at its stride
 * ({@link TypeLayout#strided}), so the halo exchange's column of a thousand elements costs seven
 * longs on the wire, not two thousand, and so do {@code count} copies of it. Other types list the
 * blocks of one copy. Adjacent blocks within a copy are already merged ({@link TypeLayout}); runs
 * that meet across repetitions are merged as they are walked ({@link #forEachRun}).
 *
 * <p>Encoded as {@code 5 + 2 * runs} longs:
 * <pre>
 * | copies | copy bytes | repeats | repeat bytes | runs | offset 0 | elements 0 | offset 1 | elements 1 | ... |
 * </pre>
 * Offsets and spacings may be negative (a vector with a negative stride); the origin has checked
 * that every element lies in the target's memory, except on a dynamic window, whose target checks
 * each run ({@link ExposedMemory}). Immutable.
 */
public final class TargetRuns
{
    /** Longs before the runs: copies, copy bytes, repeats, repeat bytes, runs. */
    static final int FIXED_LONGS = 5;
    /** The most runs one request may carry: its encoding must fit a Java array of longs. */
    static final int MAX_RUNS = (Integer.MAX_VALUE - 8 - FIXED_LONGS) / 2;

    private final int elementBytes;
    private final long copies;
    private final long copyBytes;
    private final long repeats;
    private final long repeatBytes;
    private final long[] offsets;
    private final long[] lengths;
    /** Elements of one repetition's runs. */
    private final long perRepeat;
    private final long elements;
    private final long lowestByte;
    private final long endByte;

    private TargetRuns(final int elementBytes, final long copies, final long copyBytes, final long repeats,
        final long repeatBytes, final long[] offsets, final long[] lengths)
    {
        this.elementBytes = elementBytes;
        this.copies = copies;
        this.copyBytes = copies == 1 ? 0 : copyBytes;
        this.repeats = repeats;
        this.repeatBytes = repeats == 1 ? 0 : repeatBytes;
        this.offsets = offsets;
        this.lengths = lengths;
        long inRepeat = 0;
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        for (int i = 0; i < offsets.length; i++)
        {
            inRepeat = Math.addExact(inRepeat, lengths[i]);
            low = Math.min(low, offsets[i]);
            high = Math.max(high, Math.addExact(offsets[i], Math.multiplyExact(lengths[i], (long)elementBytes)));
        }
        this.perRepeat = inRepeat;
        this.elements = Math.multiplyExact(Math.multiplyExact(inRepeat, repeats), copies);
        final long repeatSpread = Math.multiplyExact(repeats - 1, this.repeatBytes);
        final long copySpread = Math.multiplyExact(copies - 1, this.copyBytes);
        this.lowestByte = offsets.length == 0 ? 0 : low + Math.min(0, repeatSpread) + Math.min(0, copySpread);
        this.endByte = offsets.length == 0 ? 0 : high + Math.max(0, repeatSpread) + Math.max(0, copySpread);
    }

    /**
     * The runs of {@code count} copies of {@code layout}: none if that is no element (the message
     * path sends nothing then, and a run list of none is never on the wire).
     *
     * @throws RmaException ERR_TYPE if the datatype has more blocks than one request can carry.
     */
    static TargetRuns of(final TypeLayout layout, final int count)
    {
        final int width = layout.basic().sizeBytes();
        if (count == 0 || layout.size() == 0)
        {
            return new TargetRuns(width, 1, 0, 1, 0, new long[0], new long[0]);
        }
        final long extentBytes = layout.extent() * width;
        final TypeLayout.Strided all = layout.strided(count);
        if (all != null)
        {
            return repeated(width, 1, 0, all);
        }
        final TypeLayout.Strided one = layout.strided(1);
        if (one != null)
        {
            return repeated(width, count, extentBytes, one);
        }
        final int blocks = layout.blockCount();
        if (blocks > MAX_RUNS)
        {
            throw new RmaException(ErrorClass.ERR_TYPE, "the target datatype " + layout.name() + " has " + blocks +
                " separate blocks, more than the " + MAX_RUNS + " one request of the message path can carry: " +
                "split the transfer into several calls");
        }
        final long[] offsets = new long[blocks];
        final long[] lengths = new long[blocks];
        for (int block = 0; block < blocks; block++)
        {
            offsets[block] = layout.displacement(block) * width;
            lengths[block] = layout.length(block);
        }
        return new TargetRuns(width, count, extentBytes, 1, 0, offsets, lengths);
    }

    /** {@code copies} copies of a strided pattern: one run repeated, or one run if its blocks follow each other. */
    private static TargetRuns repeated(final int width, final long copies, final long copyBytes,
        final TypeLayout.Strided strided)
    {
        final long stride = strided.stride() * width;
        final long[] first = {strided.first() * width};
        if (strided.blocks() == 1 || stride == strided.blockLength() * width)
        {
            return new TargetRuns(width, copies, copyBytes, 1, 0, first,
                new long[] {strided.blocks() * strided.blockLength()});
        }
        return new TargetRuns(width, copies, copyBytes, strided.blocks(), stride, first,
            new long[] {strided.blockLength()});
    }

    /** How many longs {@link #encode} writes. */
    int encodedLongs()
    {
        return FIXED_LONGS + 2 * offsets.length;
    }

    /** The wire form (see the class comment). */
    long[] encode()
    {
        final long[] encoded = new long[encodedLongs()];
        encodeInto(encoded, 0);
        return encoded;
    }

    /** Writes the wire form into {@code into} from index {@code at}. */
    void encodeInto(final long[] into, final int at)
    {
        into[at] = copies;
        into[at + 1] = copyBytes;
        into[at + 2] = repeats;
        into[at + 3] = repeatBytes;
        into[at + 4] = offsets.length;
        for (int i = 0; i < offsets.length; i++)
        {
            into[at + FIXED_LONGS + 2 * i] = offsets[i];
            into[at + FIXED_LONGS + 2 * i + 1] = lengths[i];
        }
    }

    /**
     * The runs encoded in {@code longs} longs of {@code from} at {@code at}, for elements of
     * {@code type}; they must hold exactly {@code expectedElements} elements.
     *
     * @throws RmaException ERR_OTHER if the encoding is malformed: the window's messages are out of step.
     */
    static TargetRuns decode(final long[] from, final int at, final int longs, final BasicType type,
        final long expectedElements)
    {
        final long copies = longs >= FIXED_LONGS ? from[at] : 0;
        final long repeats = longs >= FIXED_LONGS ? from[at + 2] : 0;
        final long runs = longs >= FIXED_LONGS ? from[at + 4] : -1;
        if (copies < 1 || repeats < 1 || runs < 1 || longs != FIXED_LONGS + 2 * runs)
        {
            throw malformed("a run list of " + longs + " longs with " + copies + " copies, " + repeats +
                " repeats and " + runs + " runs");
        }
        final long[] offsets = new long[(int)runs];
        final long[] lengths = new long[(int)runs];
        for (int i = 0; i < runs; i++)
        {
            offsets[i] = from[at + FIXED_LONGS + 2 * i];
            lengths[i] = from[at + FIXED_LONGS + 2 * i + 1];
            if (lengths[i] < 1)
            {
                throw malformed("run " + i + " of " + lengths[i] + " elements");
            }
        }
        final TargetRuns decoded;
        try
        {
            decoded = new TargetRuns(type.sizeBytes(), copies, from[at + 1], repeats, from[at + 3], offsets, lengths);
        }
        catch (final ArithmeticException e)
        {
            throw malformed("a run list whose elements overflow a long");
        }
        if (decoded.elements != expectedElements)
        {
            throw malformed("runs of " + decoded.elements + " elements for a request of " + expectedElements);
        }
        return decoded;
    }

    /** Elements in every run, over every repetition. */
    long elements()
    {
        return elements;
    }

    /** The lowest byte any run touches, relative to the target displacement. */
    long lowestByte()
    {
        return lowestByte;
    }

    /** One past the highest byte any run touches, relative to the target displacement. */
    long endByte()
    {
        return endByte;
    }

    /** What {@link #forEachRun} does with each run. */
    @FunctionalInterface
    interface RunAction
    {
        /**
         * @param byteOffset where the run starts, relative to the target displacement.
         * @param count      its elements.
         * @param index      the index of its first element among all the runs' elements (in the dense data).
         */
        void apply(long byteOffset, int count, int index);
    }

    /** Calls {@code action} for each run in order, runs that meet merged into one. */
    void forEachRun(final RunAction action)
    {
        long pendingOffset = 0;
        long pendingCount = 0;
        long index = 0;
        for (long copy = 0; copy < copies; copy++)
        {
            for (long repeat = 0; repeat < repeats; repeat++)
            {
                final long shift = copy * copyBytes + repeat * repeatBytes;
                for (int i = 0; i < offsets.length; i++)
                {
                    final long offset = shift + offsets[i];
                    if (pendingCount > 0 && offset == pendingOffset + pendingCount * elementBytes)
                    {
                        pendingCount += lengths[i];
                        continue;
                    }
                    if (pendingCount > 0)
                    {
                        action.apply(pendingOffset, (int)pendingCount, (int)index);
                        index += pendingCount;
                    }
                    pendingOffset = offset;
                    pendingCount = lengths[i];
                }
            }
        }
        if (pendingCount > 0)
        {
            action.apply(pendingOffset, (int)pendingCount, (int)index);
        }
    }

    /** Stores {@code dense[index...]} into the runs, the target displacement at byte {@code base} of {@code memory}. */
    void scatter(final BasicType type, final Object dense, final int index, final MemorySegment memory,
        final long base)
    {
        if (offsets.length == 1 && repeats > 1)
        {
            // One run repeated (a vector): the strided loop per copy, no walk.
            for (long copy = 0; copy < copies; copy++)
            {
                StridedCopy.toMemory(type, dense, index + copy * perRepeat * repeats, lengths[0], memory,
                    base + copy * copyBytes + offsets[0], repeatBytes, repeats, lengths[0]);
            }
            return;
        }
        forEachRun((offset, count, at) -> type.copyToMemory(dense, index + at, memory, base + offset, count));
    }

    /** Loads the runs into {@code dense[index...]}, the target displacement at byte {@code base} of {@code memory}. */
    void gather(final BasicType type, final MemorySegment memory, final long base, final Object dense,
        final int index)
    {
        if (offsets.length == 1 && repeats > 1)
        {
            for (long copy = 0; copy < copies; copy++)
            {
                StridedCopy.fromMemory(type, memory, base + copy * copyBytes + offsets[0], repeatBytes, dense,
                    index + copy * perRepeat * repeats, lengths[0], repeats, lengths[0]);
            }
            return;
        }
        forEachRun((offset, count, at) -> type.copyFromMemory(memory, base + offset, dense, index + at, count));
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder().append(copies).append(" x ").append(copyBytes).append(" B of ")
            .append(repeats).append(" x ").append(repeatBytes).append(" B of {");
        for (int i = 0; i < offsets.length; i++)
        {
            text.append(i == 0 ? "" : ", ").append(offsets[i]).append(':').append(lengths[i]);
        }
        return text.append('}').toString();
    }

    private static RmaException malformed(final String what)
    {
        return new RmaException(ErrorClass.ERR_OTHER, "the RMA agent got " + what + ": the window's messages are " +
            "out of step");
    }
}
