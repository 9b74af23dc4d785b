package mpi.rma.spi;

import mpi.Intracomm;

/**
 * What backs {@link mpi.rma.Win}'s shared windows: found with {@link java.util.ServiceLoader}
 * (a {@code META-INF/services/mpi.rma.spi.SharedMemoryProvider} entry). The KUPL engine's
 * provider ({@code mpi.rma.kupl}) lives in module {@code mpjdev-kupl/device}.
 *
 * <p>The API checks every MPI argument and agrees with the other processes that the call is
 * valid before it calls the provider, so a provider only has to allocate.
 */
public interface SharedMemoryProvider
{
    /** A short name for messages, e.g. "kupl". */
    String name();

    /**
     * Allocates one segment per process of {@code comm}; collective. Every process passes the
     * same {@code sizes} (bytes, indexed by rank in {@code comm}) and {@code contiguous}.
     *
     * @param contiguous whether segment i must start where segment i-1 ends.
     * @throws mpi.rma.RmaException on every process alike if the memory cannot be provided.
     */
    SharedMemory allocate(Intracomm comm, long[] sizes, boolean contiguous);
}
