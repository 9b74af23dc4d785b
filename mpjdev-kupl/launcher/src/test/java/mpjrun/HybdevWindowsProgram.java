package mpjrun;

import java.net.InetAddress;
import java.util.function.Supplier;

import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * An MPJ Express program for {@link HybdevWindowsTest}: each window flavour on the job's device, then
 * messages and collectives, to show that the job goes on (also across a {@link SimulatedCluster}). Each rank
 * prints, in order:
 * <ul>
 * <li>{@code rank R of N host H}: H its host name;</li>
 * <li>{@code rank R Win.create ERR_...} (or {@code made}), the same for {@code Win.allocate},
 *     {@code Win.allocateShared} and {@code Win.createDynamic};</li>
 * <li>rank 0 only: {@code rank 0 says: MESSAGE}, the first refusal's message;</li>
 * <li>{@code rank R allreduce sum=S} (S = 0 + 1 + ... + N-1) after a Barrier, then {@code DONE rank R}.</li>
 * </ul>
 * No exception name is printed, so that the job kit's verdict stays on the expected outcomes.
 */
public final class HybdevWindowsProgram
{
    private HybdevWindowsProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        System.out.println("rank " + rank + " of " + MPI.COMM_WORLD.Size() + " host " +
            InetAddress.getLocalHost().getHostName());
        final String[] message = {null};
        tryFlavour(rank, "Win.create", () -> Win.create(new double[8], Double.BYTES, null, MPI.COMM_WORLD), message);
        tryFlavour(rank, "Win.allocate", () -> Win.allocate(64, 1, null, MPI.COMM_WORLD), message);
        tryFlavour(rank, "Win.allocateShared", () -> Win.allocateShared(64, 1, null, MPI.COMM_WORLD), message);
        tryFlavour(rank, "Win.createDynamic", () -> Win.createDynamic(null, MPI.COMM_WORLD), message);
        if (rank == 0 && message[0] != null)
        {
            System.out.println("rank 0 says: " + message[0]);
        }
        MPI.COMM_WORLD.Barrier();
        final int[] sum = new int[1];
        MPI.COMM_WORLD.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        System.out.println("rank " + rank + " allreduce sum=" + sum[0]);
        System.out.println("DONE rank " + rank);
        MPI.Finalize();
    }

    private static void tryFlavour(final int rank, final String call, final Supplier<Win> creation,
        final String[] firstMessage)
    {
        try (Win win = creation.get())
        {
            win.fence(0);
            win.fence(0);
            System.out.println("rank " + rank + " " + call + " made");
        }
        catch (final RmaException e)
        {
            System.out.println("rank " + rank + " " + call + " " + e.errorClass().name());
            if (firstMessage[0] == null)
            {
                firstMessage[0] = e.getMessage();
            }
        }
    }
}
