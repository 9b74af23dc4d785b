package bench.rma;

import bench.harness.Stat;
import mpi.MPI;
import mpi.rma.Win;
import mpi.rma.WinRequest;

/**
 * Request-based gets against blocking ones, measured side by side in one run: rank 0 reads
 * {@value #GETS} separate blocks of rank 1's memory, once with {@code get} one at a time (each waits for
 * its reply: the reference) and once with {@code rGet} for all of them before one {@code waitAll}, in
 * a window made by {@code Win.create} (every target reached by messages) and one made by
 * {@code Win.allocateShared} when the ranks share a node (loads, where requests can only add cost).
 * Rank 1 waits in a Barrier meanwhile (its agent thread serves the create window). Rounds are
 * interleaved; each figure is the median over rounds of microseconds per batch of {@value #GETS}. Rank 0
 * prints a Markdown table.
 *
 * <p>Run: {@code bin/mpjrun -np 2 -dev niodev -nodes 2 -cp benchmarks/target/classes bench.rma.RequestRank [rounds]}
 * (also {@code -dev shm} on one node).
 */
public final class RequestRank
{
    private static final int GETS = 16;
    private static final int BATCHES_PER_ROUND = 40;
    private static final int[] BLOCK_DOUBLES = {1, 1024};

    private RequestRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int rounds = appArgs.length > 0 ? Integer.parseInt(appArgs[0]) : 15;
        final int rank = MPI.COMM_WORLD.Rank();
        final boolean oneNode = mpi.rma.Shared.split(MPI.COMM_WORLD).Size() == MPI.COMM_WORLD.Size();
        final int windows = oneNode ? 2 : 1;
        final String[] names = {"Win.create", "Win.allocateShared"};
        final double[][] figures = new double[windows * BLOCK_DOUBLES.length * 2][rounds];
        final int doubles = GETS * BLOCK_DOUBLES[BLOCK_DOUBLES.length - 1];
        final Win[] wins = new Win[windows];
        wins[0] = Win.create(new double[doubles], Double.BYTES, null, MPI.COMM_WORLD);
        if (oneNode)
        {
            wins[1] = Win.allocateShared((long)doubles * Double.BYTES, Double.BYTES, null, MPI.COMM_WORLD);
        }
        final double[] into = new double[doubles];
        // Round -1 warms every path up and is not kept.
        for (int round = -1; round < rounds; round++)
        {
            int row = 0;
            for (final Win win : wins)
            {
                for (final int block : BLOCK_DOUBLES)
                {
                    final double blocking = batches(rank, win, into, block, false);
                    final double requested = batches(rank, win, into, block, true);
                    if (round >= 0)
                    {
                        figures[row][round] = blocking;
                        figures[row + 1][round] = requested;
                    }
                    row += 2;
                }
            }
        }
        for (final Win win : wins)
        {
            win.free();
        }
        if (rank == 0)
        {
            System.out.println("| window | " + GETS + " blocks of | one get at a time, us (reference) | " +
                "rGet all, then waitAll, us | against the reference |");
            System.out.println("|---|---|---|---|---|");
            int row = 0;
            for (int w = 0; w < windows; w++)
            {
                for (final int block : BLOCK_DOUBLES)
                {
                    final double reference = Stat.median(figures[row]);
                    final double requested = Stat.median(figures[row + 1]);
                    System.out.printf("| %s | %d B | %.1f | %.1f | %.2fx |%n", names[w], block * Double.BYTES,
                        reference, requested, requested / reference);
                    row += 2;
                }
            }
        }
        MPI.Finalize();
    }

    /** Microseconds per batch of {@link #GETS} gets of {@code block} doubles from rank 1, in one lock epoch. */
    private static double batches(final int rank, final Win win, final double[] into, final int block,
        final boolean requests)
    {
        MPI.COMM_WORLD.Barrier();
        long elapsedNs = 0;
        if (rank == 0)
        {
            final WinRequest[] pending = new WinRequest[GETS];
            win.lock(Win.LOCK_SHARED, 1, 0);
            final long startNs = System.nanoTime();
            for (int batch = 0; batch < BATCHES_PER_ROUND; batch++)
            {
                for (int i = 0; i < GETS; i++)
                {
                    if (requests)
                    {
                        pending[i] = win.rGet(into, i * block, block, MPI.DOUBLE, 1, (long)i * block, block,
                            MPI.DOUBLE);
                    }
                    else
                    {
                        win.get(into, i * block, block, MPI.DOUBLE, 1, (long)i * block, block, MPI.DOUBLE);
                    }
                }
                if (requests)
                {
                    WinRequest.waitAll(pending);
                }
            }
            elapsedNs = System.nanoTime() - startNs;
            win.unlock(1);
        }
        MPI.COMM_WORLD.Barrier();
        return elapsedNs / 1e3 / BATCHES_PER_ROUND;
    }

}
