package mpi.rma.message;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Shared;
import mpi.rma.Win;

/**
 * Post, start, complete, waitFor and test (MPI-4.1 section 12.5.2) on every window flavour: allocateShared
 * (when every rank shares a node), allocate, create and createDynamic, so on flag words in shared memory,
 * on messages, and on both in one window across nodes. Each rank prints {@code rank R CASE ok} or
 * {@code rank R CASE FAILED: ...} for each case (CASE ends with the flavour's name), then {@code DONE rank R}:
 * <ul>
 * <li>{@code ring}: 20 epochs in which every rank exposes its memory to its left neighbour and accesses its
 *     right one: it stores a value of the round in its own memory, posts, starts, gets the right
 *     neighbour's stored value (the post came after the store), puts into and accumulates to it,
 *     completes and waits; then its own memory holds the left neighbour's put and one accumulate per round;</li>
 * <li>{@code nocheck}: the same with MODE_NOCHECK on post and start, the posts ordered before the starts
 *     by a barrier, as MPI asks;</li>
 * <li>{@code test}: rank 0 is exposed to every rank, which put their rank into its element rank after a
 *     pause; rank 0 calls test until it returns true, then sees every put; a waitFor after it is
 *     ERR_RMA_SYNC (the epoch ended);</li>
 * <li>{@code misuse}: each erroneous call is ERR_RMA_SYNC (complete without start, waitFor and test without
 *     post, start and post twice, a put to a rank outside the start group, a lock and a fence inside an
 *     epoch, a start that names itself before its own post, a free with an epoch open, on every rank),
 *     ERR_GROUP (a group with a process outside the window, a null group) or ERR_ASSERT, and the window
 *     still works after each.</li>
 * </ul>
 */
public final class PscwWindowProgram
{
    private static final int ROUNDS = 20;
    private static final int ELEMENTS = 4;

    private static int rank;
    private static int size;

    private PscwWindowProgram()
    {
    }

    /** The flavours of window the cases run on, and how each reaches a rank's element. */
    private enum Flavour
    {
        SHARED, ALLOCATE, CREATE, DYNAMIC
    }

    /** A window of {@link #ELEMENTS} longs per rank, whichever its flavour. */
    private record Window(Win win, long[] array, long[] addresses)
    {
        static Window of(final Flavour flavour, final Intracomm comm)
        {
            final int bytes = ELEMENTS * Long.BYTES;
            return switch (flavour)
            {
                case SHARED -> new Window(Win.allocateShared(bytes, Long.BYTES, null, comm), null, null);
                case ALLOCATE -> new Window(Win.allocate(bytes, Long.BYTES, null, comm), null, null);
                case CREATE ->
                {
                    final long[] array = new long[ELEMENTS];
                    yield new Window(Win.create(array, Long.BYTES, null, comm), array, null);
                }
                case DYNAMIC ->
                {
                    final long[] array = new long[ELEMENTS];
                    final Win win = Win.createDynamic(null, comm);
                    final long[] addresses = new long[comm.Size()];
                    comm.Allgather(new long[] {win.attach(array)}, 0, 1, MPI.LONG, addresses, 0, 1, MPI.LONG);
                    yield new Window(win, array, addresses);
                }
            };
        }

        /** The target displacement of element {@code index} of {@code target}'s memory. */
        long disp(final int target, final int index)
        {
            return addresses == null ? index : addresses[target] + (long)index * Long.BYTES;
        }

        long local(final int index)
        {
            return array != null ? array[index] : win.base().getAtIndex(ValueLayout.JAVA_LONG, index);
        }

        void setLocal(final int index, final long value)
        {
            if (array != null)
            {
                array[index] = value;
            }
            else
            {
                win.base().setAtIndex(ValueLayout.JAVA_LONG, index, value);
            }
        }

        void free()
        {
            if (array != null && addresses != null)
            {
                win.detach(array);
            }
            win.free();
        }
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.Rank();
        size = MPI.COMM_WORLD.Size();
        final Intracomm node = Shared.split(MPI.COMM_WORLD);
        final List<Flavour> flavours = new ArrayList<>(List.of(Flavour.ALLOCATE, Flavour.CREATE, Flavour.DYNAMIC));
        if (node.Size() == size)
        {
            flavours.add(0, Flavour.SHARED);
        }
        node.Free();
        for (final Flavour flavour : flavours)
        {
            final String name = flavour.name().toLowerCase(java.util.Locale.ROOT);
            ring(flavour, name);
            noCheck(flavour, name);
            test(flavour, name);
            misuse(flavour, name);
        }
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }

    private static void ring(final Flavour flavour, final String name)
    {
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        final Window window = Window.of(flavour, MPI.COMM_WORLD);
        final Win win = window.win();
        final Group leftGroup = win.getGroup().Incl(new int[] {left});
        final Group rightGroup = win.getGroup().Incl(new int[] {right});
        final StringBuilder wrong = new StringBuilder();
        final long[] got = new long[1];
        for (int round = 1; round <= ROUNDS; round++)
        {
            window.setLocal(2, round * 1000L + rank);
            win.post(leftGroup, 0);
            win.start(rightGroup, 0);
            win.get(got, 0, 1, MPI.LONG, right, window.disp(right, 2), 1, MPI.LONG);
            win.put(new long[] {round * 100L + rank}, 0, 1, MPI.LONG, right, window.disp(right, 0), 1, MPI.LONG);
            win.accumulate(new long[] {1}, 0, 1, MPI.LONG, right, window.disp(right, 1), 1, MPI.LONG, MPI.SUM);
            win.complete();
            win.waitFor();
            if (got[0] != round * 1000L + right || window.local(0) != round * 100L + left || window.local(1) != round)
            {
                wrong.append(" round ").append(round).append(": got ").append(got[0]).append(", put ")
                    .append(window.local(0)).append(", accumulated ").append(window.local(1));
            }
        }
        window.free();
        report("ring " + name, wrong.isEmpty(), wrong.toString());
    }

    private static void noCheck(final Flavour flavour, final String name)
    {
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        final Window window = Window.of(flavour, MPI.COMM_WORLD);
        final Win win = window.win();
        final StringBuilder wrong = new StringBuilder();
        for (int round = 1; round <= ROUNDS; round++)
        {
            win.post(win.getGroup().Incl(new int[] {left}), Win.MODE_NOCHECK | Win.MODE_NOSTORE);
            // MODE_NOCHECK promises that the posts have happened when the starts are called: the barrier orders them.
            MPI.COMM_WORLD.Barrier();
            win.start(win.getGroup().Incl(new int[] {right}), Win.MODE_NOCHECK);
            win.put(new long[] {round * 100L + rank}, 0, 1, MPI.LONG, right, window.disp(right, 0), 1, MPI.LONG);
            win.complete();
            win.waitFor();
            if (window.local(0) != round * 100L + left)
            {
                wrong.append(" round ").append(round).append(": ").append(window.local(0));
            }
        }
        window.free();
        report("nocheck " + name, wrong.isEmpty(), wrong.toString());
    }

    private static void test(final Flavour flavour, final String name) throws InterruptedException
    {
        final Window window = Window.of(flavour, MPI.COMM_WORLD);
        final Win win = window.win();
        if (rank == 0)
        {
            win.post(win.getGroup(), 0);
        }
        win.start(win.getGroup().Incl(new int[] {0}), 0);
        Thread.sleep(50);
        win.put(new long[] {rank + 1}, 0, 1, MPI.LONG, 0, window.disp(0, rank % ELEMENTS), 1, MPI.LONG);
        win.complete();
        boolean ok = true;
        String detail = "";
        if (rank == 0)
        {
            long tests = 1;
            while (!win.test())
            {
                tests++;
                Thread.onSpinWait();
            }
            for (int origin = 0; origin < Math.min(size, ELEMENTS); origin++)
            {
                // Several origins share an element when there are more ranks than elements: any of them may be last.
                final long value = window.local(origin);
                ok &= value >= 1 && value <= size && (value - 1) % ELEMENTS == origin;
                detail += " element " + origin + "=" + value;
            }
            final RmaException after = expect(ErrorClass.ERR_RMA_SYNC, win::waitFor);
            ok &= after != null;
            detail += " after " + tests + " tests";
        }
        window.free();
        report("test " + name, ok, detail);
    }

    private static void misuse(final Flavour flavour, final String name)
    {
        final Window window = Window.of(flavour, MPI.COMM_WORLD);
        final Win win = window.win();
        final int right = (rank + 1) % size;
        final Group self = win.getGroup().Incl(new int[] {rank});
        final List<String> wrong = new ArrayList<>();
        check(wrong, "complete without start", ErrorClass.ERR_RMA_SYNC, "win.start", win::complete);
        check(wrong, "waitFor without post", ErrorClass.ERR_RMA_SYNC, "win.post", win::waitFor);
        check(wrong, "test without post", ErrorClass.ERR_RMA_SYNC, "win.post", win::test);
        check(wrong, "start naming itself before its post", ErrorClass.ERR_RMA_SYNC, "win.post",
            () -> win.start(self, 0));
        check(wrong, "null group", ErrorClass.ERR_GROUP, "group is null", () -> win.post(null, 0));
        check(wrong, "start with MODE_NOSTORE", ErrorClass.ERR_ASSERT, "MODE_NOCHECK",
            () -> win.start(self, Win.MODE_NOSTORE));
        check(wrong, "post with MODE_NOPRECEDE", ErrorClass.ERR_ASSERT, "MODE_NOPUT",
            () -> win.post(self, Win.MODE_NOPRECEDE));
        // A window of this process alone: the world's group holds processes outside it.
        if (size > 1)
        {
            final Intracomm alone = MPI.COMM_WORLD.Split(rank, 0);
            final Win lonely = Win.create(new long[1], Long.BYTES, null, alone);
            check(wrong, "group not in the window", ErrorClass.ERR_GROUP, "subgroup",
                () -> lonely.post(MPI.COMM_WORLD.Group(), 0));
            lonely.free();
            alone.Free();
        }
        win.post(self, 0);
        check(wrong, "post twice", ErrorClass.ERR_RMA_SYNC, "win.waitFor", () -> win.post(self, 0));
        check(wrong, "fence in an exposure epoch", ErrorClass.ERR_RMA_SYNC, "win.waitFor", () -> win.fence(0));
        win.start(self, 0);
        check(wrong, "start twice", ErrorClass.ERR_RMA_SYNC, "win.complete", () -> win.start(self, 0));
        check(wrong, "lock in an access epoch", ErrorClass.ERR_RMA_SYNC, "win.complete",
            () -> win.lock(Win.LOCK_SHARED, rank, 0));
        if (size > 1)
        {
            check(wrong, "put outside the start group", ErrorClass.ERR_RMA_SYNC, "not in the group",
                () -> win.put(new long[] {1}, 0, 1, MPI.LONG, right, window.disp(right, 0), 1, MPI.LONG));
        }
        check(wrong, "waitFor before its own complete", ErrorClass.ERR_RMA_SYNC, "win.complete", win::waitFor);
        // The window still works: the epoch to itself carries a put.
        win.put(new long[] {7}, 0, 1, MPI.LONG, rank, window.disp(rank, 3), 1, MPI.LONG);
        win.complete();
        // Free with the exposure epoch open fails on every process, and the window stays usable.
        check(wrong, "free with an epoch open", ErrorClass.ERR_RMA_SYNC, "win.waitFor", win::free);
        win.waitFor();
        if (window.local(3) != 7)
        {
            wrong.add("put to itself in the epoch: " + window.local(3));
        }
        window.free();
        report("misuse " + name, wrong.isEmpty(), String.join("; ", wrong));
    }

    private interface Call
    {
        void run();
    }

    private static void check(final List<String> wrong, final String what, final ErrorClass expected,
        final String hint, final Call call)
    {
        final RmaException e = expect(expected, call);
        if (e == null)
        {
            wrong.add(what + ": no " + expected);
        }
        else if (!e.getMessage().contains(hint))
        {
            wrong.add(what + ": message without '" + hint + "': " + e.getMessage());
        }
    }

    private static RmaException expect(final ErrorClass expected, final Call call)
    {
        try
        {
            call.run();
            return null;
        }
        catch (final RmaException e)
        {
            return e.errorClass() == expected ? e : null;
        }
    }

    private static void report(final String name, final boolean ok, final String detail)
    {
        System.out.println("rank " + rank + " " + name + (ok ? " ok" : " FAILED: " + detail));
    }
}
