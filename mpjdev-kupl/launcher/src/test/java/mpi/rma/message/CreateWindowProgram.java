package mpi.rma.message;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import mpi.Datatype;
import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.SharedSegment;
import mpi.rma.Win;

/**
 * {@code Win.create} over each kind of memory, every target reached by messages. Each rank prints
 * {@code rank R CASE ok} or {@code rank R CASE FAILED: ...} for each case, then {@code DONE rank R}:
 * <ul>
 * <li>{@code fence double[]}: fence, put one and nine elements to the right neighbour, fence, read
 *     them, get them back;</li>
 * <li>{@code accumulate int[]}: every rank adds 1 to every rank's element, 200 times, between two
 *     fences (the element-wise atomicity of concurrent accumulates, the target's own included);</li>
 * <li>{@code fence large accumulate}: a sum into every element of the right neighbour's 4 MiB array,
 *     then a fence; every element must hold it after the fence (the target is still applying it when a
 *     fence that does not flush returns);</li>
 * <li>{@code lock MemorySegment}: fetchAndOp on rank 0's counter under exclusive locks, and
 *     compareAndSwap, in a native segment;</li>
 * <li>{@code lockAll ByteBuffer}: put to the right neighbour in a lockAll epoch with flushAll,
 *     over a direct ByteBuffer;</li>
 * <li>{@code busy target}: rank 0 spins on its own memory without MPI calls until every other
 *     rank has locked, put and unlocked (target-side progress);</li>
 * <li>{@code create checks}: a dispUnit of 0 on rank 0 is ERR_DISP on every rank; sharedQuery gives this
 *     process's own memory and size 0 for the others; a put past a target's end is ERR_RMA_RANGE; a
 *     contiguous and a vector datatype are carried;</li>
 * <li>{@code allocate}: {@code Win.allocate} memory, a fence epoch of puts around the ring and an
 *     accumulate from everyone, then its flavor, and a base that throws once freed;</li>
 * <li>{@code free in flight}: rank 0 frees at once while the others still lock, put and unlock to it;
 *     all their puts are in its array afterwards.</li>
 * </ul>
 */
public final class CreateWindowProgram
{
    private static final int ACCUMULATES = 200;
    private static final int LOCKED_INCREMENTS = 50;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private static int rank;
    private static int size;

    private CreateWindowProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.Rank();
        size = MPI.COMM_WORLD.Size();
        fenceOverDoubles();
        accumulateOverInts();
        fenceAfterLargeAccumulate();
        lockOverSegment();
        lockAllOverByteBuffer();
        busyTarget();
        createChecks();
        allocate();
        freeInFlight();
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }

    private static void fenceOverDoubles()
    {
        // Element 0: one element (inline in the request); 2 to 10: nine (a data message of their own); 11: a sentinel.
        final double[] base = new double[12];
        base[11] = 99;
        final double[] nine = new double[9];
        java.util.Arrays.fill(nine, rank + 0.25);
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        final double[] back = new double[10];
        try (Win win = Win.create(base, Double.BYTES, null, MPI.COMM_WORLD))
        {
            win.fence(0);
            win.put(new double[] {rank + 0.5}, 0, 1, MPI.DOUBLE, right, 0, 1, MPI.DOUBLE);
            win.put(nine, 0, 9, MPI.DOUBLE, right, 2, 9, MPI.DOUBLE);
            win.fence(0);
            win.get(back, 0, 1, MPI.DOUBLE, right, 0, 1, MPI.DOUBLE);
            win.get(back, 1, 9, MPI.DOUBLE, right, 2, 9, MPI.DOUBLE);
            win.fence(Win.MODE_NOSUCCEED);
            boolean nineArrived = true;
            for (int i = 0; i < 9; i++)
            {
                nineArrived &= base[2 + i] == left + 0.25 && back[1 + i] == rank + 0.25;
            }
            report("fence double[]", base[0] == left + 0.5 && back[0] == rank + 0.5 && nineArrived &&
                base[1] == 0 && base[11] == 99 && win.createFlavor() == Win.FLAVOR_CREATE &&
                win.model() == Win.SEPARATE, "base " + java.util.Arrays.toString(base) + " got back " +
                java.util.Arrays.toString(back));
        }
    }

    private static void accumulateOverInts()
    {
        final int[] base = new int[2];
        try (Win win = Win.create(base, Integer.BYTES, null, MPI.COMM_WORLD))
        {
            win.fence(0);
            for (int i = 0; i < ACCUMULATES; i++)
            {
                for (int target = 0; target < size; target++)
                {
                    win.accumulate(new int[] {1}, 0, 1, MPI.INT, target, 1, 1, MPI.INT, MPI.SUM);
                }
            }
            win.fence(Win.MODE_NOSUCCEED);
        }
        report("accumulate int[]", base[1] == size * ACCUMULATES && base[0] == 0, "element " + base[1] +
            ", expected " + size * ACCUMULATES);
    }

    private static void fenceAfterLargeAccumulate()
    {
        final int elements = 1 << 19;
        final double[] base = new double[elements];
        final double[] ones = new double[elements];
        java.util.Arrays.fill(ones, 1.0);
        try (Win win = Win.create(base, Double.BYTES, null, MPI.COMM_WORLD))
        {
            win.fence(0);
            win.accumulate(ones, 0, elements, MPI.DOUBLE, (rank + 1) % size, 0, elements, MPI.DOUBLE, MPI.SUM);
            win.fence(Win.MODE_NOSUCCEED);
            int missing = 0;
            for (final double element : base)
            {
                missing += element == 1.0 ? 0 : 1;
            }
            report("fence large accumulate", missing == 0, missing + " of " + elements + " elements not summed");
        }
    }

    private static void lockOverSegment()
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment base = arena.allocate(4 * Long.BYTES, Long.BYTES);
            final long[] old = new long[1];
            final long[] swapped = new long[1];
            try (Win win = Win.create(base, Long.BYTES, null, MPI.COMM_WORLD))
            {
                for (int i = 0; i < LOCKED_INCREMENTS; i++)
                {
                    win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
                    win.fetchAndOp(new long[] {1}, 0, old, 0, MPI.LONG, 0, 0, MPI.SUM);
                    win.unlock(0);
                }
                win.lock(Win.LOCK_SHARED, 0, 0);
                win.compareAndSwap(new long[] {rank + 1}, 0, new long[] {0}, 0, swapped, 0, MPI.LONG, 0, 1);
                win.unlock(0);
                MPI.COMM_WORLD.Barrier();
                final long counter = base.get(ValueLayout.JAVA_LONG, 0);
                final long winner = base.get(ValueLayout.JAVA_LONG, Long.BYTES);
                report("lock MemorySegment", rank != 0 ||
                    counter == (long)size * LOCKED_INCREMENTS && winner >= 1 && winner <= size,
                    "counter " + counter + " winner " + winner);
                win.fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED);
            }
        }
    }

    private static void lockAllOverByteBuffer()
    {
        final ByteBuffer base = ByteBuffer.allocateDirect(2 * Long.BYTES).order(ByteOrder.nativeOrder());
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        try (Win win = Win.create(base, Long.BYTES, null, MPI.COMM_WORLD))
        {
            win.lockAll(0);
            win.put(new long[] {1000 + rank}, 0, 1, MPI.LONG, right, 1, 1, MPI.LONG);
            win.flushAll();
            win.unlockAll();
            MPI.COMM_WORLD.Barrier();
            win.sync();
            report("lockAll ByteBuffer", base.getLong(Long.BYTES) == 1000 + left, "element " +
                base.getLong(Long.BYTES));
        }
    }

    private static void busyTarget()
    {
        final long[] base = new long[size];
        final MemorySegment view = MemorySegment.ofArray(base);
        try (Win win = Win.create(base, Long.BYTES, null, MPI.COMM_WORLD))
        {
            if (rank == 0)
            {
                // No MPI call until every other rank's put is here: only the agent can bring them.
                final long deadlineNs = System.nanoTime() + 60_000_000_000L;
                int seen = 0;
                while (seen < size - 1 && System.nanoTime() - deadlineNs < 0)
                {
                    seen = 0;
                    for (int peer = 1; peer < size; peer++)
                    {
                        seen += (long)LONG.getVolatile(view, (long)peer * Long.BYTES) == peer ? 1 : 0;
                    }
                }
                report("busy target", seen == size - 1, "saw " + seen + " of " + (size - 1) + " puts");
            }
            else
            {
                win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
                win.put(new long[] {rank}, 0, 1, MPI.LONG, 0, rank, 1, MPI.LONG);
                win.unlock(0);
                report("busy target", true, "");
            }
            MPI.COMM_WORLD.Barrier();
        }
    }

    private static void createChecks()
    {
        String refused = "made";
        try (Win win = Win.create(new int[2], rank == 0 ? 0 : Integer.BYTES, null, MPI.COMM_WORLD))
        {
            refused = "made a window";
        }
        catch (final RmaException e)
        {
            refused = e.errorClass().name();
        }
        final int[] base = new int[3];
        try (Win win = Win.create(base, Integer.BYTES, null, MPI.COMM_WORLD))
        {
            final SharedSegment own = win.sharedQuery(rank);
            final SharedSegment other = win.sharedQuery((rank + 1) % size);
            final boolean queried = own.size() == 12 && own.memory().byteSize() == 12 &&
                (size == 1 || other.size() == 0 && other.memory().byteSize() == 0);
            String range = "accepted";
            win.fence(0);
            try
            {
                win.put(new int[2], 0, 2, MPI.INT, (rank + 1) % size, 2, 2, MPI.INT);
            }
            catch (final RmaException e)
            {
                range = e.errorClass().name();
            }
            // A contiguous type is carried, and so is a strided one: every other element, not the first two.
            final Datatype pair = Datatype.Contiguous(2, MPI.INT);
            pair.Commit();
            win.put(new int[] {7, 8}, 0, 1, pair, (rank + 1) % size, 0, 1, pair);
            win.fence(0);
            final boolean contiguous = base[0] == 7 && base[1] == 8;
            // Every process has read its memory before the next puts land there: without this fence the left
            // neighbour, out of the last one first, may overwrite base[0..1] before this process reads them.
            win.fence(0);
            final Datatype everyOther = Datatype.Vector(2, 1, 2, MPI.INT);
            everyOther.Commit();
            win.put(new int[] {9, 0, 10}, 0, 1, everyOther, (rank + 1) % size, 0, 2, MPI.INT);
            win.fence(Win.MODE_NOSUCCEED);
            final String strided = base[0] == 9 && base[1] == 10 ? "carried" : "lost: " + base[0] + ", " + base[1];
            report("create checks", refused.equals("ERR_DISP") && queried && range.equals("ERR_RMA_RANGE") &&
                contiguous && strided.equals("carried"), "dispUnit 0 on rank 0: " + refused + ", sharedQuery " +
                (queried ? "right" : "wrong") + ", put past the end: " + range + ", contiguous type " +
                (contiguous ? "carried" : "lost") + ", vector type: " + strided);
        }
    }

    private static void allocate()
    {
        final int left = (rank + size - 1) % size;
        final Win win = Win.allocate(3 * Long.BYTES, Long.BYTES, null, MPI.COMM_WORLD);
        final MemorySegment base = win.base();
        win.fence(0);
        win.put(new long[] {100 + rank}, 0, 1, MPI.LONG, (rank + 1) % size, 1, 1, MPI.LONG);
        win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 0, 2, 1, MPI.LONG, MPI.SUM);
        win.fence(Win.MODE_NOSUCCEED);
        final long fromLeft = base.getAtIndex(ValueLayout.JAVA_LONG, 1);
        final long sum = base.getAtIndex(ValueLayout.JAVA_LONG, 2);
        final boolean flavor = win.createFlavor() == Win.FLAVOR_ALLOCATE && win.size() == 3 * Long.BYTES;
        win.free();
        boolean throwsAfterFree = false;
        try
        {
            base.get(ValueLayout.JAVA_LONG, 0);
        }
        catch (final IllegalStateException e)
        {
            throwsAfterFree = true;
        }
        report("allocate", fromLeft == 100 + left && sum == (rank == 0 ? size : 0) && flavor && throwsAfterFree,
            "from left " + fromLeft + " sum " + sum + " flavor " + flavor + " throws after free " + throwsAfterFree);
    }

    private static void freeInFlight() throws InterruptedException
    {
        final int puts = 100;
        final long[] base = new long[size * puts];
        try (Win win = Win.create(base, Long.BYTES, null, MPI.COMM_WORLD))
        {
            if (rank != 0)
            {
                Thread.sleep(200);
                win.lock(Win.LOCK_SHARED, 0, 0);
                for (int i = 0; i < puts; i++)
                {
                    win.put(new long[] {rank * 1000 + i}, 0, 1, MPI.LONG, 0, rank * puts + i, 1, MPI.LONG);
                }
                win.unlock(0);
            }
        }
        boolean all = true;
        for (int peer = 1; peer < size && rank == 0; peer++)
        {
            for (int i = 0; i < puts; i++)
            {
                all &= base[peer * puts + i] == peer * 1000 + i;
            }
        }
        report("free in flight", all, "a put is missing from rank 0's array after free");
    }

    private static void report(final String name, final boolean ok, final String detail)
    {
        System.out.println("rank " + rank + " " + name + (ok ? " ok" : " FAILED: " + detail));
    }
}
