package mpjrun;

import java.lang.foreign.ValueLayout;
import java.net.InetAddress;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.Shared;
import mpi.rma.Win;

/**
 * An MPJ Express program for {@link SimulatedClusterTest}: what a job spanning nodes sees. Each
 * rank prints, in order:
 * <ul>
 * <li>{@code rank R of N host H}: H its host name (a simulated node's);</li>
 * <li>{@code rank R allgather ok}, {@code rank R allreduce sum=S} (S = 0 + 1 + ... + N-1) after a Barrier;</li>
 * <li>{@code rank R node comm size=K rank=L}: its {@code Shared.split(COMM_WORLD)} communicator;</li>
 * <li>{@code rank R node window ok}: a shared window on that communicator, each rank reading its
 *     neighbour's segment directly;</li>
 * <li>{@code rank R world window ERR_...} (or {@code allocated}): {@code Win.allocateShared} on COMM_WORLD;</li>
 * <li>{@code DONE rank R}.</li>
 * </ul>
 * Failures print no exception name unless something unexpected is thrown, so that the job kit's
 * verdict stays on the expected outcomes.
 */
public final class ClusterProgram
{
    private ClusterProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        System.out.println("rank " + rank + " of " + size + " host " + InetAddress.getLocalHost().getHostName());

        final int[] all = new int[size];
        MPI.COMM_WORLD.Allgather(new int[] {rank * 10}, 0, 1, MPI.INT, all, 0, 1, MPI.INT);
        boolean gathered = true;
        for (int peer = 0; peer < size; peer++)
        {
            gathered &= all[peer] == peer * 10;
        }
        System.out.println("rank " + rank + (gathered ? " allgather ok" : " allgather wrong"));
        MPI.COMM_WORLD.Barrier();
        final int[] sum = new int[1];
        MPI.COMM_WORLD.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        System.out.println("rank " + rank + " allreduce sum=" + sum[0]);

        final Intracomm node = Shared.split(MPI.COMM_WORLD);
        System.out.println("rank " + rank + " node comm size=" + node.Size() + " rank=" + node.Rank());
        try (Win win = Win.allocateShared(Integer.BYTES, Integer.BYTES, null, node))
        {
            win.fence(0);
            win.base().set(ValueLayout.JAVA_INT, 0, 1000 + rank);
            win.fence(0);
            final int right = (node.Rank() + 1) % node.Size();
            final int seen = win.sharedQuery(right).memory().get(ValueLayout.JAVA_INT, 0);
            final int[] worldRanks = new int[node.Size()];
            node.Allgather(new int[] {rank}, 0, 1, MPI.INT, worldRanks, 0, 1, MPI.INT);
            System.out.println("rank " + rank + (seen == 1000 + worldRanks[right] ? " node window ok"
                : " node window read " + seen + " from node rank " + right));
            win.fence(Win.MODE_NOSUCCEED);
        }

        String world;
        try (Win win = Win.allocateShared(Integer.BYTES, Integer.BYTES, null, MPI.COMM_WORLD))
        {
            world = "allocated";
        }
        catch (final RmaException e)
        {
            world = e.errorClass().name();
        }
        System.out.println("rank " + rank + " world window " + world);
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }
}
