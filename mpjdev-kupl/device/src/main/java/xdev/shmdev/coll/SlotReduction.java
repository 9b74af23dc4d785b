package xdev.shmdev.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A short vector's reduction combined straight from the staging slots into the receive buffer, element by
 * element: every rank's value of an element is read from its slot, combined along MPJ Express's tree
 * ({@link MstReduceOrder#steps}) with the operator written out ({@link NumericOperator}), and the root's
 * partial is the element's result. No copy into heap vectors, no call through MPJ Express's operator
 * objects: on 2 ranks that work cost about as much as the exchange of the staged vectors itself.
 *
 * <p>Each element is evaluated alone, which is what MPJ Express's operators do too (element {@code i} of
 * the result depends on element {@code i} of each vector only), so the results are the same bit for bit.
 * The partial results of one element live in a scratch array of one value per rank, made once.
 */
final class SlotReduction
{
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private final StagingArea area;
    private final int size;
    private final int[] ints;
    private final long[] longs;
    private final float[] floats;
    private final double[] doubles;

    SlotReduction(final StagingArea area, final int size)
    {
        this.area = area;
        this.size = size;
        this.ints = new int[size];
        this.longs = new long[size];
        this.floats = new float[size];
        this.doubles = new double[size];
    }

    /**
     * After the phase's flag round: {@code elements} elements of the staged vectors of {@code type} (one of
     * {@code INT}, {@code LONG}, {@code FLOAT}, {@code DOUBLE}) combined by {@code op} along {@code steps},
     * the result ({@code root}'s) written into {@code out} from index 0.
     */
    void reduce(final NumericOperator op, final ElementType type, final int[] steps, final int root,
        final Object out, final int elements)
    {
        final long offset = area.readOffset();
        switch (type)
        {
            case INT -> ints(op, steps, root, (int[])out, elements, offset);
            case LONG -> longs(op, steps, root, (long[])out, elements, offset);
            case FLOAT -> floats(op, steps, root, (float[])out, elements, offset);
            case DOUBLE -> doubles(op, steps, root, (double[])out, elements, offset);
            default -> throw new IllegalArgumentException(type + " has no NumericOperator");
        }
    }

    private void ints(final NumericOperator op, final int[] steps, final int root, final int[] out,
        final int elements, final long offset)
    {
        final int[] partial = ints;
        for (int i = 0; i < elements; i++)
        {
            final long at = offset + (long)i * Integer.BYTES;
            for (int rank = 0; rank < size; rank++)
            {
                partial[rank] = area.segment(rank).get(INT, at);
            }
            for (int step = 0; step < steps.length; step += 2)
            {
                partial[steps[step]] = op.apply(partial[steps[step + 1]], partial[steps[step]]);
            }
            out[i] = partial[root];
        }
    }

    private void longs(final NumericOperator op, final int[] steps, final int root, final long[] out,
        final int elements, final long offset)
    {
        final long[] partial = longs;
        for (int i = 0; i < elements; i++)
        {
            final long at = offset + (long)i * Long.BYTES;
            for (int rank = 0; rank < size; rank++)
            {
                partial[rank] = area.segment(rank).get(LONG, at);
            }
            for (int step = 0; step < steps.length; step += 2)
            {
                partial[steps[step]] = op.apply(partial[steps[step + 1]], partial[steps[step]]);
            }
            out[i] = partial[root];
        }
    }

    private void floats(final NumericOperator op, final int[] steps, final int root, final float[] out,
        final int elements, final long offset)
    {
        final float[] partial = floats;
        for (int i = 0; i < elements; i++)
        {
            final long at = offset + (long)i * Float.BYTES;
            for (int rank = 0; rank < size; rank++)
            {
                partial[rank] = area.segment(rank).get(FLOAT, at);
            }
            for (int step = 0; step < steps.length; step += 2)
            {
                partial[steps[step]] = op.apply(partial[steps[step + 1]], partial[steps[step]]);
            }
            out[i] = partial[root];
        }
    }

    private void doubles(final NumericOperator op, final int[] steps, final int root, final double[] out,
        final int elements, final long offset)
    {
        final double[] partial = doubles;
        for (int i = 0; i < elements; i++)
        {
            final long at = offset + (long)i * Double.BYTES;
            for (int rank = 0; rank < size; rank++)
            {
                partial[rank] = area.segment(rank).get(DOUBLE, at);
            }
            for (int step = 0; step < steps.length; step += 2)
            {
                partial[steps[step]] = op.apply(partial[steps[step + 1]], partial[steps[step]]);
            }
            out[i] = partial[root];
        }
    }
}
