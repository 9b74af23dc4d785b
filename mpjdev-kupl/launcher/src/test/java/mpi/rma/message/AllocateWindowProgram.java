package mpi.rma.message;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.Shared;
import mpi.rma.SharedSegment;
import mpi.rma.Win;

/**
 * {@code Win.allocate} reaching targets on the caller's node through shared memory and the others
 * through messages, in one window. Each rank prints {@code rank R CASE ok} or
 * {@code rank R CASE FAILED: ...} for each case, then {@code DONE rank R}:
 * <ul>
 * <li>{@code allocate paths}: the flavor; the model (unified exactly when every rank is on one node);
 *     sharedQuery gives the memory of every rank on this node and size 0 for the others; the base is
 *     zeroed and 64-byte aligned;</li>
 * <li>{@code accumulate both paths}: in one lockAll epoch every rank adds 1, many times, to a long,
 *     an int (fetchAndOp) and a short (no lock-free form: the accumulate lock) of every rank, so that
 *     origins on the target's node (loads and stores) and on others (the target's agent) update the
 *     same elements at once: each must hold every addition;</li>
 * <li>{@code lock both paths}: every rank increments rank 0's counter by get, flush, put under an
 *     exclusive lock: a non-atomic read-modify-write that loses updates unless the lock excludes
 *     origins of both paths alike.</li>
 * </ul>
 */
public final class AllocateWindowProgram
{
    private static final int ACCUMULATES = 100;
    private static final int LOCKED_INCREMENTS = 100;
    /** Layout of each rank's memory: a long at 0, an int at 8, a short at 12, the locked counter at 16. */
    private static final long BYTES = 24;

    private static int rank;
    private static int size;

    private AllocateWindowProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.Rank();
        size = MPI.COMM_WORLD.Size();
        final Intracomm node = Shared.split(MPI.COMM_WORLD);
        final int[] nodeOf = new int[size];
        // The lowest world rank on each node names it.
        MPI.COMM_WORLD.Allgather(new int[] {lowestWorldRank(node)}, 0, 1, MPI.INT, nodeOf, 0, 1, MPI.INT);
        paths(nodeOf, node.Size() == size);
        accumulateBothPaths();
        lockBothPaths();
        node.Free();
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }

    private static int lowestWorldRank(final Intracomm node)
    {
        final int[] lowest = new int[1];
        node.Allreduce(new int[] {rank}, 0, lowest, 0, 1, MPI.INT, MPI.MIN);
        return lowest[0];
    }

    private static void paths(final int[] nodeOf, final boolean oneNode)
    {
        final Win win = Win.allocate(BYTES, 1, null, MPI.COMM_WORLD);
        final MemorySegment base = win.base();
        boolean zeroed = true;
        for (long at = 0; at < BYTES; at++)
        {
            zeroed &= base.get(ValueLayout.JAVA_BYTE, at) == 0;
        }
        final StringBuilder queries = new StringBuilder();
        boolean sharedRight = true;
        for (int peer = 0; peer < size; peer++)
        {
            final SharedSegment segment = win.sharedQuery(peer);
            final boolean sameNode = nodeOf[peer] == nodeOf[rank];
            sharedRight &= sameNode ? segment.size() == BYTES && segment.memory().byteSize() == BYTES :
                segment.size() == 0;
            queries.append(peer).append(':').append(segment.size()).append(' ');
        }
        final boolean flavor = win.createFlavor() == Win.FLAVOR_ALLOCATE;
        final boolean model = win.model() == (oneNode ? Win.UNIFIED : Win.SEPARATE);
        final boolean aligned = base.address() % 64 == 0;
        win.free();
        report("allocate paths", zeroed && sharedRight && flavor && model && aligned, "zeroed " + zeroed +
            " sharedQuery sizes " + queries + "flavor " + flavor + " model " + model + " (one node " + oneNode +
            ") aligned " + aligned);
    }

    private static void accumulateBothPaths()
    {
        final Win win = Win.allocate(BYTES, 1, null, MPI.COMM_WORLD);
        final MemorySegment base = win.base();
        win.fence(0);
        win.fence(Win.MODE_NOSUCCEED);
        win.lockAll(0);
        final long[] oneLong = {1};
        final int[] oneInt = {1};
        final int[] oldInt = new int[1];
        final short[] oneShort = {1};
        for (int i = 0; i < ACCUMULATES; i++)
        {
            for (int step = 0; step < size; step++)
            {
                // Every rank starts at another target: each target has origins of both paths at once.
                final int target = (rank + step) % size;
                win.accumulate(oneLong, 0, 1, MPI.LONG, target, 0, 1, MPI.LONG, MPI.SUM);
                win.fetchAndOp(oneInt, 0, oldInt, 0, MPI.INT, target, 8, MPI.SUM);
                win.accumulate(oneShort, 0, 1, MPI.SHORT, target, 12, 1, MPI.SHORT, MPI.SUM);
            }
        }
        win.unlockAll();
        win.fence(0);
        final long sumLong = base.get(ValueLayout.JAVA_LONG, 0);
        final int sumInt = base.get(ValueLayout.JAVA_INT, 8);
        final short sumShort = base.get(ValueLayout.JAVA_SHORT, 12);
        win.fence(Win.MODE_NOSUCCEED);
        win.free();
        final long expected = (long)ACCUMULATES * size;
        report("accumulate both paths", sumLong == expected && sumInt == expected && sumShort == expected,
            "long " + sumLong + " int " + sumInt + " short " + sumShort + ", expected " + expected + " each");
    }

    private static void lockBothPaths() throws InterruptedException
    {
        final Win win = Win.allocate(BYTES, 1, null, MPI.COMM_WORLD);
        final long[] value = new long[1];
        // Every rank starts together, so that origins of both paths contend for the lock.
        win.fence(0);
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < LOCKED_INCREMENTS; i++)
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            win.get(value, 0, 1, MPI.LONG, 0, 16, 1, MPI.LONG);
            win.flush(0);
            // Holding the lock a while widens the window in which a lock that excludes only one path loses updates.
            Thread.sleep(1);
            value[0]++;
            win.put(value, 0, 1, MPI.LONG, 0, 16, 1, MPI.LONG);
            win.unlock(0);
        }
        win.fence(0);
        final long counter = rank == 0 ? win.base().get(ValueLayout.JAVA_LONG, 16) : 0;
        win.fence(Win.MODE_NOSUCCEED);
        win.free();
        final long expected = (long)LOCKED_INCREMENTS * size;
        report("lock both paths", rank != 0 || counter == expected, "counter " + counter + ", expected " + expected);
    }

    private static void report(final String name, final boolean ok, final String detail)
    {
        System.out.println("rank " + rank + " " + name + (ok ? " ok" : " FAILED: " + detail));
    }
}
