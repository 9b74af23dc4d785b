package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.Group;
import mpi.Datatype;
import mpi.MPI;
import mpi.Op;
import mpi.User_function;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/**
 * The accumulate family and its atomicity
 * (docs/conformance-checklist.md#accumulate-family-and-atomicity).
 */
public final class AccumulateCases
{
    private static final int ITERATIONS = 500;

    private AccumulateCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(Group.ACCUMULATE)
            .add("acc.sum-no-lost-updates", Behaviour.ACC_ATOMIC,
                "every rank adds 1 to rank 0's long 500 times under lockAll: the total is 500 * size",
                "MPI-4.1 §12.7.1 (element-wise atomicity); open-mpi/ompi#3571", c ->
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
                })
            .add("acc.sum-misaligned-no-lost-updates", 2, Behaviour.ACC_ATOMIC,
                "as above on an int at an odd address (contiguous window, rank 0 has 3 bytes): no lost updates",
                "MPI-4.1 §12.7.1; docs/design.md#atomic-accumulates (misaligned elements take the accumulate lock)", c ->
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
                })
            .add("acc.ops", Behaviour.ACC_OPS,
                "accumulate with PROD, MAX, MIN, BAND, BOR, BXOR, LAND, REPLACE on ints gives the reduction's result",
                "MPI-4.1 §12.3.4.1, §6.9.2", c ->
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
                })
            .add("acc.no-op-rejected", Behaviour.ACC_OPS,
                "accumulate with NO_OP: MPI_ERR_OP (NO_OP is for getAccumulate and fetchAndOp only)",
                "MPI-4.1 §12.3.4.1, §12.3.4.2 (NO_OP belongs to the fetching calls); docs/design.md#erroneous-calls-are-reported", c ->
                {
                    final Win win = c.window(8, 8);
                    win.fence(0);
                    c.expectError(ErrorClass.ERR_OP, "accumulate(NO_OP)",
                        () -> win.accumulate(new long[] {1}, 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG, Win.NO_OP));
                    win.fence(Win.MODE_NOSUCCEED);
                })
            .add("acc.op-not-for-type", Behaviour.ACC_OPS,
                "BAND on doubles: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.1, §6.9.2 (bitwise ops on integers only)", c ->
                {
                    final Win win = c.window(8, 8);
                    win.fence(0);
                    c.expectError(ErrorClass.ERR_OP, "accumulate(BAND) on DOUBLE",
                        () -> win.accumulate(new double[] {1}, 0, 1, MPI.DOUBLE, c.rank(), 0, 1, MPI.DOUBLE, MPI.BAND));
                    win.fence(Win.MODE_NOSUCCEED);
                })
            .add("acc.user-op-rejected", Behaviour.ACC_OPS,
                "a user-defined op: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.1 (predefined ops only); Open MPI accumulate.c.in", c ->
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
                })
            .add("acc.maxloc-rejected", Behaviour.ACC_OPS,
                "MAXLOC and MINLOC (pair reductions, which basic types cannot carry): MPI_ERR_OP",
                "MPI-4.1 §12.3.4.1 (predefined ops on basic types); docs/design.md#derived-datatypes", c ->
                {
                    final Win win = c.window(8, 8);
                    win.fence(0);
                    c.expectError(ErrorClass.ERR_OP, "accumulate(MAXLOC)",
                        () -> win.accumulate(new long[] {1}, 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG, MPI.MAXLOC));
                    c.expectError(ErrorClass.ERR_OP, "fetchAndOp(MINLOC)",
                        () -> win.fetchAndOp(new long[] {1}, 0, new long[1], 0, MPI.LONG, c.rank(), 0, MPI.MINLOC));
                    win.fence(Win.MODE_NOSUCCEED);
                })
            .add("acc.ordering-same-origin", Behaviour.ACC_ORDERING,
                "two REPLACE accumulates from one origin to one location in one epoch: the second wins",
                "MPI-4.1 §12.7.2 (default accumulate_ordering); MPICH acc_ordering", c ->
                {
                    final Win win = c.window(8, 8);
                    win.lock(Win.LOCK_EXCLUSIVE, c.rank(), 0);
                    final long own = c.disp(win, c.rank(), 0);
                    win.accumulate(new long[] {1}, 0, 1, MPI.LONG, c.rank(), own, 1, MPI.LONG, Win.REPLACE);
                    win.accumulate(new long[] {2}, 0, 1, MPI.LONG, c.rank(), own, 1, MPI.LONG, Win.REPLACE);
                    win.unlock(c.rank());
                    c.checkEquals(2, Memory.getLong(c.memory(win), 0), "value");
                })
            .add("acc.get-accumulate-returns-old", Behaviour.ACC_GET_ACCUMULATE,
                "getAccumulate(SUM) returns the target's prior contents and adds to them (5 ints)",
                "MPI-4.1 §12.3.4.2; MPICH get_accumulate", c ->
                {
                    final Win win = c.window(20, 4);
                    win.fence(0);
                    for (int i = 0; i < 5; i++)
                    {
                        Memory.setInt(c.memory(win), i, 10 * i);
                    }
                    win.fence(0);
                    final int[] old = new int[5];
                    win.getAccumulate(new int[] {1, 1, 1, 1, 1}, 0, 5, MPI.INT, old, 0, 5, MPI.INT, c.rank(),
                        c.disp(win, c.rank(), 0), 5, MPI.INT, MPI.SUM);
                    win.fence(Win.MODE_NOSUCCEED);
                    for (int i = 0; i < 5; i++)
                    {
                        c.checkEquals(10 * i, old[i], "old element " + i);
                        c.checkEquals(10 * i + 1, Memory.getInt(c.memory(win), i), "new element " + i);
                    }
                })
            .add("acc.get-accumulate-no-op", Behaviour.ACC_GET_ACCUMULATE,
                "getAccumulate(NO_OP) with a null origin and count 0 reads the target atomically and leaves it",
                "MPI-4.1 §12.3.4.2 (origin ignored for NO_OP); MPICH get_accumulate", c ->
                {
                    final Win win = c.window(8, 8);
                    win.fence(0);
                    Memory.setLong(c.memory(win), 0, 31 + c.rank());
                    win.fence(0);
                    final int target = (c.rank() + 1) % c.size();
                    final long[] got = new long[1];
                    win.getAccumulate(null, 0, 0, null, got, 0, 1, MPI.LONG, target, c.disp(win, target, 0), 1,
                        MPI.LONG, Win.NO_OP);
                    win.fence(Win.MODE_NOSUCCEED);
                    c.checkEquals(31 + target, got[0], "value read");
                    c.checkEquals(31 + c.rank(), Memory.getLong(c.memory(win), 0), "own value afterwards");
                })
            .add("acc.get-accumulate-replace-is-swap", 2, Behaviour.ACC_GET_ACCUMULATE,
                "token ring: each rank in turn does getAccumulate(REPLACE, own rank) on rank 0's int under a shared " +
                    "lock and flushes; each fetches the previous rank's id",
                "MPI-4.1 §12.3.4.2, §12.5.4; MPICH flush", c ->
                {
                    final Win win = c.window(4, 4);
                    win.fence(0);
                    if (c.isRoot())
                    {
                        Memory.setInt(c.memory(win), 0, -1);
                    }
                    win.fence(Win.MODE_NOSUCCEED);
                    win.lock(Win.LOCK_SHARED, 0, 0);
                    if (c.rank() > 0)
                    {
                        c.receive(c.rank() - 1);
                    }
                    final int[] old = new int[1];
                    win.getAccumulate(new int[] {c.rank()}, 0, 1, MPI.INT, old, 0, 1, MPI.INT, 0, c.disp(win, 0, 0), 1,
                        MPI.INT, Win.REPLACE);
                    win.flush(0);
                    c.checkEquals(c.rank() - 1, old[0], "fetched id");
                    if (c.rank() < c.last())
                    {
                        c.send(c.rank(), c.rank() + 1);
                    }
                    win.unlock(0);
                })
            .add("acc.fetch-and-op-unique", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 100 fetchAndOp(SUM, 1) on rank 0's long: all fetched values differ and the final " +
                    "value is 100 * size",
                "MPI-4.1 §12.3.4.3; MPICH fetch_and_op (contention)", c ->
                {
                    final int n = 100;
                    final Win win = c.window(8, 8);
                    final long[] fetched = new long[n];
                    win.lockAll(0);
                    for (int i = 0; i < n; i++)
                    {
                        final long[] result = new long[1];
                        win.fetchAndOp(new long[] {1}, 0, result, 0, MPI.LONG, 0, c.disp(win, 0, 0), MPI.SUM);
                        fetched[i] = result[0];
                    }
                    win.unlockAll();
                    final long[] all = new long[n * c.size()];
                    c.comm().Allgather(fetched, 0, n, MPI.LONG, all, 0, n, MPI.LONG);
                    final java.util.BitSet seen = new java.util.BitSet();
                    for (final long value : all)
                    {
                        c.check(value >= 0 && value < all.length && !seen.get((int)value), "fetched " + value + " twice " +
                            "or out of range");
                        seen.set((int)Math.max(0, Math.min(value, all.length)));
                    }
                    win.lockAll(0);
                    c.checkEquals(all.length, Memory.passiveLong(c, win, 0, 0), "final value");
                    win.unlockAll();
                })
            .add("acc.fetch-and-op-short-contention", Behaviour.ACC_ATOMIC,
                "fetchAndOp(SUM) on a 2-byte short from every rank, 300 times each (no lock-free form): no lost updates",
                "MPI-4.1 §12.7.1; MPICH fetch_and_op (short variant)", c ->
                {
                    final Win win = c.window(2, 2);
                    win.lockAll(0);
                    final short[] result = new short[1];
                    for (int i = 0; i < 300; i++)
                    {
                        win.fetchAndOp(new short[] {1}, 0, result, 0, MPI.SHORT, 0, c.disp(win, 0, 0), MPI.SUM);
                    }
                    win.unlockAll();
                    c.barrier();
                    win.lockAll(0);
                    c.checkEquals(300L * c.size(), Memory.passiveShort(c, win, 0), "total");
                    win.unlockAll();
                })
            .add("acc.fetch-and-op-no-op", Behaviour.ACC_FETCH_AND_OP,
                "fetchAndOp(NO_OP) with a null origin returns the current value and leaves it",
                "MPI-4.1 §12.3.4.3; MPICH fetch_and_op (NO_OP reads)", c ->
                {
                    final Win win = c.window(8, 8);
                    win.fence(0);
                    Memory.setLong(c.memory(win), 0, 1234);
                    win.fence(0);
                    final long[] got = new long[1];
                    win.fetchAndOp(null, 0, got, 0, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), Win.NO_OP);
                    win.fence(Win.MODE_NOSUCCEED);
                    c.checkEquals(1234, got[0], "fetched");
                    c.checkEquals(1234, Memory.getLong(c.memory(win), 0), "value afterwards");
                })
            .add("acc.compare-and-swap", Behaviour.ACC_COMPARE_AND_SWAP,
                "compareAndSwap replaces the target only if it equals compare, and always returns the prior value",
                "MPI-4.1 §12.3.4.4; MPICH compare_and_swap (self part)", c ->
                {
                    final Win win = c.window(8, 8);
                    win.lock(Win.LOCK_EXCLUSIVE, c.rank(), 0);
                    final long[] result = new long[1];
                    final long own = c.disp(win, c.rank(), 0);
                    win.compareAndSwap(new long[] {5}, 0, new long[] {1}, 0, result, 0, MPI.LONG, c.rank(), own);
                    win.flush(c.rank());
                    c.checkEquals(0, result[0], "prior value of a failed swap");
                    c.checkEquals(0, Memory.getLong(c.memory(win), 0), "value after a failed swap");
                    win.compareAndSwap(new long[] {5}, 0, new long[] {0}, 0, result, 0, MPI.LONG, c.rank(), own);
                    win.flush(c.rank());
                    c.checkEquals(0, result[0], "prior value of a successful swap");
                    c.checkEquals(5, Memory.getLong(c.memory(win), 0), "value after a successful swap");
                    win.unlock(c.rank());
                })
            .add("acc.compare-and-swap-counter", Behaviour.ACC_COMPARE_AND_SWAP,
                "every rank increments rank 0's int 200 times with a compareAndSwap retry loop: the final value is " +
                    "200 * size",
                "MPI-4.1 §12.3.4.4; MPICH compare_and_swap (contention)", c ->
                {
                    final Win win = c.window(4, 4);
                    win.lockAll(0);
                    final int[] result = new int[1];
                    for (int i = 0; i < 200; i++)
                    {
                        int seen = 0;
                        while (true)
                        {
                            win.compareAndSwap(new int[] {seen + 1}, 0, new int[] {seen}, 0, result, 0, MPI.INT, 0,
                                c.disp(win, 0, 0));
                            win.flush(0);
                            if (result[0] == seen)
                            {
                                break;
                            }
                            seen = result[0];
                        }
                    }
                    win.unlockAll();
                    c.barrier();
                    win.lockAll(0);
                    c.checkEquals(200L * c.size(), Memory.passiveInt(c, win, 0, 0), "counter");
                    win.unlockAll();
                })
            .add("acc.compare-and-swap-double", Behaviour.ACC_COMPARE_AND_SWAP,
                "compareAndSwap on MPI.DOUBLE: MPI_ERR_TYPE",
                "MPI-4.1 §12.3.4.4 (integer, logical, byte only); MPICH errors/rma/cas_type_check", c ->
                {
                    final Win win = c.window(8, 8);
                    win.fence(0);
                    c.expectError(ErrorClass.ERR_TYPE, "compareAndSwap on DOUBLE",
                        () -> win.compareAndSwap(new double[] {1}, 0, new double[] {0}, 0, new double[1], 0, MPI.DOUBLE,
                            c.rank(), 0));
                    win.fence(Win.MODE_NOSUCCEED);
                })
            .add("acc.result-type-mismatch", Behaviour.ACC_GET_ACCUMULATE,
                "getAccumulate with a LONG result for an INT target: MPI_ERR_TYPE",
                "MPI-4.1 §12.3.4.2 (result and target signatures match)", c ->
                {
                    final Win win = c.window(8, 4);
                    win.fence(0);
                    c.expectError(ErrorClass.ERR_TYPE, "getAccumulate result LONG vs target INT",
                        () -> win.getAccumulate(new int[1], 0, 1, MPI.INT, new long[1], 0, 1, MPI.LONG, c.rank(), 0, 1,
                            MPI.INT, MPI.SUM));
                    win.fence(Win.MODE_NOSUCCEED);
                })
            .list();
    }
}
