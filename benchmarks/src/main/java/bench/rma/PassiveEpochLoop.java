package bench.rma;

import java.util.Arrays;
import java.util.Locale;

import mpi.MPI;
import mpi.rma.Win;

/**
 * The cost of one passive-target epoch as a work queue or a histogram makes them: exclusive lock of the right
 * neighbour, one accumulate of a {@code long} into its memory, unlock; uncontended (each rank locks a
 * different target). It is the path that checks for dead processes without waiting (docs/faults.md), so its
 * figure shows what that check costs. Rank 0 prints the nanoseconds per epoch of each timed block of every
 * rank, and their median. An ordinary MPJ Express program.
 *
 * <pre>bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.rma.PassiveEpochLoop shared [epochs] [blocks]</pre>
 * prints {@code passive-epoch shared ns-per-epoch median=61.2 blocks=[62.0, 60.9, ...]}; the flavour is
 * {@code shared} ({@code Win.allocateShared}), {@code allocate} or {@code create}.
 */
public final class PassiveEpochLoop
{
    private PassiveEpochLoop()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final String flavour = appArgs.length > 0 ? appArgs[0] : "shared";
        final int epochs = appArgs.length > 1 ? Integer.parseInt(appArgs[1]) : 200_000;
        final int blocks = appArgs.length > 2 ? Integer.parseInt(appArgs[2]) : 10;
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final Win win = switch (flavour)
        {
            case "shared" -> Win.allocateShared(Long.BYTES, Long.BYTES, null, MPI.COMM_WORLD);
            case "allocate" -> Win.allocate(Long.BYTES, Long.BYTES, null, MPI.COMM_WORLD);
            case "create" -> Win.create(new long[1], Long.BYTES, null, MPI.COMM_WORLD);
            default -> throw new IllegalArgumentException("flavour=" + flavour + " is not shared, allocate or create");
        };
        final int target = (rank + 1) % size;
        final long[] one = {1};
        // The first block warms the JIT up and is not kept.
        final double[] nsPerEpoch = new double[blocks];
        for (int block = -1; block < blocks; block++)
        {
            MPI.COMM_WORLD.Barrier();
            final long startNs = System.nanoTime();
            for (int epoch = 0; epoch < epochs; epoch++)
            {
                win.lock(Win.LOCK_EXCLUSIVE, target, 0);
                win.accumulate(one, 0, 1, MPI.LONG, target, 0, 1, MPI.LONG, MPI.SUM);
                win.unlock(target);
            }
            if (block >= 0)
            {
                nsPerEpoch[block] = (double)(System.nanoTime() - startNs) / epochs;
            }
        }
        final double[] all = new double[blocks * size];
        MPI.COMM_WORLD.Gather(nsPerEpoch, 0, blocks, MPI.DOUBLE, all, 0, blocks, MPI.DOUBLE, 0);
        win.fence(0);
        win.free();
        if (rank == 0)
        {
            final double[] sorted = all.clone();
            Arrays.sort(sorted);
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "passive-epoch %s ns-per-epoch median=%.1f blocks=[", flavour, sorted[sorted.length / 2]));
            for (int i = 0; i < all.length; i++)
            {
                line.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", all[i]));
            }
            System.out.println(line.append(']'));
        }
        MPI.Finalize();
    }
}
