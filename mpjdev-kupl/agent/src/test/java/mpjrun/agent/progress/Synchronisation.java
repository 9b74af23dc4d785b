package mpjrun.agent.progress;

import java.lang.foreign.ValueLayout;

import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.rma.Win;

/**
 * The blocking calls a rank can be inside while its own send is still pending: every collective the shm
 * device runs through shared memory, and every window synchronisation of {@code mpi.rma} on a shared window.
 * Each checks its own result, so that a cell proves the call worked as well as that it did not block the
 * messages.
 */
enum Synchronisation
{
    BARRIER
    {
        @Override
        void run(final Cell cell) throws MPIException
        {
            cell.world.Barrier();
        }
    },
    /** Over twice a staging slot: the root streams through its slot, the others await its progress words. */
    BCAST
    {
        @Override
        void run(final Cell cell) throws MPIException
        {
            final int root = cell.number % cell.size;
            final double[] data = new double[300_000];
            if (cell.rank == root)
            {
                for (int i = 0; i < data.length; i++)
                {
                    data[i] = cell.number + i * 0.5;
                }
            }
            cell.world.Bcast(data, 0, data.length, MPI.DOUBLE, root);
            for (int i = 0; i < data.length; i += 997)
            {
                cell.expect(data[i] == cell.number + i * 0.5, "Bcast element " + i + " is " + data[i]);
            }
        }
    },
    REDUCE
    {
        @Override
        void run(final Cell cell) throws MPIException
        {
            final int root = cell.number % cell.size;
            final long[] sum = new long[8];
            cell.world.Reduce(cell.ownValues(8), 0, sum, 0, 8, MPI.LONG, MPI.SUM, root);
            if (cell.rank == root)
            {
                cell.expectSums(sum);
            }
        }
    },
    ALLREDUCE
    {
        @Override
        void run(final Cell cell) throws MPIException
        {
            final long[] sum = new long[1000];
            cell.world.Allreduce(cell.ownValues(1000), 0, sum, 0, 1000, MPI.LONG, MPI.SUM);
            cell.expectSums(sum);
        }
    },
    GATHER
    {
        @Override
        void run(final Cell cell) throws MPIException
        {
            final int root = cell.number % cell.size;
            final long[] all = new long[4 * cell.size];
            cell.world.Gather(cell.ownValues(4), 0, 4, MPI.LONG, all, 0, 4, MPI.LONG, root);
            if (cell.rank == root)
            {
                cell.expectBlocks(all, 4);
            }
        }
    },
    ALLGATHER
    {
        @Override
        void run(final Cell cell) throws MPIException
        {
            final long[] all = new long[4 * cell.size];
            cell.world.Allgather(cell.ownValues(4), 0, 4, MPI.LONG, all, 0, 4, MPI.LONG);
            cell.expectBlocks(all, 4);
        }
    },
    SCATTER
    {
        @Override
        void run(final Cell cell) throws MPIException
        {
            final int root = cell.number % cell.size;
            final long[] all = new long[2 * cell.size];
            for (int i = 0; i < all.length; i++)
            {
                all[i] = cell.number * 1000L + i;
            }
            final long[] mine = new long[2];
            cell.world.Scatter(all, 0, 2, MPI.LONG, mine, 0, 2, MPI.LONG, root);
            cell.expect(mine[0] == cell.number * 1000L + 2L * cell.rank && mine[1] == mine[0] + 1,
                "Scatter gave " + mine[0] + ", " + mine[1]);
        }
    },
    ALLTOALL
    {
        @Override
        void run(final Cell cell) throws MPIException
        {
            final long[] out = new long[cell.size];
            final long[] in = new long[cell.size];
            for (int peer = 0; peer < cell.size; peer++)
            {
                out[peer] = cell.number * 10_000L + cell.rank * 100L + peer;
            }
            cell.world.Alltoall(out, 0, 1, MPI.LONG, in, 0, 1, MPI.LONG);
            for (int peer = 0; peer < cell.size; peer++)
            {
                cell.expect(in[peer] == cell.number * 10_000L + peer * 100L + cell.rank,
                    "Alltoall gave " + in[peer] + " from rank " + peer);
            }
        }
    },
    /** The engine's fence under {@code Win.fence}: each rank's store is read by its partner after it. */
    WIN_FENCE
    {
        @Override
        void run(final Cell cell)
        {
            // Two slots used by turns: a partner still reading the last FENCE cell's slot is never overwritten.
            final long slot = cell.fences++ % 2;
            cell.window.base().setAtIndex(ValueLayout.JAVA_LONG, slot, cell.number);
            cell.window.fence(0);
            final long seen = cell.window.sharedQuery(cell.partner).memory()
                .getAtIndex(ValueLayout.JAVA_LONG, slot);
            cell.expect(seen == cell.number, "after Win.fence the partner's slot holds " + seen);
        }
    },
    /** PSCW between partners: win.start waits for the partner's post, win.waitFor for its complete. */
    PSCW
    {
        @Override
        void run(final Cell cell) throws MPIException
        {
            final Group partner = cell.world.Group().Incl(new int[] {cell.partner});
            cell.window.post(partner, 0);
            cell.window.start(partner, 0);
            cell.window.put(new long[] {cell.number}, 0, 1, MPI.LONG, cell.partner, PSCW_SLOT, 1, MPI.LONG);
            cell.window.complete();
            cell.window.waitFor();
            final long seen = cell.window.base().getAtIndex(ValueLayout.JAVA_LONG, PSCW_SLOT);
            cell.expect(seen == cell.number, "after win.waitFor the partner's put left " + seen);
        }
    },
    /**
     * An exclusive lock the partner holds while it receives: the sender waits for the lock with its send
     * pending, and the partner's receive needs that send.
     */
    LOCK
    {
        @Override
        void beforeExchange(final Cell cell) throws MPIException
        {
            if (cell.receiving)
            {
                cell.window.lock(Win.LOCK_EXCLUSIVE, cell.rank, 0);
                cell.world.Send(new int[] {cell.number}, 0, 1, MPI.INT, cell.partner, HELD_TAG);
            }
            else
            {
                cell.world.Recv(new int[1], 0, 1, MPI.INT, cell.partner, HELD_TAG);
            }
        }

        @Override
        void run(final Cell cell) throws MPIException
        {
            // MPI's locks need not be fair: the holder waits for the sender's turn before it may lock again.
            if (cell.receiving)
            {
                cell.window.unlock(cell.rank);
                cell.world.Recv(new int[1], 0, 1, MPI.INT, cell.partner, HELD_TAG);
            }
            else
            {
                cell.window.lock(Win.LOCK_EXCLUSIVE, cell.partner, 0);
                cell.window.put(new long[] {cell.number}, 0, 1, MPI.LONG, cell.partner, LOCK_SLOT, 1, MPI.LONG);
                cell.window.unlock(cell.partner);
                cell.world.Send(new int[] {cell.number}, 0, 1, MPI.INT, cell.partner, HELD_TAG);
            }
        }

        @Override
        boolean bothWays()
        {
            return false;
        }
    },
    /** Window creation: agreement, the engine's comm and segments, all collective. */
    WIN_ALLOCATE
    {
        @Override
        void run(final Cell cell)
        {
            cell.extra = Win.allocateShared(64, 8, null, cell.world);
        }

        @Override
        void afterCompletion(final Cell cell)
        {
            cell.extra.free();
        }
    },
    /** Window free: the window is made before the sends start and freed with them pending. */
    WIN_FREE
    {
        @Override
        void beforeExchange(final Cell cell)
        {
            cell.extra = Win.allocateShared(64, 8, null, cell.world);
        }

        @Override
        void run(final Cell cell)
        {
            cell.extra.free();
        }
    };

    /** Longs of each rank's segment of the shared window the cells use: two fence slots, a PSCW slot, a lock slot. */
    static final int WINDOW_LONGS = 4;
    private static final int PSCW_SLOT = 2;
    private static final int LOCK_SLOT = 3;
    private static final int HELD_TAG = 31;

    /** Before any send starts (collective where the call is). */
    void beforeExchange(final Cell cell) throws MPIException
    {
    }

    /** The call itself, with the cell's sends pending on the ranks that made them. */
    abstract void run(Cell cell) throws MPIException;

    /** After the cell's sends completed. */
    void afterCompletion(final Cell cell)
    {
    }

    /** Whether both partners may send and receive in the cell (not where the roles differ). */
    boolean bothWays()
    {
        return true;
    }

    /** What one cell of the matrix knows: where it runs and its part in it. */
    static final class Cell
    {
        final Intracomm world;
        final Win window;
        final int rank;
        final int size;
        final int partner;
        int number;
        boolean receiving;
        Win extra;
        long fences;

        Cell(final Intracomm world, final Win window) throws MPIException
        {
            this.world = world;
            this.window = window;
            this.rank = world.Rank();
            this.size = world.Size();
            this.partner = rank ^ 1;
        }

        /** Values of this rank that the reductions and gathers combine. */
        long[] ownValues(final int count)
        {
            final long[] values = new long[count];
            for (int i = 0; i < count; i++)
            {
                values[i] = value(rank, i);
            }
            return values;
        }

        private long value(final int of, final int i)
        {
            return number * 1_000_000L + of * 1000L + i;
        }

        void expectSums(final long[] sum)
        {
            for (int i = 0; i < sum.length; i++)
            {
                long expected = 0;
                for (int of = 0; of < size; of++)
                {
                    expected += value(of, i);
                }
                expect(sum[i] == expected, "element " + i + " of the sum is " + sum[i] + ", not " + expected);
            }
        }

        void expectBlocks(final long[] all, final int count)
        {
            for (int of = 0; of < size; of++)
            {
                for (int i = 0; i < count; i++)
                {
                    expect(all[of * count + i] == value(of, i), "element " + i + " of rank " + of + "'s block is " +
                        all[of * count + i]);
                }
            }
        }

        void expect(final boolean holds, final String what)
        {
            if (!holds)
            {
                throw new IllegalStateException("rank " + rank + ", cell " + number + ": " + what);
            }
        }
    }
}
