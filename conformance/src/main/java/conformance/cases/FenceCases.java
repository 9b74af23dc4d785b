package conformance.cases;

import java.util.Arrays;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/** Fence and its assertions (docs/conformance-checklist.md#fence-and-its-assertions). */
public final class FenceCases
{
    private FenceCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.FENCE)
            .add("fence.one-process", Behaviour.FENCE_SYNCHRONISES,
                "fence on a one-process window (COMM_SELF) returns; put and get to self between fences work",
                "MPI-4.1 §12.5.1; MPICH transpose6", FenceCases::oneProcess)
            .add("fence.waits-for-all", 2, Behaviour.FENCE_SYNCHRONISES,
                "fence returns only when every rank has called it: rank 0 stores after a 150 ms pause, then fences; " +
                    "the others load its value after their fence",
                "MPI-4.1 §12.5.1 (stores become visible before the fence returns at the target)",
                FenceCases::waitsForAll)
            .add("fence.put-then-load", 2, Behaviour.FENCE_SYNCHRONISES,
                "rank 1 stores 0, fence, rank 0 puts 1 into rank 1, fence: rank 1 loads 1",
                "MPI-4.1 §12.5.1; MPICH fence_shm (part 1)", FenceCases::putThenLoad)
            .add("fence.unpaired-epochs", 2, Behaviour.FENCE_SYNCHRONISES,
                "fences NOPRECEDE, 0, 0, NOSUCCEED: each closes one epoch and opens the next; puts 0->last, " +
                    "then last->0, then both, each seen after the next fence",
                "MPI-4.1 §12.5.1; MPICH epochtest", FenceCases::unpairedEpochs)
            .add("fence.many-small-operations", Behaviour.FENCE_SYNCHRONISES,
                "in one fence epoch each rank puts 300 single ints and accumulates 300 single ints into its right " +
                    "neighbour, one call per element: after the closing fence every element is there",
                "MPI-4.1 §12.5.1 (a fence completes every operation of the epoch, however many); MPICH manyrma2",
                FenceCases::manySmallOperations)
            .add("fence.all-to-one-regions", Behaviour.FENCE_SYNCHRONISES,
                "every rank puts 64 longs into its own region of rank 0 in one epoch; in the next each gets its " +
                    "region back: rank 0 holds every region, and every rank gets its own values",
                "MPI-4.1 §12.5.1 (many origins, one target, in one epoch)", FenceCases::allToOneRegions)
            .add("fence.put-get-accumulate-one-epoch", Behaviour.FENCE_SYNCHRONISES,
                "in one epoch each rank puts into its right neighbour's long 0, accumulates 10 twice into its long " +
                    "1 and gets its long 2 (disjoint locations): after the fence long 0 is the left neighbour's, " +
                    "long 1 is 20, and the get returned the value stored before the epoch",
                "MPI-4.1 §12.5.1, §12.7 (accesses to disjoint locations in one epoch)",
                FenceCases::putGetAccumulateOneEpoch)
            .add("fence.legal-assertions", Behaviour.FENCE_ASSERTIONS,
                "0 and every OR of NOSTORE, NOPUT, NOPRECEDE, NOSUCCEED are accepted, and correct hints do not change " +
                    "results",
                "MPI-4.1 §12.5.5; Open MPI win_fence.c.in; docs/design.md#erroneous-calls-are-reported",
                FenceCases::legalAssertions)
            .add("fence.assert-nocheck", Behaviour.FENCE_ASSERTIONS,
                "fence(MODE_NOCHECK) (a lock-only assertion): MPI_ERR_ASSERT on every rank",
                "MPI-4.1 §12.5.5; Open MPI win_fence.c.in; docs/design.md#erroneous-calls-are-reported",
                FenceCases::assertNocheck)
            .add("fence.assert-bad-one-rank", 2, Behaviour.FENCE_ASSERTIONS,
                "fence with an undefined bit (1) on the last rank only: MPI_ERR_ASSERT on every rank, none hangs, " +
                    "and the next fence(0) works",
                "MPI-4.1 §12.5.5; docs/design.md#collective-calls-fail-together", FenceCases::assertBadOneRank)
            .add("fence.inside-lock-all", Behaviour.EPOCH_MODE_SWITCH,
                "fence while this rank's lockAll epoch is open: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5 (epochs are disjoint); MPICH errors/rma/win_sync_lock_fence", FenceCases::insideLockAll)
            .add("fence.rma-after-nosucceed", Behaviour.EPOCH_REQUIRED,
                "put after fence(MODE_NOSUCCEED): MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.1, §12.5.5; MPICH errors/rma/win_sync_op", FenceCases::rmaAfterNosucceed)
            .add("fence.rma-before-first-fence", Behaviour.EPOCH_REQUIRED,
                "put before any fence or lock: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5 (RMA only inside an access epoch); MPICH errors/rma/win_sync_op",
                FenceCases::rmaBeforeFirstFence)
            .add("fence.after-lock-epoch", 2, Behaviour.EPOCH_MODE_SWITCH,
                "rank 1 puts to itself under an exclusive lock; after a barrier, fence(NOPRECEDE), rank 0 gets the " +
                    "value, fence: rank 0 has it",
                "MPI-4.1 §12.7 (changing synchronisation mode); MPICH fence_shm (part 2), mixedsync",
                FenceCases::afterLockEpoch)
            .add("fence.accumulate-sum", Behaviour.FENCE_SYNCHRONISES,
                "every rank accumulates SUM of (rank + i) into 100 longs of rank 0 between two fences: " +
                    "element i is i*size + size(size-1)/2",
                "MPI-4.1 §12.3.4.1, §12.5.1; MPICH accfence2", FenceCases::accumulateSum)
            .list();
    }

    private static void oneProcess(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8, null, c.self());
        win.fence(0);
        win.put(new long[] {c.rank() + 5L}, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG);
        win.fence(0);
        c.checkEquals(c.rank() + 5L, Memory.getLong(c.memory(win), 0), "own value");
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void waitsForAll(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        if (c.isRoot())
        {
            CaseContext.sleepMs(150);
            Memory.setLong(c.memory(win), 0, 4242);
        }
        win.fence(0);
        // A load of rank 0's segment where it is shared memory; elsewhere a get in the epoch the
        // fence opened.
        final long[] seen = new long[1];
        if (c.isShared())
        {
            seen[0] = Memory.getLong(win.sharedQuery(0).memory(), 0);
        }
        else
        {
            win.get(seen, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG);
            win.fence(0);
        }
        c.checkEquals(4242, seen[0], "rank 0's value after the fence");
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void putThenLoad(final CaseContext c) throws Exception
    {
        final Win win = c.window(4, 4);
        if (c.rank() == 1)
        {
            Memory.setInt(c.memory(win), 0, 0);
        }
        win.fence(0);
        if (c.isRoot())
        {
            win.put(new int[] {1}, 0, 1, MPI.INT, 1, c.disp(win, 1, 0), 1, MPI.INT);
        }
        win.fence(0);
        if (c.rank() == 1)
        {
            c.checkEquals(1, Memory.getInt(c.memory(win), 0), "rank 1's value");
        }
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void unpairedEpochs(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        final int peer = c.isRoot() ? c.last() : 0;
        final boolean party = c.isRoot() || c.rank() == c.last();
        win.fence(Win.MODE_NOPRECEDE);
        if (c.isRoot())
        {
            win.put(new long[] {11}, 0, 1, MPI.LONG, peer, c.disp(win, peer, 0), 1, MPI.LONG);
        }
        win.fence(0);
        if (c.rank() == c.last())
        {
            c.checkEquals(11, Memory.getLong(c.memory(win), 0), "after the first epoch");
            win.put(new long[] {22}, 0, 1, MPI.LONG, peer, c.disp(win, peer, 0), 1, MPI.LONG);
        }
        win.fence(0);
        if (c.isRoot())
        {
            c.checkEquals(22, Memory.getLong(c.memory(win), 0), "after the second epoch");
        }
        if (party)
        {
            win.put(new long[] {33 + c.rank()}, 0, 1, MPI.LONG, peer, c.disp(win, peer, 1), 1, MPI.LONG);
        }
        win.fence(Win.MODE_NOSUCCEED);
        if (party)
        {
            c.checkEquals(33 + peer, Memory.getLong(c.memory(win), 1), "after the third epoch");
        }
    }

    private static void manySmallOperations(final CaseContext c) throws Exception
    {
        final int n = 300;
        final Win win = c.window(8L * n, 4);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        win.fence(0);
        for (int i = 0; i < n; i++)
        {
            win.put(new int[] {c.rank() * 10_000 + i}, 0, 1, MPI.INT, right, c.disp(win, right, i), 1,
                MPI.INT);
            win.accumulate(new int[] {i + 1}, 0, 1, MPI.INT, right, c.disp(win, right, n + i), 1, MPI.INT,
                MPI.SUM);
        }
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < n; i++)
        {
            if (Memory.getInt(c.memory(win), i) != left * 10_000 + i || Memory.getInt(c.memory(win),
                n + i) != i + 1)
            {
                c.fail("element " + i + ": put " + Memory.getInt(c.memory(win), i) + ", accumulated " +
                    Memory.getInt(c.memory(win), n + i));
                break;
            }
        }
    }

    private static void allToOneRegions(final CaseContext c) throws Exception
    {
        final int n = 64;
        final Win win = c.window(c.isRoot() ? 8L * n * c.size() : 0, 8);
        final long[] mine = new long[n];
        for (int i = 0; i < n; i++)
        {
            mine[i] = 1000L * c.rank() + i;
        }
        win.fence(0);
        win.put(mine, 0, n, MPI.LONG, 0, c.disp(win, 0, (long)n * c.rank()), n, MPI.LONG);
        win.fence(0);
        final long[] back = new long[n];
        win.get(back, 0, n, MPI.LONG, 0, c.disp(win, 0, (long)n * c.rank()), n, MPI.LONG);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals(Arrays.toString(mine), Arrays.toString(back), "own region got back");
        if (c.isRoot())
        {
            for (int r = 0; r < c.size(); r++)
            {
                for (int i = 0; i < n; i++)
                {
                    c.checkEquals(1000L * r + i, Memory.getLong(c.memory(win), (long)n * r + i),
                        "region of rank " + r + ", element " + i);
                }
            }
        }
    }

    private static void putGetAccumulateOneEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(24, 8);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        win.fence(0);
        Memory.setLong(c.memory(win), 2, 7L * c.rank());
        win.fence(0);
        final long[] got = {-1};
        win.put(new long[] {c.rank() + 1}, 0, 1, MPI.LONG, right, c.disp(win, right, 0), 1,
            MPI.LONG);
        win.accumulate(new long[] {10}, 0, 1, MPI.LONG, right, c.disp(win, right, 1), 1, MPI.LONG, MPI.SUM);
        win.get(got, 0, 1, MPI.LONG, right, c.disp(win, right, 2), 1, MPI.LONG);
        win.accumulate(new long[] {10}, 0, 1, MPI.LONG, right, c.disp(win, right, 1), 1, MPI.LONG, MPI.SUM);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals(left + 1, Memory.getLong(c.memory(win), 0), "long 0");
        c.checkEquals(20, Memory.getLong(c.memory(win), 1), "long 1");
        c.checkEquals(7L * right, got[0], "long 2 of the right neighbour");
    }

    private static void legalAssertions(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final int target = (c.rank() + 1) % c.size();
        for (int asserts = 0; asserts < 8; asserts++)
        {
            // Only true hints: no local stores anywhere, and no put follows a NOSUCCEED fence.
            win.fence(Win.MODE_NOPRECEDE | ((asserts & 1) != 0 ? Win.MODE_NOSTORE : 0));
            win.put(new long[] {asserts}, 0, 1, MPI.LONG, target, c.disp(win, target, 0), 1, MPI.LONG);
            win.fence(Win.MODE_NOSUCCEED | ((asserts & 2) != 0 ? Win.MODE_NOPUT : 0) |
                ((asserts & 4) != 0 ? Win.MODE_NOSTORE : 0));
            c.checkEquals(asserts, Memory.getLong(c.memory(win), 0), "value with assertion set " + asserts);
        }
        win.fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED | Win.MODE_NOSTORE | Win.MODE_NOPUT);
    }

    private static void assertNocheck(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_ASSERT, "fence(MODE_NOCHECK)", () -> win.fence(Win.MODE_NOCHECK));
    }

    private static void assertBadOneRank(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_ASSERT, "fence with rank " + c.last() + " passing 1",
            () -> win.fence(c.rank() == c.last() ? 1 : 0));
        win.fence(0);
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void insideLockAll(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lockAll(0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "fence inside lockAll", () -> win.fence(0));
        win.unlockAll();
    }

    private static void rmaAfterNosucceed(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        win.fence(Win.MODE_NOSUCCEED);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "put after NOSUCCEED",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG));
    }

    private static void rmaBeforeFirstFence(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "put before any fence",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG));
    }

    private static void afterLockEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(4, 4);
        if (c.rank() == 1)
        {
            win.lock(Win.LOCK_EXCLUSIVE, 1, 0);
            win.put(new int[] {1}, 0, 1, MPI.INT, 1, c.disp(win, 1, 0), 1, MPI.INT);
            win.unlock(1);
        }
        c.barrier();
        win.fence(Win.MODE_NOPRECEDE);
        final int[] got = {-1};
        if (c.isRoot())
        {
            win.get(got, 0, 1, MPI.INT, 1, c.disp(win, 1, 0), 1, MPI.INT);
        }
        win.fence(0);
        if (c.isRoot())
        {
            c.checkEquals(1, got[0], "value got from rank 1");
        }
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void accumulateSum(final CaseContext c) throws Exception
    {
        final int n = 100;
        final Win win = c.window(c.isRoot() ? 8L * n : 0, 8);
        final long[] mine = new long[n];
        for (int i = 0; i < n; i++)
        {
            mine[i] = c.rank() + i;
        }
        win.fence(0);
        win.accumulate(mine, 0, n, MPI.LONG, 0, c.disp(win, 0, 0), n, MPI.LONG, MPI.SUM);
        win.fence(0);
        if (c.isRoot())
        {
            final long p = c.size();
            for (int i = 0; i < n; i++)
            {
                c.checkEquals(i * p + p * (p - 1) / 2, Memory.getLong(c.memory(win), i), "element " + i);
            }
        }
        win.fence(Win.MODE_NOSUCCEED);
    }
}
