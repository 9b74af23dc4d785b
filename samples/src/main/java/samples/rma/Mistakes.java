package samples.rma;

import java.lang.foreign.ValueLayout;
import java.util.Locale;

import mpi.MPI;
import mpi.rma.Win;

/**
 * The common mistakes with shared windows, made on purpose, one after the other, each on a
 * fresh window, printing the exact error each one gets (the tutorial quotes this output).
 * Needs at least 2 ranks; rank 0 makes the mistake unless the mistake is collective, and the
 * program goes on after each one, as every error leaves the window usable.
 *
 * <p>Memory addresses in the JVM's own messages are printed as {@code 0x...}: they change from
 * run to run.
 *
 * <p>Run: {@code bin/sample Mistakes} (4 ranks; 2 or more).
 */
public final class Mistakes
{
    private static final long SLOTS = 8;

    private int mistake;
    private final int rank;
    private final int size;

    private Mistakes(final int rank, final int size)
    {
        this.rank = rank;
        this.size = size;
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}.
     */
    public static void main(final String[] args)
    {
        MPI.Init(args);
        final int size = MPI.COMM_WORLD.Size();
        if (size < 2)
        {
            throw new IllegalArgumentException("Mistakes needs 2 or more ranks, got " + size + ": run it with -np 2 or more");
        }
        final Mistakes mistakes = new Mistakes(MPI.COMM_WORLD.Rank(), size);
        mistakes.putOutsideEpoch();
        mistakes.readBeforeFence();
        mistakes.putOutOfRange();
        mistakes.putWrongType();
        mistakes.putToMissingRank();
        mistakes.loadPastSegmentEnd();
        mistakes.fenceInsideLock();
        mistakes.fenceWithLockAssertion();
        mistakes.unlockWithoutLock();
        mistakes.lockAfterFenceTraffic();
        mistakes.freeBeforeClosingFence();
        mistakes.useAfterFree();
        mistakes.allocateNegativeSize();
        if (mistakes.rank == 0)
        {
            System.out.println("all " + mistakes.mistake + " mistakes made, every one reported");
        }
        MPI.Finalize();
    }

    private Win newWindow()
    {
        final Win win = Win.allocateShared(SLOTS * Long.BYTES, Long.BYTES, null, MPI.COMM_WORLD);
        win.base().fill((byte)0);
        return win;
    }

    /** Prints the heading of the next mistake (rank 0) after every rank has finished the last one. */
    private void begin(final String what)
    {
        MPI.COMM_WORLD.Barrier();
        mistake++;
        if (rank == 0)
        {
            System.out.println("mistake " + mistake + ": " + what);
        }
    }

    /** Runs {@code action} on rank {@code who} (or every rank if -1) and prints what it threw. */
    private void attempt(final int who, final Runnable action)
    {
        if (who != -1 && who != rank)
        {
            return;
        }
        try
        {
            action.run();
            System.out.println("  rank " + rank + ": no error");
        }
        catch (final RuntimeException e)
        {
            // The JVM's messages name addresses, which differ between runs.
            System.out.println("  rank " + rank + ": " + e.getClass().getName() + ": " +
                e.getMessage().replaceAll("0x[0-9a-fA-F]+", "0x..."));
        }
    }

    /** A collective attempt: every rank's error, printed in rank order. */
    private void attemptEverywhere(final Runnable action)
    {
        final String[] line = new String[1];
        try
        {
            action.run();
            line[0] = "  rank " + rank + ": no error";
        }
        catch (final RuntimeException e)
        {
            line[0] = "  rank " + rank + ": " + e.getClass().getName() + ": " + e.getMessage();
        }
        for (int turn = 0; turn < size; turn++)
        {
            if (turn == rank)
            {
                System.out.println(line[0]);
            }
            MPI.COMM_WORLD.Barrier();
        }
    }

    private void putOutsideEpoch()
    {
        begin("put before any fence: no access epoch is open");
        try (Win win = newWindow())
        {
            attempt(0, () -> win.put(new long[] {42}, 0, 1, MPI.LONG, 1, 0, 1, MPI.LONG));
        }
    }

    private void readBeforeFence()
    {
        begin("reading a neighbour's value before the fence that publishes it: no error, just the old value");
        try (Win win = newWindow())
        {
            win.fence(Win.MODE_NOSUCCEED);
            final long[] before = new long[1];
            if (rank == 0)
            {
                before[0] = win.sharedQuery(1).memory().get(ValueLayout.JAVA_LONG, 0);
            }
            // Only so that the read above surely comes first: the barrier publishes nothing in the window.
            MPI.COMM_WORLD.Barrier();
            if (rank == 1)
            {
                win.base().set(ValueLayout.JAVA_LONG, 0, 42L);
            }
            win.fence(Win.MODE_NOSUCCEED);
            if (rank == 0)
            {
                final long after = win.sharedQuery(1).memory().get(ValueLayout.JAVA_LONG, 0);
                System.out.printf(Locale.ROOT, "  rank 0: read %d before the fence, %d after it%n", before[0], after);
            }
        }
    }

    private void putOutOfRange()
    {
        begin("put past the end of the target's segment");
        try (Win win = newWindow())
        {
            win.fence(0);
            attempt(0, () -> win.put(new long[] {1, 2}, 0, 2, MPI.LONG, 1, SLOTS - 1, 2, MPI.LONG));
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    private void putWrongType()
    {
        begin("an int[] described as MPI.DOUBLE");
        try (Win win = newWindow())
        {
            win.fence(0);
            attempt(0, () -> win.put(new int[] {1}, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE));
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    private void putToMissingRank()
    {
        begin("put to a rank the window does not have");
        try (Win win = newWindow())
        {
            win.fence(0);
            attempt(0, () -> win.put(new long[] {1}, 0, 1, MPI.LONG, size, 0, 1, MPI.LONG));
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    private void loadPastSegmentEnd()
    {
        begin("a direct load past the end of a neighbour's segment");
        try (Win win = newWindow())
        {
            attempt(0, () -> win.sharedQuery(1).memory().getAtIndex(ValueLayout.JAVA_LONG, SLOTS));
        }
    }

    private void fenceInsideLock()
    {
        begin("fence while rank 0 holds a lock (collective: every rank gets an error)");
        try (Win win = newWindow())
        {
            if (rank == 0)
            {
                win.lock(Win.LOCK_SHARED, 1, 0);
            }
            attemptEverywhere(() -> win.fence(0));
            if (rank == 0)
            {
                win.unlock(1);
            }
        }
    }

    private void fenceWithLockAssertion()
    {
        begin("fence with a lock's assertion MODE_NOCHECK on rank 1 (collective)");
        try (Win win = newWindow())
        {
            attemptEverywhere(() -> win.fence(rank == 1 ? Win.MODE_NOCHECK : 0));
        }
    }

    private void unlockWithoutLock()
    {
        begin("unlock without lock");
        try (Win win = newWindow())
        {
            attempt(0, () -> win.unlock(1));
        }
    }

    private void lockAfterFenceTraffic()
    {
        begin("lock while a fence epoch with RMA calls is still open");
        try (Win win = newWindow())
        {
            win.fence(0);
            if (rank == 0)
            {
                win.put(new long[] {7}, 0, 1, MPI.LONG, 1, 0, 1, MPI.LONG);
            }
            attempt(0, () -> win.lock(Win.LOCK_EXCLUSIVE, 1, 0));
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    private void freeBeforeClosingFence()
    {
        begin("free right after a put, without the fence that completes it (collective)");
        final Win win = newWindow();
        win.fence(0);
        if (rank == 0)
        {
            win.put(new long[] {7}, 0, 1, MPI.LONG, 1, 0, 1, MPI.LONG);
        }
        attemptEverywhere(win::free);
        // The failed free left the window usable: complete the put, then free it for real.
        win.fence(Win.MODE_NOSUCCEED);
        win.free();
    }

    private void useAfterFree()
    {
        begin("using a window, and a segment of it, after free");
        final Win win = newWindow();
        final java.lang.foreign.MemorySegment neighbour = win.sharedQuery(1).memory();
        win.free();
        attempt(0, () -> win.fence(0));
        attempt(0, () -> neighbour.get(ValueLayout.JAVA_LONG, 0));
    }

    private void allocateNegativeSize()
    {
        begin("a negative size on rank 1 (collective: every rank gets an error)");
        attemptEverywhere(() -> Win.allocateShared(rank == 1 ? -8 : 8, Long.BYTES, null, MPI.COMM_WORLD).free());
    }
}
