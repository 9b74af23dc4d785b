package conformance.broken;

import mpi.Datatype;
import mpi.MPIException;
import mpi.rma.spi.DatatypeReader;
import mpi.rma.spi.SharedMemory;

/**
 * The real memory, but every derived datatype is read as one contiguous block of its size: a
 * vector is copied as contiguous. Choosing this provider also chooses its datatype reader
 * ({@code mpi.rma.datatypeReader}), before the first window exists and so before any datatype is read.
 */
public final class ContiguousTypesProvider extends WrappingProvider
{
    static final String READER = "broken-contiguous";

    public ContiguousTypesProvider()
    {
        System.setProperty("mpi.rma.datatypeReader", READER);
    }

    @Override
    public String name()
    {
        return "broken-contiguous-types";
    }

    @Override
    SharedMemory wrap(final SharedMemory memory, final int rank, final long[] sizes)
    {
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
