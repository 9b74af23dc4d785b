package samples.rma;

import java.util.Locale;

import mpi.MPI;
import mpi.rma.Win;

/**
 * The first one-sided program of an MPI course: every rank exposes an array of its own with
 * {@link Win#create} ({@code MPI_Win_create}), and between two fences puts its rank into the
 * array of its right neighbour. No rank calls a receive: the fences alone make the puts complete.
 *
 * <p>{@code Win.create} works on every device and across nodes (the puts travel as MPJ Express
 * messages), so the same program runs on one node or several:
 * <pre>
 *   bin/sample NeighbourPut                                  # 4 ranks, one node
 *   bin/mpjrun -np 4 -dev niodev -nodes 2 -cp samples/target/classes samples.rma.NeighbourPut
 * </pre>
 */
public final class NeighbourPut
{
    private NeighbourPut()
    {
    }

    /** Runs one rank; {@code args} are what MPJ Express's starter passes to {@link MPI#Init}. */
    public static void main(final String[] args)
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;

        // The memory this rank offers: one double, -1 until the left neighbour puts into it.
        final double[] inbox = {-1};
        // Collective. The displacement unit is one double: displacement 0 is inbox[0].
        try (Win win = Win.create(inbox, Double.BYTES, null, MPI.COMM_WORLD))
        {
            // Opens an access epoch on every rank: puts may start.
            win.fence(0);
            // My rank into inbox[0] of my right neighbour.
            win.put(new double[] {rank}, 0, 1, MPI.DOUBLE, right, 0, 1, MPI.DOUBLE);
            // Returns when every put of every rank is complete: my inbox now holds my left neighbour's rank.
            win.fence(0);
            System.out.printf(Locale.ROOT, "rank %d: inbox[0] = %.1f (the left neighbour is rank %d)%n", rank,
                inbox[0], left);
        }
        // Leaving the block frees the window, collectively.
        MPI.Finalize();
    }
}
