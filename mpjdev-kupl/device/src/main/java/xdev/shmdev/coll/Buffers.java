package xdev.shmdev.coll;

import java.lang.reflect.Array;

import mpi.Datatype;
import mpi.MPIException;

/** Checks on a collective's buffer arguments: anything these refuse is left to MPJ Express, which reports it. */
final class Buffers
{
    private Buffers()
    {
    }

    /** Array elements in {@code count} items of {@code datatype}, or -1 if negative or too many for an array. */
    static int elements(final int count, final Datatype datatype) throws MPIException
    {
        final long elements = (long)count * datatype.Size();
        return count < 0 || elements > Integer.MAX_VALUE ? -1 : (int)elements;
    }

    /** Whether {@code buffer} is an array of {@code type} with {@code elements} elements from {@code offset}. */
    static boolean holds(final Object buffer, final ElementType type, final int offset, final long elements)
    {
        return type != null && elements >= 0 && type.isArray(buffer) && offset >= 0 &&
            offset + elements <= Array.getLength(buffer);
    }
}
