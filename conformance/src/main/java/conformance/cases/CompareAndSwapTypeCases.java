package conformance.cases;

import java.util.ArrayList;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.Win;

/**
 * compareAndSwap on each integer and logical type (docs/conformance-checklist.md#accumulate-family-and-atomicity):
 * counters under contention, an election, a mutex, and compares that must see the whole element.
 */
public final class CompareAndSwapTypeCases
{
    private CompareAndSwapTypeCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.ACCUMULATE)
            .add("cas.byte-counter", Behaviour.ACC_COMPARE_AND_SWAP,
                "every rank increments rank 0's byte 12 times with a compareAndSwap retry loop, from 100: it ends at " +
                    "(byte)(100 + 12 * size), past 127 into the negatives, with no increment lost",
                "MPI-4.1 §12.3.4.4 (byte types), §12.7.1; MPICH compare_and_swap", CompareAndSwapTypeCases::byteCounter)
            .add("cas.char-counter-wraps", Behaviour.ACC_COMPARE_AND_SWAP,
                "as above on a char from 0xfff8: compare values above 0x7fff match (a char is unsigned) and the " +
                    "counter wraps past 0xffff",
                "MPI-4.1 §12.3.4.4, §12.7.1; MPICH compare_and_swap", CompareAndSwapTypeCases::charCounterWraps)
            .add("cas.short-election", Behaviour.ACC_COMPARE_AND_SWAP,
                "for each of rank 0's 10 shorts, every rank tries compareAndSwap(-1 to -(1000 * rank + k + 2)): " +
                    "exactly one rank per short fetches -1, every other fetches the winner's value, and the short " +
                    "holds it",
                "MPI-4.1 §12.3.4.4 (swap only if equal; the old value always returned); MPICH atomic_rmw_cas",
                CompareAndSwapTypeCases::shortElection)
            .add("cas.boolean-mutex", 2, Behaviour.ACC_COMPARE_AND_SWAP,
                "a mutex on rank 0's boolean: each rank 8 times takes it with compareAndSwap(false to true) until " +
                    "it fetches false, gets rank 0's counter, pauses, puts it plus one, and releases with " +
                    "compareAndSwap(true to false), fetching true: the counter ends at 8 * size",
                "MPI-4.1 §12.3.4.4 (logical types), §12.5.4 (flush orders the critical section); MPICH " +
                    "atomic_rmw_cas, mutex_bench", CompareAndSwapTypeCases::booleanMutex)
            .add("cas.int-exact-compare", Behaviour.ACC_COMPARE_AND_SWAP,
                "on the right neighbour's ints 0x80000001 and -1: compare 1 fails, compare 0x80000001 swaps in 5; " +
                    "compare -1 swaps in 0x7fffffff, compare 0x7ffffffe then fails: each fetches the old value, and " +
                    "the ints end 5 and 0x7fffffff",
                "MPI-4.1 §12.3.4.4 (the whole element is compared); MPICH compare_and_swap",
                CompareAndSwapTypeCases::intExactCompare)
            .add("cas.long-exact-compare", Behaviour.ACC_COMPARE_AND_SWAP,
                "on the right neighbour's longs 2^32 + 5 and Long.MIN_VALUE: compare 5 fails (equal low 32 bits), " +
                    "compare 2^32 + 5 swaps in Long.MIN_VALUE; compare 0 fails (equal but for bit 63), compare " +
                    "Long.MIN_VALUE swaps in -1",
                "MPI-4.1 §12.3.4.4; MPICH compare_and_swap (long variant)", CompareAndSwapTypeCases::longExactCompare)
            .list();
    }

    private static void byteCounter(final CaseContext c) throws Exception
    {
        casCounter(c, Kind.BYTE, 100, 12);
    }

    private static void charCounterWraps(final CaseContext c) throws Exception
    {
        casCounter(c, Kind.CHAR, 0xFFF8, 12);
    }

    private static void shortElection(final CaseContext c) throws Exception
    {
        final int slots = 10;
        final Win win = c.window(2 * slots, 2);
        win.fence(0);
        if (c.isRoot())
        {
            for (int k = 0; k < slots; k++)
            {
                Kind.SHORT.store(c.memory(win), k, -1);
            }
        }
        win.fence(Win.MODE_NOSUCCEED);
        final long[] fetched = new long[slots];
        final short[] result = new short[1];
        win.lockAll(0);
        for (int k = 0; k < slots; k++)
        {
            win.compareAndSwap(new short[] {candidate(c.rank(), k)}, 0, new short[] {-1}, 0, result, 0,
                MPI.SHORT, 0, c.disp(win, 0, k));
            win.flush(0);
            fetched[k] = result[0];
        }
        win.unlockAll();
        final long[] all = new long[slots * c.size()];
        c.comm().Allgather(fetched, 0, slots, MPI.LONG, all, 0, slots, MPI.LONG);
        c.barrier();
        final java.lang.foreign.MemorySegment memory = c.memoryOf(win, 0);
        for (int k = 0; k < slots; k++)
        {
            final List<Integer> winners = new ArrayList<>();
            for (int r = 0; r < c.size(); r++)
            {
                if (all[r * slots + k] == -1)
                {
                    winners.add(r);
                }
            }
            if (winners.size() != 1)
            {
                c.fail("short " + k + ": ranks " + winners + " fetched -1, expected exactly one");
                continue;
            }
            final long value = candidate(winners.get(0), k);
            for (int r = 0; r < c.size(); r++)
            {
                if (r != winners.get(0))
                {
                    c.checkEquals(value, all[r * slots + k], "short " + k + " as rank " + r + " fetched it");
                }
            }
            c.checkEquals(value, Kind.SHORT.load(memory, k), "short " + k);
        }
    }

    private static void booleanMutex(final CaseContext c) throws Exception
    {
        final int n = 8;
        final Win win = c.window(c.isRoot() ? 16 : 0, 1);
        final long flag = c.disp(win, 0, 0);
        final long counter = c.disp(win, 0, 8);
        final boolean[] old = new boolean[1];
        final long[] value = new long[1];
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            do
            {
                win.compareAndSwap(new boolean[] {true}, 0, new boolean[] {false}, 0, old, 0, MPI.BOOLEAN, 0,
                    flag);
                win.flush(0);
            }
            while (old[0]);
            win.get(value, 0, 1, MPI.LONG, 0, counter, 1, MPI.LONG);
            win.flush(0);
            CaseContext.sleepMs(1);
            win.put(new long[] {value[0] + 1}, 0, 1, MPI.LONG, 0, counter, 1, MPI.LONG);
            win.flush(0);
            win.compareAndSwap(new boolean[] {false}, 0, new boolean[] {true}, 0, old, 0, MPI.BOOLEAN, 0,
                flag);
            win.flush(0);
            c.check(old[0], "the mutex was not held when this rank released it");
        }
        win.unlockAll();
        c.barrier();
        win.lockAll(0);
        win.get(value, 0, 1, MPI.LONG, 0, counter, 1, MPI.LONG);
        win.flush(0);
        win.unlockAll();
        c.checkEquals((long)n * c.size(), value[0], "counter");
    }

    private static void intExactCompare(final CaseContext c) throws Exception
    {
        exactCompare(c, Kind.INT, new long[] {Integer.MIN_VALUE + 1, -1},
            new long[][] {{0, 1, 5}, {0, Integer.MIN_VALUE + 1, 5}, {1, -1, Integer.MAX_VALUE},
                {1, Integer.MAX_VALUE - 1, 3}}, new long[] {5, Integer.MAX_VALUE});
    }

    private static void longExactCompare(final CaseContext c) throws Exception
    {
        exactCompare(c, Kind.LONG, new long[] {(1L << 32) + 5, Long.MIN_VALUE},
            new long[][] {{0, 5, 9}, {0, (1L << 32) + 5, Long.MIN_VALUE}, {1, 0, 9}, {1, Long.MIN_VALUE, -1}},
            new long[] {Long.MIN_VALUE, -1});
    }

    private static short candidate(final int rank, final int slot)
    {
        return (short)-(1000 * rank + slot + 2);
    }

    /** Every rank adds 1 to rank 0's element {@code n} times by compareAndSwap, retrying with the value it fetched. */
    private static void casCounter(final CaseContext c, final Kind kind, final long start, final int n)
    {
        final Win win = c.window(kind.bytes, kind.bytes);
        RootElement.storeAtRoot(c, win, kind, start);
        final Object result = kind.array(1);
        long seen = start;
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            while (true)
            {
                win.compareAndSwap(kind.one(kind.normalise(seen + 1)), 0, kind.one(seen), 0, result, 0,
                    kind.datatype(), 0, c.disp(win, 0, 0));
                win.flush(0);
                final long old = kind.get(result, 0);
                if (old == seen)
                {
                    seen = kind.normalise(seen + 1);
                    break;
                }
                seen = old;
            }
        }
        win.unlockAll();
        c.barrier();
        c.checkEquals(kind.normalise(start + (long)n * c.size()), RootElement.finalValue(c, win, kind, 0), "counter");
    }

    /**
     * Each rank's two elements start at {@code start}; its left neighbour runs {@code steps} ({element,
     * compare, origin}) on them in order, each flushed, checking each fetched value; they must end at {@code end}.
     */
    private static void exactCompare(final CaseContext c, final Kind kind, final long[] start, final long[][] steps,
        final long[] end)
    {
        final Win win = c.window(2L * kind.bytes, kind.bytes);
        win.fence(0);
        kind.store(c.memory(win), 0, start[0]);
        kind.store(c.memory(win), 1, start[1]);
        win.fence(Win.MODE_NOSUCCEED);
        final int right = (c.rank() + 1) % c.size();
        final long[] current = start.clone();
        final Object result = kind.array(1);
        win.lock(Win.LOCK_EXCLUSIVE, right, 0);
        for (final long[] step : steps)
        {
            final int element = (int)step[0];
            win.compareAndSwap(kind.one(step[2]), 0, kind.one(step[1]), 0, result, 0, kind.datatype(), right,
                c.disp(win, right, element));
            win.flush(right);
            c.checkEquals(current[element], kind.get(result, 0), "compare " + kind.show(step[1]) + ": fetched");
            if (current[element] == step[1])
            {
                current[element] = step[2];
            }
        }
        win.unlock(right);
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.checkEquals(end[0], kind.load(c.memory(win), 0), "element 0");
        c.checkEquals(end[1], kind.load(c.memory(win), 1), "element 1");
        win.unlock(c.rank());
    }
}
