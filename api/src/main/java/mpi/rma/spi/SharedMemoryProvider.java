package mpi.rma.spi;

import java.util.Optional;

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

    /**
     * Whether {@code failure}, thrown by a collective call of MPJ Express that the API makes
     * itself (the {@code Allgather} of {@link mpi.rma.Win#allocateShared}'s agreement, of
     * {@link mpi.rma.Shared#split}), reports a process that died: the device under the provider
     * may say so in its own exception types, somewhere in the cause chain.
     *
     * @return what died, starting "rank N died", for an {@link mpi.rma.ErrorClass#ERR_PROC_FAILED}
     *         message; empty if {@code failure} reports no death (the default).
     */
    default Optional<String> processFailure(final Throwable failure)
    {
        return Optional.empty();
    }

    /**
     * A number this process adds to {@code Win.allocateShared}'s exchange of arguments (its one
     * {@code Allgather}), called on every process before that exchange: a provider can agree on
     * state of its own there (say, memory kept from a freed window) instead of in an exchange of
     * its own. 0 by default.
     */
    default long allocationToken(final Intracomm comm)
    {
        return 0;
    }

    /**
     * {@link #allocate(Intracomm, long[], boolean)}, with what {@link #allocationToken} returned on
     * every process, indexed by rank (the same array on every process).
     */
    default SharedMemory allocate(final Intracomm comm, final long[] sizes, final boolean contiguous,
        final long[] tokens)
    {
        return allocate(comm, sizes, contiguous);
    }
}
