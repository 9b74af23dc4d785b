package mpi.rma.internal.message;

import java.lang.reflect.Array;
import java.util.EnumMap;
import java.util.Map;

import mpi.rma.spi.common.BasicType;

/**
 * Arrays a target agent receives data into and replies from, kept between requests: a put of
 * 1 MiB would otherwise allocate (and zero) a 1 MiB array per request, which the G1 collector
 * takes as a humongous object and reclaims only in a collection. One thread owns an instance;
 * what it hands out is valid until its next {@link #array} call for the same slot.
 */
public final class ScratchArrays
{
    /** Larger requests get an array of their own, so that one huge put does not pin its size for good. */
    static final int MAX_KEPT_BYTES = 4 << 20;

    private final Map<BasicType, Object> kept = new EnumMap<>(BasicType.class);

    /** An array of {@code type} with room for at least {@code count} elements (its length may be larger). */
    Object array(final BasicType type, final int count)
    {
        final Object current = kept.get(type);
        if (current != null && Array.getLength(current) >= count)
        {
            return current;
        }
        final Object fresh = RmaRequest.newArray(type, count);
        if ((long)count * type.sizeBytes() <= MAX_KEPT_BYTES)
        {
            kept.put(type, fresh);
        }
        return fresh;
    }
}
