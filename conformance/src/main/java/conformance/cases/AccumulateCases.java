package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.Datatype;
import mpi.MPI;
import mpi.Op;
import mpi.User_function;
import mpi.rma.ErrorClass;
import mpi.rma.Win;
import mpi.rma.WinRequest;

/**
 * The accumulate family and its atomicity (docs/conformance-checklist.md#accumulate-family-and-atomicity):
 * accumulate's atomicity, operations and ordering ({@link FetchingAccumulateCases} has the fetching calls).
 */
public final class AccumulateCases
{
    private static final int ITERATIONS = 500;

    /** Accumulates each rank issues in acc.ordering-mixed-sizes. */
    private static final int ORDERED_STEPS = 24;

    private AccumulateCases()
    {
    }

    /** Step {@code step} of acc.ordering-mixed-sizes: REPLACE of 16 longs, SUM into one, BXOR into 12, in turn. */
    private static Op orderedOp(final int step)
    {
        return step % 3 == 0 ? Win.REPLACE : step % 3 == 1 ? MPI.SUM : MPI.BXOR;
    }

    private static int orderedFirst(final int step)
    {
        return step % 3 == 1 ? step % 16 : step % 3 == 2 ? 2 : 0;
    }

    private static long[] orderedValues(final int origin, final int step)
    {
        final int count = step % 3 == 0 ? 16 : step % 3 == 1 ? 1 : 12;
        final long[] values = new long[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = 100_000L * origin + 1000L * step + i + 1;
        }
        return values;
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.ACCUMULATE)
            .add("acc.sum-no-lost-updates", Behaviour.ACC_ATOMIC,
                "every rank adds 1 to rank 0's long 500 times under lockAll: the total is 500 * size",
                "MPI-4.1 §12.7.1 (element-wise atomicity); open-mpi/ompi#3571", AccumulateCases::sumNoLostUpdates)
            .add("acc.sum-misaligned-no-lost-updates", 2, Behaviour.ACC_ATOMIC,
                "as above on an int at an odd address (contiguous window, rank 0 has 3 bytes): no lost updates",
                "MPI-4.1 §12.7.1; docs/design.md#atomic-accumulates (misaligned elements take the accumulate lock)",
                AccumulateCases::sumMisalignedNoLostUpdates)
            .add("acc.atomic-with-relaxed-hints", Behaviour.ACC_ATOMIC,
                "on a window made with accumulate_ordering=none and accumulate_ops=same_op (true hints: SUM only), " +
                    "every rank adds 1 to rank 0's long 300 times under lockAll: still no lost updates",
                "MPI-4.1 §12.2.1 (accumulate_ops, accumulate_ordering relax ordering, not atomicity), §12.7.1; " +
                    "MPICH win_info", AccumulateCases::atomicWithRelaxedHints)
            .add("acc.ops", Behaviour.ACC_OPS,
                "accumulate with PROD, MAX, MIN, BAND, BOR, BXOR, LAND, REPLACE on ints gives the reduction's result",
                "MPI-4.1 §12.3.4.1, §6.9.2", AccumulateCases::ops)
            .add("acc.no-op-rejected", Behaviour.ACC_OPS,
                "accumulate with NO_OP: MPI_ERR_OP (NO_OP is for getAccumulate and fetchAndOp only)",
                "MPI-4.1 §12.3.4.1, §12.3.4.2 (NO_OP belongs to the fetching calls); docs/design.md#erroneous-calls-are-reported",
                AccumulateCases::noOpRejected)
            .add("acc.op-not-for-type", Behaviour.ACC_OPS,
                "BAND on doubles: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.1, §6.9.2 (bitwise ops on integers only)", AccumulateCases::opNotForType)
            .add("acc.user-op-rejected", Behaviour.ACC_OPS,
                "a user-defined op: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.1 (predefined ops only); Open MPI accumulate.c.in", AccumulateCases::userOpRejected)
            .add("acc.maxloc-rejected", Behaviour.ACC_OPS,
                "MAXLOC and MINLOC on a basic type (they reduce value-index pairs, MPI.INT2 and the like): MPI_ERR_OP",
                "MPI-4.1 §6.9.4 (MAXLOC and MINLOC are defined on pair types), §12.3.4.1; " +
                    "docs/design.md#derived-datatypes", AccumulateCases::maxlocRejected)
            .add("acc.ordering-same-origin", Behaviour.ACC_ORDERING,
                "two REPLACE accumulates from one origin to one location in one epoch: the second wins",
                "MPI-4.1 §12.7.2 (default accumulate_ordering); MPICH acc_ordering",
                AccumulateCases::orderingSameOrigin)
            .add("acc.ordering-mixed-sizes", Behaviour.ACC_ORDERING,
                "under an exclusive lock on its right neighbour, each rank issues 24 accumulates to the same 16 " +
                    "longs without flushing: REPLACE of all 16, SUM into one, BXOR into 12, in turn (some carried in " +
                    "the request, some in a message of their own): the longs end as applying them in order gives",
                "MPI-4.1 §12.7.2 (default accumulate_ordering rar,raw,war,waw: one origin's accumulates to a " +
                    "location are ordered); MPICH acc_ordering, large_small_acc", AccumulateCases::orderingMixedSizes)
            .add("acc.ordering-request-fetches", Behaviour.ACC_ORDERING,
                "in a lockAll epoch each rank issues 10 rGetAccumulate(SUM, 1) on its right neighbour's long, then " +
                    "accumulate(REPLACE, 100) on another and rGetAccumulate(NO_OP) of it, and waits for them all: " +
                    "the fetches are 0 to 9 in the order issued, and the read sees 100",
                "MPI-4.1 §12.7.2 (raw and war ordering of accumulates), §12.3.5; MPICH reqops, acc_ordering",
                AccumulateCases::orderingRequestFetches)
            .list();
    }

    private static void sumNoLostUpdates(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lockAll(0);
        for (int i = 0; i < ITERATIONS; i++)
        {
            win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG, MPI.SUM);
        }
        win.unlockAll();
        c.barrier();
        win.lockAll(0);
        win.sync();
        c.checkEquals((long)ITERATIONS * c.size(), Memory.passiveLong(c, win, 0, 0), "total");
        win.unlockAll();
    }

    private static void sumMisalignedNoLostUpdates(final CaseContext c) throws Exception
    {
        final Win win = c.window(c.isRoot() ? 3 : 8, 1);
        final int target = 1;
        win.lockAll(0);
        for (int i = 0; i < ITERATIONS; i++)
        {
            win.accumulate(new int[] {1}, 0, 1, MPI.INT, target, c.disp(win, target, 0), 1, MPI.INT,
                MPI.SUM);
        }
        win.unlockAll();
        c.barrier();
        win.lockAll(0);
        win.sync();
        c.checkEquals((long)ITERATIONS * c.size(), Memory.passiveInt(c, win, target, 0), "total");
        win.unlockAll();
    }

    private static void atomicWithRelaxedHints(final CaseContext c) throws Exception
    {
        final int n = 300;
        final mpi.rma.Info hints = conformance.CaseContext.info("accumulate_ordering", "none");
        hints.set("accumulate_ops", "same_op");
        final Win win = c.window(8, 8, hints);
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG, MPI.SUM);
        }
        win.unlockAll();
        c.barrier();
        win.lockAll(0);
        c.checkEquals((long)n * c.size(), Memory.passiveLong(c, win, 0, 0), "total");
        win.unlockAll();
    }

    private static void ops(final CaseContext c) throws Exception
    {
        final Win win = c.window(64, 4);
        final Op[] ops = {MPI.PROD, MPI.MAX, MPI.MIN, MPI.BAND, MPI.BOR, MPI.BXOR, MPI.LAND, Win.REPLACE};
        final int[] expected = {6 * 7, 7, 6, 6 & 12, 6 | 12, 6 ^ 12, 1, 9};
        final int[] operand = {7, 7, 7, 12, 12, 12, 5, 9};
        win.fence(0);
        for (int i = 0; i < ops.length; i++)
        {
            Memory.setInt(c.memory(win), i, 6);
        }
        win.fence(0);
        for (int i = 0; i < ops.length; i++)
        {
            win.accumulate(new int[] {operand[i]}, 0, 1, MPI.INT, c.rank(), c.disp(win, c.rank(), i), 1,
                MPI.INT, ops[i]);
        }
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < ops.length; i++)
        {
            c.checkEquals(expected[i], Memory.getInt(c.memory(win), i), "op #" + i);
        }
    }

    private static void noOpRejected(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_OP, "accumulate(NO_OP)",
            () -> win.accumulate(new long[] {1}, 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG, Win.NO_OP));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void opNotForType(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_OP, "accumulate(BAND) on DOUBLE",
            () -> win.accumulate(new double[] {1}, 0, 1, MPI.DOUBLE, c.rank(), 0, 1, MPI.DOUBLE, MPI.BAND));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void userOpRejected(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final Op mine = new Op(new User_function()
        {
            @Override
            public void Call(final Object in, final int inOffset, final Object inOut, final int inOutOffset,
                final int count, final Datatype datatype)
            {
                // Never called: the op must be refused first.
            }
        }, true);
        win.fence(0);
        c.expectError(ErrorClass.ERR_OP, "accumulate(user op)",
            () -> win.accumulate(new long[] {1}, 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG, mine));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void maxlocRejected(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_OP, "accumulate(MAXLOC)",
            () -> win.accumulate(new long[] {1}, 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG, MPI.MAXLOC));
        c.expectError(ErrorClass.ERR_OP, "fetchAndOp(MINLOC)",
            () -> win.fetchAndOp(new long[] {1}, 0, new long[1], 0, MPI.LONG, c.rank(), 0, MPI.MINLOC));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void orderingSameOrigin(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lock(Win.LOCK_EXCLUSIVE, c.rank(), 0);
        final long own = c.disp(win, c.rank(), 0);
        win.accumulate(new long[] {1}, 0, 1, MPI.LONG, c.rank(), own, 1, MPI.LONG, Win.REPLACE);
        win.accumulate(new long[] {2}, 0, 1, MPI.LONG, c.rank(), own, 1, MPI.LONG, Win.REPLACE);
        win.unlock(c.rank());
        c.checkEquals(2, Memory.getLong(c.memory(win), 0), "value");
    }

    private static void orderingMixedSizes(final CaseContext c) throws Exception
    {
        final int n = 16;
        final Win win = c.window(n * Long.BYTES, Long.BYTES);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        win.lock(Win.LOCK_EXCLUSIVE, right, 0);
        for (int step = 0; step < ORDERED_STEPS; step++)
        {
            final long[] values = orderedValues(c.rank(), step);
            final int first = orderedFirst(step);
            win.accumulate(values, 0, values.length, MPI.LONG, right, c.disp(win, right, first),
                values.length, MPI.LONG, orderedOp(step));
        }
        win.unlock(right);
        c.barrier();
        final long[] expected = new long[n];
        for (int step = 0; step < ORDERED_STEPS; step++)
        {
            final long[] values = orderedValues(left, step);
            for (int i = 0; i < values.length; i++)
            {
                final int at = orderedFirst(step) + i;
                expected[at] = step % 3 == 0 ? values[i] : step % 3 == 1 ? expected[at] + values[i] :
                    expected[at] ^ values[i];
            }
        }
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        for (int i = 0; i < n; i++)
        {
            c.checkEquals(expected[i], Memory.getLong(c.memory(win), i), "long " + i);
        }
        win.unlock(c.rank());
    }

    private static void orderingRequestFetches(final CaseContext c) throws Exception
    {
        final int n = 10;
        final Win win = c.window(2 * Long.BYTES, Long.BYTES);
        final int right = (c.rank() + 1) % c.size();
        final long[] fetched = new long[n];
        final long[] read = {-1};
        final WinRequest[] requests = new WinRequest[n + 1];
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            requests[i] = win.rGetAccumulate(new long[] {1}, 0, 1, MPI.LONG, fetched, i, 1, MPI.LONG, right,
                c.disp(win, right, 0), 1, MPI.LONG, MPI.SUM);
        }
        win.accumulate(new long[] {100}, 0, 1, MPI.LONG, right, c.disp(win, right, 1), 1, MPI.LONG,
            Win.REPLACE);
        requests[n] = win.rGetAccumulate(null, 0, 0, null, read, 0, 1, MPI.LONG, right,
            c.disp(win, right, 1), 1, MPI.LONG, Win.NO_OP);
        WinRequest.waitAll(requests);
        win.unlockAll();
        for (int i = 0; i < n; i++)
        {
            c.checkEquals(i, fetched[i], "fetch " + i);
        }
        c.checkEquals(100, read[0], "NO_OP after REPLACE");
    }
}
