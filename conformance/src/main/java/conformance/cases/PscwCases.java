package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/**
 * Post, start, complete, wait (docs/conformance-checklist.md#post-start-complete-wait): the synchronisation,
 * the groups, the assertions and test ({@link PscwErrorCases} has the erroneous uses).
 */
public final class PscwCases
{
    /** How long a target keeps busy before it stores and posts: a start that did not wait acts meanwhile. */
    private static final long TARGET_DELAY_MS = 150;

    private PscwCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.PSCW)
            .add("pscw.put-ring", 2, Behaviour.PSCW_SYNCHRONISES,
                "10 epochs: every rank posts to its left neighbour, starts to its right one, puts its rank and the " +
                    "round there, completes and waits: then its memory holds its left neighbour's put of the round",
                "MPI-4.1 §12.5.2; MPICH wintest, test2", PscwCases::putRing)
            .add("pscw.start-waits-for-post", 2, Behaviour.PSCW_SYNCHRONISES,
                "the last rank stores 42 into its memory after a pause, then posts to rank 0; rank 0 starts, gets " +
                    "it and completes: it got 42 (its access came after the post)",
                "MPI-4.1 §12.5.2 (accesses follow the matching post); MPICH pscw_ordering, test3",
                PscwCases::startWaitsForPost)
            .add("pscw.put-after-post", 2, Behaviour.PSCW_SYNCHRONISES,
                "the last rank stores -1 into its memory after a pause, then posts to rank 0, which puts 7 there: " +
                    "after the wait the last rank sees 7, not its own store",
                "MPI-4.1 §12.5.2 (accesses follow the matching post); MPICH pscw_ordering", PscwCases::putAfterPost)
            .add("pscw.accumulate-all-to-one", 2, Behaviour.PSCW_SYNCHRONISES,
                "rank 0 posts to every rank; each starts to rank 0 and accumulates SUM of rank + 1 into 10 longs: " +
                    "after its wait rank 0 holds size(size+1)/2 in each",
                "MPI-4.1 §12.3.4.1, §12.5.2; MPICH accpscw1", PscwCases::accumulateAllToOne)
            .add("pscw.get-from-all", 2, Behaviour.PSCW_GROUPS,
                "every rank stores 10 * rank and posts to rank 0; rank 0 starts to the whole group and gets each " +
                    "rank's value",
                "MPI-4.1 §12.5.2; MPICH test3, transpose3", PscwCases::getFromAll)
            .add("pscw.epochs-in-sequence", 2, Behaviour.PSCW_SYNCHRONISES,
                "12 epochs between rank 0 and the last rank, the roles swapping each time, each putting the round: " +
                    "each epoch's post, start, complete and wait match their own epoch's",
                "MPI-4.1 §12.5.2; MPICH pscw_ordering", PscwCases::epochsInSequence)
            .add("pscw.self", Behaviour.PSCW_GROUPS,
                "a process posts to and starts to itself, puts into its own memory, completes and waits",
                "MPI-4.1 §12.5.2 (a process may be in both groups); MPICH selfrma", PscwCases::self)
            .add("pscw.nocheck", 2, Behaviour.PSCW_ASSERTIONS,
                "posts with MODE_NOCHECK | MODE_NOSTORE, a barrier, starts with MODE_NOCHECK: the puts of the ring " +
                    "arrive as without the assertions",
                "MPI-4.1 §12.5.5 (MODE_NOCHECK on start and the matching posts); MPICH test2_am", PscwCases::nocheck)
            .add("pscw.assertions-checked", Behaviour.PSCW_ASSERTIONS,
                "start with MODE_NOSTORE and post with MODE_NOSUCCEED: MPI_ERR_ASSERT; post with MODE_NOPUT works",
                "MPI-4.1 §12.5.5; docs/design.md#erroneous-calls-are-reported", PscwCases::assertionsChecked)
            .add("pscw.wait-waits-for-complete", 2, Behaviour.PSCW_SYNCHRONISES,
                "the last rank posts to rank 0 and waits; rank 0 starts, pauses, puts 5 and completes: when the " +
                    "last rank's wait returns, its memory holds 5",
                "MPI-4.1 §12.5.2 (wait returns once every origin of the post's group has completed); MPICH wintest",
                PscwCases::waitWaitsForComplete)
            .add("pscw.test-false-before-complete", 2, Behaviour.PSCW_TEST,
                "the last rank posts to rank 0, whose access epoch puts 9 and then waits for a message before it " +
                    "completes: the last rank's test is false (the epoch stays open), then, after it sends the " +
                    "message, test becomes true and its memory holds 9",
                "MPI-4.1 §12.5.2 (MPI_WIN_TEST returns false while some origin has not completed); MPICH wintest",
                PscwCases::testFalseBeforeComplete)
            .add("pscw.test-until-done", 2, Behaviour.PSCW_TEST,
                "rank 0 posts to every rank, which each put rank + 1 into its element after a pause; rank 0 calls " +
                    "test until true: every element is there, and waitFor after it is MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.2 (MPI_WIN_TEST); MPICH wintest", PscwCases::testUntilDone)
            .add("pscw.empty-groups", Behaviour.PSCW_GROUPS,
                "post and start with MPI.GROUP_EMPTY and with an empty Incl of the window's group, three times: " +
                    "complete and waitFor return at once and test is true at once; a self epoch after them works",
                "MPI-4.1 §12.5.2 (groups may be empty); MPICH nullpscw", PscwCases::emptyGroups)
            .add("pscw.proc-null-target", Behaviour.PSCW_GROUPS,
                "in an access epoch to the right neighbour, put, get, accumulate, getAccumulate, fetchAndOp and " +
                    "compareAndSwap to PROC_NULL succeed and do nothing (result buffers untouched); the epoch's put " +
                    "to the neighbour arrives",
                "MPI-4.1 §12.3 (PROC_NULL is a valid target of every RMA call, in any epoch); MPICH rmanull",
                PscwCases::procNullTarget)
            .add("pscw.all-to-all", 2, Behaviour.PSCW_GROUPS,
                "every rank posts to the whole group and starts to the whole group, puts rank + 1 into its slot of " +
                    "every rank (itself included), completes and waits: every slot is filled; five such epochs",
                "MPI-4.1 §12.5.2 (every process both origin and target of every other); MPICH putpscw1",
                PscwCases::allToAll)
            .add("pscw.null-group", Behaviour.PSCW_GROUPS,
                "post and start with a null group: MPI_ERR_GROUP",
                "MPI-4.1 §12.5.2, §9.4 (MPI_ERR_GROUP)", PscwCases::nullGroup)
            .add("pscw.group-outside-window", 2, Behaviour.PSCW_GROUPS,
                "a window of one process, post and start with the world's group: MPI_ERR_GROUP (not a subgroup)",
                "MPI-4.1 §12.5.2 (group of the window's processes), §9.4 (MPI_ERR_GROUP)",
                PscwCases::groupOutsideWindow)
            .list();
    }

    private static void putRing(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        for (int round = 1; round <= 10; round++)
        {
            win.post(group(win, left), 0);
            win.start(group(win, right), 0);
            win.put(new long[] {round * 100L + c.rank()}, 0, 1, MPI.LONG, right, c.disp(win, right, 0),
                1, MPI.LONG);
            win.complete();
            win.waitFor();
            c.checkEquals(round * 100L + left, Memory.getLong(c.memory(win), 0), "round " + round);
        }
    }

    private static void startWaitsForPost(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final long[] got = {-1};
        if (c.rank() == c.last())
        {
            CaseContext.sleepMs(TARGET_DELAY_MS);
            Memory.setLong(c.memory(win), 0, 42);
            win.post(group(win, 0), 0);
            win.waitFor();
        }
        if (c.isRoot())
        {
            win.start(group(win, c.last()), 0);
            win.get(got, 0, 1, MPI.LONG, c.last(), c.disp(win, c.last(), 0), 1, MPI.LONG);
            win.complete();
            c.checkEquals(42, got[0], "the value the last rank stored before its post");
        }
    }

    private static void putAfterPost(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        if (c.rank() == c.last())
        {
            CaseContext.sleepMs(TARGET_DELAY_MS);
            Memory.setLong(c.memory(win), 0, -1);
            win.post(group(win, 0), 0);
            win.waitFor();
            c.checkEquals(7, Memory.getLong(c.memory(win), 0), "the last rank's element after its wait");
        }
        if (c.isRoot())
        {
            win.start(group(win, c.last()), 0);
            win.put(new long[] {7}, 0, 1, MPI.LONG, c.last(), c.disp(win, c.last(), 0), 1, MPI.LONG);
            win.complete();
        }
    }

    private static void accumulateAllToOne(final CaseContext c) throws Exception
    {
        final Win win = c.window(c.isRoot() ? 80 : 0, 8);
        final long[] mine = new long[10];
        java.util.Arrays.fill(mine, c.rank() + 1L);
        if (c.isRoot())
        {
            win.post(win.getGroup(), 0);
        }
        win.start(group(win, 0), 0);
        win.accumulate(mine, 0, 10, MPI.LONG, 0, c.disp(win, 0, 0), 10, MPI.LONG, MPI.SUM);
        win.complete();
        if (c.isRoot())
        {
            win.waitFor();
            final long p = c.size();
            for (int i = 0; i < 10; i++)
            {
                c.checkEquals(p * (p + 1) / 2, Memory.getLong(c.memory(win), i), "element " + i);
            }
        }
    }

    private static void getFromAll(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        Memory.setLong(c.memory(win), 0, 10L * c.rank());
        win.post(group(win, 0), 0);
        if (c.isRoot())
        {
            final long[] got = new long[c.size()];
            win.start(win.getGroup(), 0);
            for (int target = 0; target < c.size(); target++)
            {
                win.get(got, target, 1, MPI.LONG, target, c.disp(win, target, 0), 1, MPI.LONG);
            }
            win.complete();
            for (int target = 0; target < c.size(); target++)
            {
                c.checkEquals(10L * target, got[target], "value of rank " + target);
            }
        }
        win.waitFor();
    }

    private static void epochsInSequence(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final boolean party = c.isRoot() || c.rank() == c.last();
        final int peer = c.isRoot() ? c.last() : 0;
        for (int round = 0; round < 12 && party; round++)
        {
            final boolean target = (round % 2 == 0) == c.isRoot();
            if (target)
            {
                win.post(group(win, peer), 0);
                win.waitFor();
                c.checkEquals(round, Memory.getLong(c.memory(win), 0), "round " + round);
            }
            else
            {
                win.start(group(win, peer), 0);
                win.put(new long[] {round}, 0, 1, MPI.LONG, peer, c.disp(win, peer, 0), 1, MPI.LONG);
                win.complete();
            }
        }
    }

    private static void self(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.post(group(win, c.rank()), 0);
        win.start(group(win, c.rank()), 0);
        win.put(new long[] {99}, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG);
        win.complete();
        win.waitFor();
        c.checkEquals(99, Memory.getLong(c.memory(win), 0), "own element");
    }

    private static void nocheck(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        for (int round = 1; round <= 5; round++)
        {
            win.post(group(win, left), Win.MODE_NOCHECK | Win.MODE_NOSTORE);
            c.barrier();
            win.start(group(win, right), Win.MODE_NOCHECK);
            win.put(new long[] {round * 10L + c.rank()}, 0, 1, MPI.LONG, right, c.disp(win, right, 0), 1,
                MPI.LONG);
            win.complete();
            win.waitFor();
            c.checkEquals(round * 10L + left, Memory.getLong(c.memory(win), 0), "round " + round);
        }
    }

    private static void assertionsChecked(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_ASSERT, "start(MODE_NOSTORE)",
            () -> win.start(group(win, c.rank()), Win.MODE_NOSTORE));
        c.expectError(ErrorClass.ERR_ASSERT, "post(MODE_NOSUCCEED)",
            () -> win.post(group(win, c.rank()), Win.MODE_NOSUCCEED));
        win.post(group(win, c.rank()), Win.MODE_NOPUT);
        win.start(group(win, c.rank()), 0);
        win.complete();
        win.waitFor();
    }

    private static void waitWaitsForComplete(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        if (c.rank() == c.last())
        {
            win.post(group(win, 0), 0);
            win.waitFor();
            c.checkEquals(5, Memory.getLong(c.memory(win), 0), "own element after the wait");
        }
        if (c.isRoot())
        {
            win.start(group(win, c.last()), 0);
            CaseContext.sleepMs(TARGET_DELAY_MS);
            win.put(new long[] {5}, 0, 1, MPI.LONG, c.last(), c.disp(win, c.last(), 0), 1, MPI.LONG);
            win.complete();
        }
    }

    private static void testFalseBeforeComplete(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        if (c.rank() == c.last())
        {
            win.post(group(win, 0), 0);
            c.check(!win.test(), "test is true before rank 0 completed");
            c.send(1, 0);
            while (!win.test())
            {
                Thread.yield();
            }
            c.checkEquals(9, Memory.getLong(c.memory(win), 0), "own element after test returned true");
        }
        if (c.isRoot())
        {
            win.start(group(win, c.last()), 0);
            win.put(new long[] {9}, 0, 1, MPI.LONG, c.last(), c.disp(win, c.last(), 0), 1, MPI.LONG);
            c.receive(c.last());
            win.complete();
        }
    }

    private static void testUntilDone(final CaseContext c) throws Exception
    {
        final Win win = c.window(c.isRoot() ? 8L * c.size() : 0, 8);
        if (c.isRoot())
        {
            win.post(win.getGroup(), 0);
        }
        win.start(group(win, 0), 0);
        CaseContext.sleepMs(50);
        win.put(new long[] {c.rank() + 1}, 0, 1, MPI.LONG, 0, c.disp(win, 0, c.rank()), 1, MPI.LONG);
        win.complete();
        if (c.isRoot())
        {
            while (!win.test())
            {
                // Yield: the origins (threads, on multicore) and this process's agent share the cores.
                Thread.yield();
            }
            for (int origin = 0; origin < c.size(); origin++)
            {
                c.checkEquals(origin + 1, Memory.getLong(c.memory(win), origin), "element of rank " + origin);
            }
            c.expectError(ErrorClass.ERR_RMA_SYNC, "waitFor after test returned true", win::waitFor);
        }
    }

    private static void emptyGroups(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final mpi.Group[] empties = {MPI.GROUP_EMPTY, win.getGroup().Incl(new int[0])};
        for (int round = 0; round < 3; round++)
        {
            for (final mpi.Group empty : empties)
            {
                win.post(empty, 0);
                win.start(empty, 0);
                win.complete();
                win.waitFor();
                win.post(empty, 0);
                c.check(win.test(), "test after posting to an empty group is false (round " + round + ")");
            }
        }
        win.post(group(win, c.rank()), 0);
        win.start(group(win, c.rank()), 0);
        win.put(new long[] {17}, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG);
        win.complete();
        win.waitFor();
        c.checkEquals(17, Memory.getLong(c.memory(win), 0), "own element after the self epoch");
    }

    private static void procNullTarget(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        final long[] result = {-1};
        win.post(group(win, left), 0);
        win.start(group(win, right), 0);
        win.put(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG);
        win.get(result, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG);
        win.accumulate(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG, MPI.SUM);
        win.getAccumulate(new long[] {1}, 0, 1, MPI.LONG, result, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1,
            MPI.LONG, MPI.SUM);
        win.fetchAndOp(new long[] {1}, 0, result, 0, MPI.LONG, MPI.PROC_NULL, 0, MPI.SUM);
        win.compareAndSwap(new long[] {1}, 0, new long[] {0}, 0, result, 0, MPI.LONG, MPI.PROC_NULL, 0);
        win.put(new long[] {40 + c.rank()}, 0, 1, MPI.LONG, right, c.disp(win, right, 0), 1, MPI.LONG);
        win.complete();
        win.waitFor();
        c.checkEquals(-1, result[0], "result buffer");
        c.checkEquals(40 + left, Memory.getLong(c.memory(win), 0), "own element");
    }

    private static void allToAll(final CaseContext c) throws Exception
    {
        final Win win = c.window(8L * c.size(), 8);
        final mpi.Group all = win.getGroup();
        for (int round = 1; round <= 5; round++)
        {
            win.post(all, 0);
            win.start(all, 0);
            for (int target = 0; target < c.size(); target++)
            {
                win.put(new long[] {round * 100L + c.rank() + 1}, 0, 1, MPI.LONG, target,
                    c.disp(win, target, c.rank()), 1, MPI.LONG);
            }
            win.complete();
            win.waitFor();
            for (int origin = 0; origin < c.size(); origin++)
            {
                c.checkEquals(round * 100L + origin + 1, Memory.getLong(c.memory(win), origin),
                    "round " + round + ", slot of rank " + origin);
            }
        }
    }

    private static void nullGroup(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_GROUP, "post(null)", () -> win.post(null, 0));
        c.expectError(ErrorClass.ERR_GROUP, "start(null)", () -> win.start(null, 0));
    }

    private static void groupOutsideWindow(final CaseContext c) throws Exception
    {
        final Intracomm alone = c.comm().Split(c.rank(), 0);
        final Win win = c.window(8, 8, null, alone);
        c.expectError(ErrorClass.ERR_GROUP, "post(the world's group)", () -> win.post(c.comm().Group(), 0));
        c.expectError(ErrorClass.ERR_GROUP, "start(the world's group)",
            () -> win.start(c.comm().Group(), 0));
        win.free();
        alone.Free();
    }

    /** The group of {@code ranks} of the window's processes. */
    static mpi.Group group(final Win win, final int... ranks)
    {
        return win.getGroup().Incl(ranks);
    }
}
