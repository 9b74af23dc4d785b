package mpi.rma.internal.creation;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.common.NodeIdentity;
import mpi.rma.internal.ProcessFailures;

/**
 * The first step of {@code Win.allocateShared}: every process publishes its arguments, its
 * node and whether it found them valid (one {@code Allgather} over the communicator), and all
 * then reach the same verdict. A window is made on every process or on none
 * (docs/design.md#collective-calls-fail-together).
 */
public final class AllocationAgreement
{
    private static final int SIZE = 0;
    private static final int DISP_UNIT = 1;
    private static final int NONCONTIG = 2;
    private static final int NODE = 3;
    private static final int ERROR = 4;
    /** The provider's {@link mpi.rma.spi.SharedMemoryProvider#allocationToken}, carried at no extra round. */
    private static final int TOKEN = 5;
    /** The process's mpi_minimum_memory_alignment, 0 if it gave none. */
    private static final int ALIGNMENT = 6;
    private static final int FIELDS = 7;
    private static final String CALL = "Win.allocateShared";

    public final long[] sizes;
    public final int[] dispUnits;
    public final boolean contiguous;
    /** Every process's provider token, indexed by rank. */
    public final long[] tokens;
    /** The largest mpi_minimum_memory_alignment any process asked for, 1 if none did. */
    public final long alignment;

    private AllocationAgreement(final long[] sizes, final int[] dispUnits, final boolean contiguous,
        final long[] tokens, final long alignment)
    {
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.contiguous = contiguous;
        this.tokens = tokens;
        this.alignment = alignment;
    }

    /**
     * Exchanges this process's arguments and {@code localError} (null when they are valid) and returns the agreed
     * layout.
     *
     * @throws RmaException on every process if any process's arguments are invalid or the processes span nodes;
     *                      ERR_PROC_FAILED naming the rank if a process died during the exchange.
     */
    static AllocationAgreement reach(final Intracomm comm, final long size, final int dispUnit,
        final boolean noncontig, final RmaException localError, final long token)
    {
        return reach(comm, size, dispUnit, noncontig, 0, localError, token);
    }

    /** {@link #reach}, with the mpi_minimum_memory_alignment this process asks for (0 for none). */
    static AllocationAgreement reach(final Intracomm comm, final long size, final int dispUnit,
        final boolean noncontig, final long alignment, final RmaException localError, final long token)
    {
        final long[] own = record(size, dispUnit, noncontig, NodeIdentity.current(), localError, token, alignment);
        final long[] all = new long[comm.Size() * FIELDS];
        try
        {
            comm.Allgather(own, 0, FIELDS, MPI.LONG, all, 0, FIELDS, MPI.LONG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(CALL, "the agreement's Allgather over the communicator", e);
        }
        return verdict(all, localError);
    }

    /** What one process contributes to the exchange. */
    static long[] record(final long size, final int dispUnit, final boolean noncontig, final long node,
        final RmaException localError)
    {
        return record(size, dispUnit, noncontig, node, localError, 0, 0);
    }

    /** What one process contributes to the exchange, with its provider's token and the alignment it asks for. */
    static long[] record(final long size, final int dispUnit, final boolean noncontig, final long node,
        final RmaException localError, final long token, final long alignment)
    {
        return new long[] {size, dispUnit, noncontig ? 1 : 0, node,
            localError == null ? 0 : localError.errorClass().ordinal() + 1, token, alignment};
    }

    /**
     * The verdict every process reaches from the same exchanged records ({@code all}, one
     * {@link #record} per rank, back to back): the layout, or the error to throw.
     */
    static AllocationAgreement verdict(final long[] all, final RmaException localError)
    {
        final int ranks = all.length / FIELDS;
        if (localError != null)
        {
            // A process at fault keeps its own detailed message; the others name the first one at fault.
            throw localError;
        }
        for (int rank = 0; rank < ranks; rank++)
        {
            final long error = all[rank * FIELDS + ERROR];
            if (error != 0)
            {
                throw othersFault(rank, (int)error - 1, all, rank * FIELDS);
            }
        }
        for (int rank = 1; rank < ranks; rank++)
        {
            if (all[rank * FIELDS + NODE] != all[NODE])
            {
                throw new RmaException(ErrorClass.ERR_RMA_SHARED, CALL + ": rank " + rank + " runs on another node " +
                    "than rank 0, and a shared window needs processes that share memory: allocate it on " +
                    "Shared.split(comm), which groups the processes of each node");
            }
        }
        final long[] sizes = new long[ranks];
        final int[] dispUnits = new int[ranks];
        final long[] tokens = new long[ranks];
        boolean everyoneNoncontig = true;
        long alignment = 1;
        for (int rank = 0; rank < ranks; rank++)
        {
            alignment = Math.max(alignment, all[rank * FIELDS + ALIGNMENT]);
            sizes[rank] = all[rank * FIELDS + SIZE];
            dispUnits[rank] = (int)all[rank * FIELDS + DISP_UNIT];
            everyoneNoncontig &= all[rank * FIELDS + NONCONTIG] != 0;
            tokens[rank] = all[rank * FIELDS + TOKEN];
        }
        // Contiguity is what a process relies on when it did not ask for noncontig: it takes every process asking
        // (docs/design.md#noncontiguous-only-when-every-process-asks).
        return new AllocationAgreement(sizes, dispUnits, !everyoneNoncontig, tokens, alignment);
    }

    private static RmaException othersFault(final int rank, final int errorOrdinal, final long[] all, final int base)
    {
        final ErrorClass error = ErrorClass.values()[errorOrdinal];
        final String detail = switch (error)
        {
            case ERR_SIZE -> "its size=" + all[base + SIZE] + " is negative";
            case ERR_DISP -> "its dispUnit=" + all[base + DISP_UNIT] + " is not positive";
            case ERR_INFO_VALUE -> "its info has a value the window does not accept";
            default -> "its arguments are invalid";
        };
        return new RmaException(error, CALL + " failed on every process: rank " + rank + " called it wrongly (" +
            detail + "; rank " + rank + "'s exception says more)");
    }
}
