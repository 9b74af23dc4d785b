package mpjrun.agent;

import java.util.Arrays;

import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * An MPJ Express program that checks the answers the agent's {@link CorrectionAdvice} corrects; its argument
 * picks the check, and each rank prints {@code <check> ok rank R} or throws:
 * <ul>
 * <li>{@code translate}: {@code Group.Translate_ranks} of the rank itself into {@code COMM_WORLD}'s group and
 *     into the same processes in reverse order, with {@code MPI.PROC_NULL};</li>
 * <li>{@code gather-null}: a {@code Gather} to rank 0 whose other ranks pass a null receive buffer;</li>
 * <li>{@code dead-sender} (2 ranks): rank 1 halts, rank 0's {@code Recv} from it fails and rank 0 prints
 *     {@code recv failed: <the exception>} before it throws it on.</li>
 * </ul>
 */
public final class CorrectionsProgram
{
    private CorrectionsProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String check = MPI.Init(args)[0];
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        switch (check)
        {
            case "translate" -> translate(world, rank, size);
            case "gather-null" -> gatherNull(world, rank, size);
            case "dead-sender" -> deadSender(world, rank);
            default -> throw new IllegalArgumentException("unknown check " + check);
        }
        System.out.println(check + " ok rank " + rank);
        MPI.Finalize();
    }

    private static void translate(final Intracomm world, final int rank, final int size) throws MPIException
    {
        final Group group = world.Group();
        final int[] reversed = new int[size];
        for (int i = 0; i < size; i++)
        {
            reversed[i] = size - 1 - i;
        }
        final Group backwards = group.Incl(reversed);
        expect("itself in its own group", new int[] {rank}, Group.Translate_ranks(group, new int[] {rank}, group));
        expect("itself and PROC_NULL in the reversed group", new int[] {size - 1 - rank, MPI.PROC_NULL},
            Group.Translate_ranks(group, new int[] {rank, MPI.PROC_NULL}, backwards));
    }

    private static void gatherNull(final Intracomm world, final int rank, final int size) throws MPIException
    {
        final int[] all = rank == 0 ? new int[size] : null;
        world.Gather(new int[] {10 * rank + 1}, 0, 1, MPI.INT, all, 0, 1, MPI.INT, 0);
        if (rank == 0)
        {
            for (int peer = 0; peer < size; peer++)
            {
                expect("rank " + peer + "'s block at the root", new int[] {10 * peer + 1}, new int[] {all[peer]});
            }
        }
    }

    private static void deadSender(final Intracomm world, final int rank) throws MPIException
    {
        world.Barrier();
        if (rank == 1)
        {
            // Status 0, so that the launcher waits for rank 0 to say what its Recv threw.
            Runtime.getRuntime().halt(0);
        }
        try
        {
            world.Recv(new int[1], 0, 1, MPI.INT, 1, 7);
        }
        catch (final MPIException e)
        {
            System.out.println("recv failed: " + e);
            System.out.flush();
            throw e;
        }
    }

    private static void expect(final String what, final int[] expected, final int[] actual)
    {
        if (!Arrays.equals(expected, actual))
        {
            throw new IllegalStateException("rank " + MPI.COMM_WORLD.Rank() + ": " + what + ": expected " +
                Arrays.toString(expected) + ", got " + Arrays.toString(actual));
        }
    }
}
