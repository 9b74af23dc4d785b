package mpi.rma.message;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * {@code Win.createDynamic} with memory attached and detached while the window lives; every
 * address travels by MPJ Express messages. Each rank prints {@code rank R CASE ok} or
 * {@code rank R CASE FAILED: ...} for each case, then {@code DONE rank R}:
 * <ul>
 * <li>{@code attach fence}: every rank attaches a {@code double[]} and Allgathers its address; a put
 *     (inline and one of its own data message) to the right neighbour, an accumulate from everyone to
 *     everyone, a get back, between fences; flavor, model, size 0, disp unit 1, sharedQuery size 0;</li>
 * <li>{@code attach lock}: only rank 0 attaches (a counter, its address sent by Bcast); every rank
 *     increments it under exclusive locks (accumulate and fetchAndOp), then compareAndSwap;</li>
 * <li>{@code detached access}: every rank attaches, sends its address to its left neighbour (Sendrecv)
 *     and detaches; a put there is ERR_RMA_RANGE from the origin's flush, unlock (which keeps the lock
 *     until unlock is called again) and fence, naming the target and the address; a get throws at once;
 *     a put that runs past a region's end is ERR_RMA_RANGE too; attaching twice, detaching what is not
 *     attached and attaching to a window of Win.create are refused;</li>
 * <li>{@code linked list}: every rank appends elements it attached to one list whose tail pointer
 *     lives at rank 0 (MPICH's test/mpi/rma linked_list, with locks); rank 0 walks it: every element
 *     once, each rank's in its order.</li>
 * </ul>
 */
public final class DynamicWindowProgram
{
    private static final int LOCKED_INCREMENTS = 25;
    private static final int LIST_ELEMENTS_PER_RANK = 10;
    /** nextRank of the list's last element. */
    private static final long NIL = -1;

    private static int rank;
    private static int size;

    private DynamicWindowProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.Rank();
        size = MPI.COMM_WORLD.Size();
        attachFence();
        attachLock();
        detachedAccess();
        linkedList();
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }

    private static void attachFence()
    {
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        // 0: one element (inline in the request); 4 to 13: ten (a data message); 19: everyone's accumulate.
        final double[] mine = new double[20];
        final double[] ten = new double[10];
        Arrays.fill(ten, rank + 0.25);
        final double[] back = new double[1];
        try (Win win = Win.createDynamic(null, MPI.COMM_WORLD))
        {
            final long address = win.attach(mine);
            final long[] addresses = new long[size];
            MPI.COMM_WORLD.Allgather(new long[] {address}, 0, 1, MPI.LONG, addresses, 0, 1, MPI.LONG);
            win.fence(0);
            win.put(new double[] {rank + 0.5}, 0, 1, MPI.DOUBLE, right, addresses[right], 1, MPI.DOUBLE);
            win.put(ten, 0, 10, MPI.DOUBLE, right, addresses[right] + 4 * Double.BYTES, 10, MPI.DOUBLE);
            for (int target = 0; target < size; target++)
            {
                win.accumulate(new double[] {1}, 0, 1, MPI.DOUBLE, target, addresses[target] + 19 * Double.BYTES, 1,
                    MPI.DOUBLE, MPI.SUM);
            }
            win.fence(0);
            win.get(back, 0, 1, MPI.DOUBLE, right, addresses[right], 1, MPI.DOUBLE);
            win.fence(Win.MODE_NOSUCCEED);
            boolean tenArrived = true;
            for (int i = 4; i < 14; i++)
            {
                tenArrived &= mine[i] == left + 0.25;
            }
            final boolean attributes = win.createFlavor() == Win.FLAVOR_DYNAMIC &&
                (Integer)win.getAttr(Win.WIN_CREATE_FLAVOR) == Win.FLAVOR_DYNAMIC && win.model() == Win.SEPARATE &&
                win.size() == 0 && win.dispUnit() == 1 && win.sharedQuery(rank).size() == 0 &&
                win.sharedQuery(right).size() == 0 && win.sharedQuery(right).dispUnit() == 1 &&
                win.address(mine, 8 * Double.BYTES) == address + 8 * Double.BYTES;
            win.detach(mine);
            report("attach fence", mine[0] == left + 0.5 && tenArrived && mine[19] == size && mine[3] == 0 &&
                back[0] == rank + 0.5 && attributes, Arrays.toString(mine) + " got back " + back[0] +
                " attributes " + attributes);
        }
    }

    private static void attachLock()
    {
        final long[] counter = new long[2];
        try (Win win = Win.createDynamic(null, MPI.COMM_WORLD))
        {
            final long[] address = {rank == 0 ? win.attach(counter) : 0};
            MPI.COMM_WORLD.Bcast(address, 0, 1, MPI.LONG, 0);
            final long[] old = new long[1];
            for (int i = 0; i < LOCKED_INCREMENTS; i++)
            {
                win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
                win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 0, address[0], 1, MPI.LONG, MPI.SUM);
                win.unlock(0);
                win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
                win.fetchAndOp(new long[] {1}, 0, old, 0, MPI.LONG, 0, address[0], MPI.SUM);
                win.unlock(0);
            }
            final long[] swapped = new long[1];
            win.lock(Win.LOCK_SHARED, 0, 0);
            win.compareAndSwap(new long[] {rank + 1}, 0, new long[] {0}, 0, swapped, 0, MPI.LONG, 0,
                address[0] + Long.BYTES);
            win.unlock(0);
            MPI.COMM_WORLD.Barrier();
            if (rank == 0)
            {
                win.detach(counter);
            }
            report("attach lock", rank != 0 || counter[0] == 2L * size * LOCKED_INCREMENTS && counter[1] >= 1 &&
                counter[1] <= size, "counter " + Arrays.toString(counter));
        }
    }

    private static void detachedAccess()
    {
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        final List<String> failures = new ArrayList<>();
        try (Win win = Win.createDynamic(null, MPI.COMM_WORLD))
        {
            final int[] gone = new int[2];
            final long stale = addressOfRight(win.attach(gone), right, left);
            MPI.COMM_WORLD.Barrier();
            win.detach(gone);
            MPI.COMM_WORLD.Barrier();
            final int[] one = {7};

            // Under a lock, completed by flush; the epoch goes on and unlock ends it.
            win.lock(Win.LOCK_EXCLUSIVE, right, 0);
            expectRange(failures, "put + flush", right, "address " + stale + " ", () ->
            {
                win.put(one, 0, 1, MPI.INT, right, stale, 1, MPI.INT);
                win.flush(right);
            });
            win.unlock(right);

            // Completed by unlock, which reports it and keeps the lock until unlock is called again.
            win.lock(Win.LOCK_EXCLUSIVE, right, 0);
            expectRange(failures, "accumulate + unlock", right, "address " + stale + " ", () ->
            {
                win.accumulate(one, 0, 1, MPI.INT, right, stale, 1, MPI.INT, MPI.SUM);
                win.unlock(right);
            });
            // The lock is still held: by the unlock that threw, or (own memory) since the accumulate threw at once.
            win.unlock(right);

            // A get has its reply: it throws at once.
            win.lock(Win.LOCK_SHARED, right, 0);
            expectRange(failures, "get", right, "address " + stale + " ", () ->
                win.get(new int[1], 0, 1, MPI.INT, right, stale, 1, MPI.INT));
            win.unlock(right);

            // A fence reports it on every process (each here puts to a detached address).
            win.fence(0);
            expectRange(failures, "put + fence", right, "address " + stale + " ", () ->
            {
                win.put(one, 0, 1, MPI.INT, right, stale, 1, MPI.INT);
                win.fence(0);
            });
            win.fence(Win.MODE_NOSUCCEED);

            // Past the end of an attached region: nothing written, not even the elements inside.
            final int[] live = new int[2];
            final long liveAddress = addressOfRight(win.attach(live), right, left);
            MPI.COMM_WORLD.Barrier();
            win.lock(Win.LOCK_EXCLUSIVE, right, 0);
            expectRange(failures, "past the end", right, "run past their end", () ->
            {
                win.put(new int[] {1, 2, 3}, 0, 3, MPI.INT, right, liveAddress, 3, MPI.INT);
                win.flush(right);
            });
            win.unlock(right);
            MPI.COMM_WORLD.Barrier();
            if (live[0] != 0 || live[1] != 0)
            {
                failures.add("a put past the end wrote " + Arrays.toString(live));
            }

            expectError(failures, "attach twice", ErrorClass.ERR_RMA_ATTACH, () -> win.attach(live));
            expectError(failures, "detach what is not attached", ErrorClass.ERR_BASE, () -> win.detach(new int[2]));
            win.detach(live);
        }
        try (Win created = Win.create(new int[1], Integer.BYTES, null, MPI.COMM_WORLD))
        {
            expectError(failures, "attach to Win.create", ErrorClass.ERR_RMA_FLAVOR, () -> created.attach(new int[1]));
            expectError(failures, "address on Win.create", ErrorClass.ERR_RMA_FLAVOR,
                () -> created.address(new int[1], 0));
        }
        report("detached access", failures.isEmpty(), String.join("; ", failures));
    }

    /** Sends {@code mine} to the left neighbour; returns the right neighbour's. */
    private static long addressOfRight(final long mine, final int right, final int left)
    {
        final long[] theirs = new long[1];
        MPI.COMM_WORLD.Sendrecv(new long[] {mine}, 0, 1, MPI.LONG, left, 0, theirs, 0, 1, MPI.LONG, right, 0);
        return theirs[0];
    }

    private static void linkedList()
    {
        // An element: value, then the rank and address of the next one (NIL rank: none).
        final List<long[]> attached = new ArrayList<>();
        try (Win win = Win.createDynamic(null, MPI.COMM_WORLD))
        {
            final long[] tailAndHead = new long[2];
            if (rank == 0)
            {
                final long[] head = {-1, NIL, 0};
                attached.add(head);
                final long headAddress = win.attach(head);
                final long[] tail = {0, headAddress};
                attached.add(tail);
                tailAndHead[0] = win.attach(tail);
                tailAndHead[1] = headAddress;
            }
            MPI.COMM_WORLD.Bcast(tailAndHead, 0, 2, MPI.LONG, 0);
            for (int i = 0; i < LIST_ELEMENTS_PER_RANK; i++)
            {
                final long[] element = {rank * 1000L + i, NIL, 0};
                attached.add(element);
                final long address = win.attach(element);
                // Swap the tail pointer for this element, atomically, then link the old tail to it.
                final long[] oldTail = new long[2];
                win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
                win.getAccumulate(new long[] {rank, address}, 0, 2, MPI.LONG, oldTail, 0, 2, MPI.LONG, 0,
                    tailAndHead[0], 2, MPI.LONG, Win.REPLACE);
                win.unlock(0);
                win.lock(Win.LOCK_EXCLUSIVE, (int)oldTail[0], 0);
                win.put(new long[] {rank, address}, 0, 2, MPI.LONG, (int)oldTail[0], oldTail[1] + Long.BYTES, 2,
                    MPI.LONG);
                win.unlock((int)oldTail[0]);
            }
            MPI.COMM_WORLD.Barrier();
            String problem = null;
            if (rank == 0)
            {
                problem = walk(win, tailAndHead[1]);
            }
            MPI.COMM_WORLD.Barrier();
            for (final long[] memory : attached)
            {
                win.detach(memory);
            }
            report("linked list", problem == null, problem);
        }
    }

    /** Walks the list from rank 0's head; null if it holds every element once, each rank's in order. */
    private static String walk(final Win win, final long headAddress)
    {
        final int[] nextOfRank = new int[size];
        final long[] element = new long[3];
        int targetRank = 0;
        long address = headAddress;
        int elements = -1;
        while (targetRank != NIL)
        {
            win.lock(Win.LOCK_SHARED, targetRank, 0);
            win.get(element, 0, 3, MPI.LONG, targetRank, address, 3, MPI.LONG);
            win.unlock(targetRank);
            if (element[0] >= 0)
            {
                final int owner = (int)(element[0] / 1000);
                if (owner != targetRank || element[0] % 1000 != nextOfRank[owner])
                {
                    return "element " + element[0] + " found at rank " + targetRank + " where rank " + owner +
                        "'s element " + nextOfRank[owner] + " was due";
                }
                nextOfRank[owner]++;
            }
            elements++;
            targetRank = (int)element[1];
            address = element[2];
        }
        return elements == size * LIST_ELEMENTS_PER_RANK ? null : elements + " elements in the list, " +
            size * LIST_ELEMENTS_PER_RANK + " appended";
    }

    /** Runs {@code action}, which must throw ERR_RMA_RANGE naming {@code target} and containing {@code detail}. */
    private static void expectRange(final List<String> failures, final String name, final int target,
        final String detail, final Runnable action)
    {
        try
        {
            action.run();
            failures.add(name + ": no error");
        }
        catch (final RmaException e)
        {
            final String message = e.getMessage();
            if (e.errorClass() != ErrorClass.ERR_RMA_RANGE || !message.contains("rank " + target + " ") ||
                !message.contains(detail))
            {
                failures.add(name + ": " + message);
            }
        }
    }

    private static void expectError(final List<String> failures, final String name, final ErrorClass expected,
        final Runnable action)
    {
        try
        {
            action.run();
            failures.add(name + ": no error");
        }
        catch (final RmaException e)
        {
            if (e.errorClass() != expected)
            {
                failures.add(name + ": " + e.getMessage());
            }
        }
    }

    private static void report(final String name, final boolean ok, final String detail)
    {
        System.out.println("rank " + rank + " " + name + (ok ? " ok" : " FAILED: " + detail));
    }
}
