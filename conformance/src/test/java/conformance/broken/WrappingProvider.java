package conformance.broken;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

import mpi.rma.kupl.KuplSharedMemoryProvider;
import mpi.Intracomm;
import mpi.rma.spi.SharedMemory;
import mpi.rma.spi.SharedMemoryProvider;

/**
 * Base of the deliberately broken providers: the real KUPL provider underneath, with one
 * behaviour spoiled by a subclass. Each exists to show that particular conformance cases fail
 * when the behaviour they check is missing.
 */
abstract class WrappingProvider implements SharedMemoryProvider
{
    private final SharedMemoryProvider real = new KuplSharedMemoryProvider();

    @Override
    public SharedMemory allocate(final Intracomm comm, final long[] sizes, final boolean contiguous)
    {
        return wrap(real.allocate(comm, sizes, contiguous), comm.Rank(), sizes);
    }

    /** The real memory as this provider spoils it. */
    abstract SharedMemory wrap(SharedMemory memory, int rank, long[] sizes);

    SharedMemoryProvider real()
    {
        return real;
    }

    /** Passes every call to the real memory; subclasses override the one they spoil. */
    static class Delegating implements SharedMemory
    {
        final SharedMemory memory;

        Delegating(final SharedMemory memory)
        {
            this.memory = memory;
        }

        @Override
        public MemorySegment segment(final int rank)
        {
            return memory.segment(rank);
        }

        @Override
        public MemorySegment clientArea()
        {
            return memory.clientArea();
        }

        @Override
        public void fence()
        {
            memory.fence();
        }

        @Override
        public void awaitCondition(final BooleanSupplier condition, final String what)
        {
            memory.awaitCondition(condition, what);
        }

        @Override
        public void checkProcesses(final String call)
        {
            memory.checkProcesses(call);
        }

        @Override
        public void free()
        {
            memory.free();
        }
    }
}
