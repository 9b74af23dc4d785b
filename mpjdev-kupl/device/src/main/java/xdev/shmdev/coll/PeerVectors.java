package xdev.shmdev.coll;

/**
 * The heap arrays a reduction copies the ranks' staged vectors into before combining them: one per rank,
 * each exactly the vector's length (a user function sees arrays as long as MPJ Express's). Kept from call
 * to call while the element type and length stay the same, so that a loop of equal reductions allocates
 * nothing; vectors over {@link #KEPT_BYTES} are made afresh each call rather than held by the communicator
 * (the copies and arithmetic of such vectors cost far more than the allocation).
 */
final class PeerVectors
{
    /** Longest vector kept between calls. */
    static final long KEPT_BYTES = ShmReduce.WHOLE_VECTOR_BYTES;

    private final Object[] vectors;
    private ElementType keptType;
    private int keptLength = -1;

    PeerVectors(final int size)
    {
        this.vectors = new Object[size];
    }

    /** One array of {@code type} and {@code length} elements per rank, contents undefined. */
    Object[] of(final ElementType type, final int length)
    {
        if (type == keptType && length == keptLength)
        {
            return vectors;
        }
        final boolean keep = length * type.bytes() <= KEPT_BYTES;
        final Object[] fresh = keep ? vectors : new Object[vectors.length];
        for (int rank = 0; rank < fresh.length; rank++)
        {
            fresh[rank] = type.newArray(length);
        }
        if (keep)
        {
            keptType = type;
            keptLength = length;
        }
        return fresh;
    }
}
