package mpi.rma.internal.creation;

import mpi.Intracomm;
import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.RmaException;
import mpi.rma.internal.Providers;
import mpi.rma.internal.WindowHints;
import mpi.rma.internal.WindowParts;
import mpi.rma.internal.shared.AlignedSegments;
import mpi.rma.internal.shared.SharedTargets;
import mpi.rma.spi.SharedMemory;
import mpi.rma.spi.SharedMemoryProvider;
import mpi.rma.internal.vocabulary.Flavors;

/**
 * {@code Win.allocateShared}: each process checks its arguments, all agree on the layout
 * ({@link AllocationAgreement}), then the node's provider maps the segments ({@link SharedMemoryProvider}).
 * Kept out of {@code Win}, which documents it, so that the facade stays a facade.
 */
public final class SharedWindowCreation
{
    private SharedWindowCreation()
    {
    }

    public static WindowParts allocateShared(final long size, final int dispUnit, final Info info, final Intracomm comm)
    {
        WindowDevices.refuse("Win.allocateShared");
        if (comm == null)
        {
            throw new RmaException(ErrorClass.ERR_COMM, "Win.allocateShared: comm is null: give an intracommunicator " +
                "such as MPI.COMM_WORLD");
        }
        RmaException localError = null;
        WindowHints hints = WindowHints.defaults();
        if (size < 0)
        {
            localError = new RmaException(ErrorClass.ERR_SIZE, "Win.allocateShared: size=" + size +
                " is negative: give 0 or more bytes");
        }
        else if (dispUnit <= 0)
        {
            localError = new RmaException(ErrorClass.ERR_DISP, "Win.allocateShared: dispUnit=" + dispUnit +
                " must be positive (1 for bytes, 8 for longs, ...)");
        }
        else
        {
            try
            {
                hints = WindowHints.from(info, "Win.allocateShared");
            }
            catch (final RmaException e)
            {
                localError = e;
            }
        }
        final SharedMemoryProvider provider = Providers.get();
        final AllocationAgreement layout = AllocationAgreement.reach(comm, size, dispUnit,
            hints.allocSharedNoncontig(), hints.minimumAlignment(), localError, provider.allocationToken(comm));
        final SharedMemory memory = AlignedSegments.allocate(provider, comm, layout);
        final long alignment = AlignedSegments.alignmentOf(memory.segment(comm.Rank()), layout.alignment);
        return new WindowParts(comm, layout.sizes, layout.dispUnits,
            hints.withNoncontig(!layout.contiguous).withMinimumAlignment(alignment),
            new SharedTargets(comm.Rank(), layout.sizes, layout.dispUnits, memory, Flavors.SHARED));
    }
}
