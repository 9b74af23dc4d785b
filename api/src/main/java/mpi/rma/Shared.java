package mpi.rma;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.spi.common.NodeIdentity;
import mpi.rma.internal.ProcessFailures;

/**
 * {@code MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, key, info, &newcomm)} for MPJ Express:
 * splits a communicator into one communicator per node, whose processes can then allocate
 * shared windows together.
 */
public final class Shared
{
    private Shared()
    {
    }

    /**
     * Collective over {@code comm}: returns the communicator of the processes of {@code comm}
     * that share this process's node, ranked in the order of their ranks in {@code comm}.
     *
     * @throws RmaException ERR_COMM if {@code comm} is null; ERR_PROC_FAILED naming the rank if a
     *                      process died during the exchange of nodes.
     */
    public static Intracomm split(final Intracomm comm)
    {
        if (comm == null)
        {
            throw new RmaException(ErrorClass.ERR_COMM, "Shared.split: comm is null");
        }
        final long[] nodes = new long[comm.Size()];
        try
        {
            comm.Allgather(new long[] {NodeIdentity.current()}, 0, 1, MPI.LONG, nodes, 0, 1, MPI.LONG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify("Shared.split", "the Allgather of nodes over the communicator", e);
        }
        final int rank = comm.Rank();
        return comm.Split(NodeIdentity.lowestRankOnNode(nodes, rank), rank);
    }
}
