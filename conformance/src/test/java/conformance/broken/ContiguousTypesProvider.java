package conformance.broken;

import mpi.Datatype;
import mpi.MPIException;
import mpi.rma.spi.DatatypeReader;
import mpi.rma.spi.SharedMemory;

/**
 * The real memory, but every derived datatype is read as one contiguous block of its size: a
 * vector is copied as contiguous. The first window made through this provider also chooses its
 * datatype reader ({@code mpi.rma.datatypeReader}): no datatype is read before a window exists.
 * Not in the constructor: {@link java.util.ServiceLoader} makes every provider listed before the
 * one a job asks for, and the choice must follow only this one's use.
 */
public final class ContiguousTypesProvider extends WrappingProvider
{
    static final String READER = "broken-contiguous";

    @Override
    public String name()
    {
        return "broken-contiguous-types";
    }

    @Override
    SharedMemory wrap(final SharedMemory memory, final int rank, final long[] sizes)
    {
        System.setProperty("mpi.rma.datatypeReader", READER);
        return memory;
    }

    /** The wrong reader: {@code Size()} elements from displacement 0. */
    public static final class Reader implements DatatypeReader
    {
        @Override
        public String name()
        {
            return READER;
        }

        @Override
        public long[] typeMap(final Datatype datatype)
        {
            try
            {
                return new long[] {0, datatype.Size()};
            }
            catch (final MPIException e)
            {
                throw new IllegalStateException(e);
            }
        }
    }
}
