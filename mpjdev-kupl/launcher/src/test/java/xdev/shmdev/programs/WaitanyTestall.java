package xdev.shmdev.programs;

import java.util.Arrays;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/** Rank 0 posts an Irecv per peer and completes them with Waitany; then all ranks Isend/Irecv a ring and Testall. */
public final class WaitanyTestall
{
    private WaitanyTestall()
    {
    }

    public static String run(final Intracomm comm) throws Exception
    {
        final int rank = comm.Rank();
        final int size = comm.Size();
        final StringBuilder result = new StringBuilder();
        if (rank == 0)
        {
            final int[][] in = new int[size][1];
            final Request[] requests = new Request[size - 1];
            for (int peer = 1; peer < size; peer++)
            {
                requests[peer - 1] = comm.Irecv(in[peer], 0, 1, MPI.INT, peer, 3);
            }
            int total = 0;
            final boolean[] seen = new boolean[size];
            for (int i = 0; i < size - 1; i++)
            {
                final Status status = Request.Waitany(requests);
                seen[status.index + 1] = true;
                total += in[status.index + 1][0];
            }
            result.append("waitany-total=").append(total).append(" all-seen=")
                .append(Arrays.toString(Arrays.copyOfRange(seen, 1, size)));
        }
        else
        {
            comm.Send(new int[] {rank * 7}, 0, 1, MPI.INT, 0, 3);
            result.append("sent");
        }
        final int[] out = {rank};
        final int[] in = new int[1];
        final Request[] ring = {
            comm.Irecv(in, 0, 1, MPI.INT, (rank + size - 1) % size, 4),
            comm.Isend(out, 0, 1, MPI.INT, (rank + 1) % size, 4)};
        Status[] statuses;
        while ((statuses = Request.Testall(ring)) == null)
        {
            Thread.onSpinWait();
        }
        result.append(" testall-from=").append(in[0]).append(" statuses=").append(statuses.length);
        return result.toString();
    }

    public static void main(final String[] args) throws Exception
    {
        Programs.main(args, "waitany");
    }
}
