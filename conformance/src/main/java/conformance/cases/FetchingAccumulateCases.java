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

/**
 * The accumulate family's fetching calls, getAccumulate, fetchAndOp and compareAndSwap, and accumulate's
 * flushLocal (docs/conformance-checklist.md#accumulate-family-and-atomicity); AccumulateCases has the rest.
 */
public final class FetchingAccumulateCases
{
    private FetchingAccumulateCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.ACCUMULATE)
            .add("acc.get-accumulate-large-count", Behaviour.ACC_GET_ACCUMULATE,
                "every rank calls getAccumulate(SUM, 1) on all 100 longs of rank 0 at once, flushed: for each long " +
                    "the old values the ranks fetched are 0 to size - 1, each once, and each long ends at size",
                "MPI-4.1 §12.3.4.2, §12.7.1 (atomic per element, not per call); MPICH get_accumulate",
                FetchingAccumulateCases::getAccumulateLargeCount)
            .add("acc.get-accumulate-one-array", Behaviour.ACC_GET_ACCUMULATE,
                "getAccumulate(SUM) with origin and result in one long[] (origin elements 2-5, result 7-10): the " +
                    "result slots get the right neighbour's old values, the origin and the other slots stay as they were",
                "MPI-4.1 §12.3.4.2 (origin and result buffers disjoint, offsets of the same array here)",
                FetchingAccumulateCases::getAccumulateOneArray)
            .add("acc.get-accumulate-replace-swap", Behaviour.ACC_GET_ACCUMULATE,
                "each rank swaps 16 longs with its right neighbour's by getAccumulate(REPLACE) under an exclusive " +
                    "lock: it fetches the neighbour's values, and its own memory then holds its left neighbour's",
                "MPI-4.1 §12.3.4.2 (REPLACE: an atomic swap of each element); MPICH get_accumulate",
                FetchingAccumulateCases::getAccumulateReplaceSwap)
            .add("acc.large-flush-local", 2, Behaviour.ACC_ATOMIC,
                "under a shared lock on rank 0 every rank accumulates 20000 doubles of rank + 1, calls flushLocal, " +
                    "overwrites its buffer with 1000 and accumulates it again: each double of rank 0 ends at " +
                    "size(size+1)/2 + 1000 * size (the first accumulate had taken the buffer before flushLocal returned)",
                "MPI-4.1 §12.5.4 (flush_local: the origin buffer may be reused), §12.7.1; MPICH " +
                    "large_acc_flush_local", FetchingAccumulateCases::largeFlushLocal)
            .add("acc.get-accumulate-returns-old", Behaviour.ACC_GET_ACCUMULATE,
                "getAccumulate(SUM) returns the target's prior contents and adds to them (5 ints)",
                "MPI-4.1 §12.3.4.2; MPICH get_accumulate", FetchingAccumulateCases::getAccumulateReturnsOld)
            .add("acc.get-accumulate-no-op", Behaviour.ACC_GET_ACCUMULATE,
                "getAccumulate(NO_OP) with a null origin and count 0 reads the target atomically and leaves it",
                "MPI-4.1 §12.3.4.2 (origin ignored for NO_OP); MPICH get_accumulate",
                FetchingAccumulateCases::getAccumulateNoOp)
            .add("acc.get-accumulate-replace-is-swap", 2, Behaviour.ACC_GET_ACCUMULATE,
                "token ring: each rank in turn does getAccumulate(REPLACE, own rank) on rank 0's int under a shared " +
                    "lock and flushes; each fetches the previous rank's id",
                "MPI-4.1 §12.3.4.2, §12.5.4; MPICH flush", FetchingAccumulateCases::getAccumulateReplaceIsSwap)
            .add("acc.fetch-and-op-unique", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 100 fetchAndOp(SUM, 1) on rank 0's long: all fetched values differ and the final " +
                    "value is 100 * size",
                "MPI-4.1 §12.3.4.3; MPICH fetch_and_op (contention)", FetchingAccumulateCases::fetchAndOpUnique)
            .add("acc.fetch-and-op-short-contention", Behaviour.ACC_ATOMIC,
                "fetchAndOp(SUM) on a 2-byte short from every rank, 300 times each (no lock-free form): no lost updates",
                "MPI-4.1 §12.7.1; MPICH fetch_and_op (short variant)",
                FetchingAccumulateCases::fetchAndOpShortContention)
            .add("acc.fetch-and-op-no-op", Behaviour.ACC_FETCH_AND_OP,
                "fetchAndOp(NO_OP) with a null origin returns the current value and leaves it",
                "MPI-4.1 §12.3.4.3; MPICH fetch_and_op (NO_OP reads)", FetchingAccumulateCases::fetchAndOpNoOp)
            .add("acc.compare-and-swap", Behaviour.ACC_COMPARE_AND_SWAP,
                "compareAndSwap replaces the target only if it equals compare, and always returns the prior value",
                "MPI-4.1 §12.3.4.4; MPICH compare_and_swap (self part)", FetchingAccumulateCases::compareAndSwap)
            .add("acc.compare-and-swap-counter", Behaviour.ACC_COMPARE_AND_SWAP,
                "every rank increments rank 0's int 200 times with a compareAndSwap retry loop: the final value is " +
                    "200 * size",
                "MPI-4.1 §12.3.4.4; MPICH compare_and_swap (contention)",
                FetchingAccumulateCases::compareAndSwapCounter)
            .add("acc.compare-and-swap-double", Behaviour.ACC_COMPARE_AND_SWAP,
                "compareAndSwap on MPI.DOUBLE: MPI_ERR_TYPE",
                "MPI-4.1 §12.3.4.4 (integer, logical, byte only); MPICH errors/rma/cas_type_check",
                FetchingAccumulateCases::compareAndSwapDouble)
            .add("acc.result-type-mismatch", Behaviour.ACC_GET_ACCUMULATE,
                "getAccumulate with a LONG result for an INT target: MPI_ERR_TYPE",
                "MPI-4.1 §12.3.4.2 (result and target signatures match)", FetchingAccumulateCases::resultTypeMismatch)
            .list();
    }

    private static void getAccumulateLargeCount(final CaseContext c) throws Exception
    {
        final int n = 100;
        final Win win = c.window(n * Long.BYTES, Long.BYTES);
        final long[] ones = new long[n];
        Arrays.fill(ones, 1);
        final long[] old = new long[n];
        win.lockAll(0);
        win.getAccumulate(ones, 0, n, MPI.LONG, old, 0, n, MPI.LONG, 0, c.disp(win, 0, 0), n, MPI.LONG,
            MPI.SUM);
        win.flush(0);
        win.unlockAll();
        final long[] all = new long[n * c.size()];
        c.comm().Allgather(old, 0, n, MPI.LONG, all, 0, n, MPI.LONG);
        for (int i = 0; i < n; i++)
        {
            final long[] column = new long[c.size()];
            for (int r = 0; r < c.size(); r++)
            {
                column[r] = all[r * n + i];
            }
            Arrays.sort(column);
            for (int r = 0; r < c.size(); r++)
            {
                if (column[r] != r)
                {
                    c.fail("long " + i + ": the ranks fetched " + Arrays.toString(column));
                    break;
                }
            }
        }
        c.barrier();
        final var memory = c.memoryOf(win, 0);
        for (int i = 0; i < n; i++)
        {
            c.checkEquals(c.size(), Memory.getLong(memory, i), "long " + i + " of rank 0");
        }
    }

    private static void getAccumulateOneArray(final CaseContext c) throws Exception
    {
        final Win win = c.window(4 * Long.BYTES, Long.BYTES);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        win.fence(0);
        for (int k = 0; k < 4; k++)
        {
            Memory.setLong(c.memory(win), k, 1000L * c.rank() + k);
        }
        win.fence(0);
        final long[] buffer = new long[12];
        for (int k = 0; k < 4; k++)
        {
            buffer[2 + k] = 10L * c.rank() + k + 1;
        }
        win.getAccumulate(buffer, 2, 4, MPI.LONG, buffer, 7, 4, MPI.LONG, right, c.disp(win, right, 0), 4,
            MPI.LONG, MPI.SUM);
        win.fence(Win.MODE_NOSUCCEED);
        for (int k = 0; k < 4; k++)
        {
            c.checkEquals(1000L * right + k, buffer[7 + k], "result slot " + (7 + k));
            c.checkEquals(10L * c.rank() + k + 1, buffer[2 + k], "origin slot " + (2 + k));
            c.checkEquals(1000L * c.rank() + k + 10L * left + k + 1, Memory.getLong(c.memory(win), k),
                "own long " + k);
        }
        for (final int untouched : new int[] {0, 1, 6, 11})
        {
            c.checkEquals(0, buffer[untouched], "slot " + untouched);
        }
    }

    private static void getAccumulateReplaceSwap(final CaseContext c) throws Exception
    {
        final int n = 16;
        final Win win = c.window(n * Long.BYTES, Long.BYTES);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        win.fence(0);
        for (int i = 0; i < n; i++)
        {
            Memory.setLong(c.memory(win), i, -(1000L * c.rank() + i));
        }
        win.fence(Win.MODE_NOSUCCEED);
        final long[] mine = new long[n];
        for (int i = 0; i < n; i++)
        {
            mine[i] = 1000L * c.rank() + i;
        }
        final long[] old = new long[n];
        win.lock(Win.LOCK_EXCLUSIVE, right, 0);
        win.getAccumulate(mine, 0, n, MPI.LONG, old, 0, n, MPI.LONG, right, c.disp(win, right, 0), n,
            MPI.LONG, Win.REPLACE);
        win.unlock(right);
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        for (int i = 0; i < n; i++)
        {
            c.checkEquals(-(1000L * right + i), old[i], "fetched element " + i);
            c.checkEquals(1000L * left + i, Memory.getLong(c.memory(win), i), "own element " + i);
        }
        win.unlock(c.rank());
    }

    private static void largeFlushLocal(final CaseContext c) throws Exception
    {
        final int n = 20_000;
        final Win win = c.window(c.isRoot() ? (long)n * Double.BYTES : 0, Double.BYTES);
        final double[] buffer = new double[n];
        Arrays.fill(buffer, c.rank() + 1);
        win.lock(Win.LOCK_SHARED, 0, 0);
        win.accumulate(buffer, 0, n, MPI.DOUBLE, 0, c.disp(win, 0, 0), n, MPI.DOUBLE, MPI.SUM);
        win.flushLocal(0);
        Arrays.fill(buffer, 1000);
        win.accumulate(buffer, 0, n, MPI.DOUBLE, 0, c.disp(win, 0, 0), n, MPI.DOUBLE, MPI.SUM);
        win.unlock(0);
        c.barrier();
        final var memory = c.memoryOf(win, 0);
        final double expected = c.size() * (c.size() + 1) / 2.0 + 1000.0 * c.size();
        for (int i = 0; i < n; i++)
        {
            if (Memory.getDouble(memory, i) != expected)
            {
                c.fail("double " + i + " of rank 0 is " + Memory.getDouble(memory, i) + ", expected " +
                    expected);
                break;
            }
        }
    }

    private static void getAccumulateReturnsOld(final CaseContext c) throws Exception
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
    }

    private static void getAccumulateNoOp(final CaseContext c) throws Exception
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
    }

    private static void getAccumulateReplaceIsSwap(final CaseContext c) throws Exception
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
    }

    private static void fetchAndOpUnique(final CaseContext c) throws Exception
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
    }

    private static void fetchAndOpShortContention(final CaseContext c) throws Exception
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
    }

    private static void fetchAndOpNoOp(final CaseContext c) throws Exception
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
    }

    private static void compareAndSwap(final CaseContext c) throws Exception
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
    }

    private static void compareAndSwapCounter(final CaseContext c) throws Exception
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
    }

    private static void compareAndSwapDouble(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_TYPE, "compareAndSwap on DOUBLE",
            () -> win.compareAndSwap(new double[] {1}, 0, new double[] {0}, 0, new double[1], 0, MPI.DOUBLE,
                c.rank(), 0));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void resultTypeMismatch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 4);
        win.fence(0);
        c.expectError(ErrorClass.ERR_TYPE, "getAccumulate result LONG vs target INT",
            () -> win.getAccumulate(new int[1], 0, 1, MPI.INT, new long[1], 0, 1, MPI.LONG, c.rank(), 0, 1,
                MPI.INT, MPI.SUM));
        win.fence(Win.MODE_NOSUCCEED);
    }
}
