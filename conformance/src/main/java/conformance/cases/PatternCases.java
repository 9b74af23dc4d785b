package conformance.cases;

import java.util.Arrays;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.Win;
import mpi.rma.WinRequest;

/**
 * Whole-program patterns (docs/conformance-checklist.md#whole-program-patterns): every synchronisation
 * mode in turn on one window, two windows over the same memory, linked lists built by several processes,
 * shared counters and a work queue. Each uses several calls together the way programs do, where a call
 * that is right alone can still be wrong with the others (an epoch left half open, a cached copy, an
 * update lost between a read and a write).
 */
public final class PatternCases
{
    /** Elements each rank appends to a list. */
    private static final int ELEMENTS = 8;
    /** A list pointer to nothing. */
    private static final long NIL = 0;

    private PatternCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.PATTERNS)
            .add("pattern.mixed-sync", 2, Behaviour.PATTERN_MIXED_SYNC,
                "on one window: an exclusive lock epoch puts to the right neighbour; a fence epoch puts and gets; a " +
                    "post/start epoch accumulates; a lockAll epoch does fetchAndOp on every rank; a fence reads " +
                    "the result and a shared lock's rGet reads it remotely: each epoch sees what the earlier ones did",
                "MPI-4.1 §12.5 (the synchronisation calls in sequence), §12.7; MPICH mixedsync",
                PatternCases::mixedSync)
            .add("pattern.overlap-put-get", Behaviour.PATTERN_OVERLAPPING,
                "a second window made with Win.create over the first one's memory: a put through the first, then " +
                    "(after its fence) a get through the second sees it; a put through the second is seen by a get " +
                    "through the first",
                "MPI-4.1 §12.2.1 (windows may overlap), §12.7 (accesses through them synchronised); MPICH " +
                    "overlap_wins_put, overlap_wins_rma", PatternCases::overlapPutGet)
            .add("pattern.overlap-accumulate", Behaviour.PATTERN_OVERLAPPING,
                "every rank adds rank + 1 to rank 0's long through the first window (lockAll), then, after a " +
                    "barrier, 100 * (rank + 1) through a second window over the same memory: a fetchAndOp(NO_OP) " +
                    "through the first reads 101 * size(size+1)/2",
                "MPI-4.1 §12.2.1, §12.7; MPICH overlap_wins_acc", PatternCases::overlapAccumulate)
            .add("pattern.overlap-fetch-and-cas", Behaviour.PATTERN_OVERLAPPING,
                "every rank takes a ticket from rank 0's long with fetchAndOp(SUM, 1) through the first window, then " +
                    "through a second over the same memory tries compareAndSwap(size to -1): the tickets are 0 to " +
                    "size - 1, exactly one swap fetches size, and the others fetch -1",
                "MPI-4.1 §12.2.1, §12.3.4.3, §12.3.4.4; MPICH overlap_wins_fop, overlap_wins_cas",
                PatternCases::overlapFetchAndCas)
            .add("pattern.overlap-get-accumulate", Behaviour.PATTERN_OVERLAPPING,
                "each rank replaces its right neighbour's 16 longs through a second window over the first's memory " +
                    "(exclusive lock), then getAccumulate(SUM, 1) through the first fetches them and " +
                    "getAccumulate(NO_OP) through the second reads them plus one",
                "MPI-4.1 §12.2.1, §12.3.4.2; MPICH overlap_wins_gacc", PatternCases::overlapGetAccumulate)
            .add("pattern.list-cas", Behaviour.PATTERN_LINKED_LIST,
                "each rank appends " + ELEMENTS + " elements of its own memory to one list headed at rank 0, in a " +
                    "lockAll epoch: compareAndSwap(nil to the new element) on the next pointer of the last element " +
                    "it knows, following the pointer it fetches when another rank got there first; rank 0 then " +
                    "walks the list: every element once",
                "MPI-4.1 §12.3.4.4, §12.5.3; MPICH linked_list_lockall (its list pattern on every flavour)",
                PatternCases::listCas)
            .add("pattern.list-exclusive", Behaviour.PATTERN_LINKED_LIST,
                "as above, each step under an exclusive lock on the rank holding the element: get its next pointer " +
                    "and flush; if nil, put the new element there; else move on: every element once",
                "MPI-4.1 §12.5.3 (exclusive locks), §12.5.4; MPICH linked_list, linked_list_bench_lock_excl",
                PatternCases::listExclusive)
            .add("pattern.list-fetch-and-op", Behaviour.PATTERN_LINKED_LIST,
                "as above with a tail pointer at rank 0: each rank swaps its new element in with " +
                    "fetchAndOp(REPLACE), then puts the element's pointer into the next pointer of the tail it " +
                    "fetched: every element once",
                "MPI-4.1 §12.3.4.3 (REPLACE); MPICH linked_list_fop", PatternCases::listFetchAndOp)
            .add("pattern.counter-fetchandadd", 2, Behaviour.PATTERN_COUNTERS,
                "a counter spread over rank 0's memory, one long per rank: to take a value a rank locks rank 0 " +
                    "exclusively, adds 1 to its own long and gets the others' (no location both read and updated): " +
                    "its value is their sum plus its own earlier count; 10 values per rank are 0 to 10 * size - 1, " +
                    "each once",
                "MPI-4.1 §12.5.3 (exclusive lock), §12.7 (conflicts avoided); MPICH fetchandadd",
                PatternCases::counterFetchandadd)
            .add("pattern.work-queue", Behaviour.PATTERN_COUNTERS,
                "a queue of 60 work items at rank 0: every rank takes the next index with fetchAndOp(SUM, 1) until " +
                    "it passes the end, and marks each item it takes with accumulate(SUM, 1): every item is marked " +
                    "once, the ranks' counts add up to 60, and the index ends at 60 + size",
                "MPI-4.1 §12.3.4.3, §12.7.1; MPICH adlb_mimic1", PatternCases::workQueue)
            .list();
    }

    private static void mixedSync(final CaseContext c) throws Exception
    {
        final Win win = c.window(4 * Long.BYTES, Long.BYTES);
        final int right = right(c);
        final int left = left(c);
        win.lock(Win.LOCK_EXCLUSIVE, right, 0);
        win.put(new long[] {c.rank() + 1}, 0, 1, MPI.LONG, right, c.disp(win, right, 0), 1, MPI.LONG);
        win.unlock(right);
        c.barrier();
        win.fence(0);
        final long[] got = new long[1];
        win.put(new long[] {c.rank() + 11}, 0, 1, MPI.LONG, right, c.disp(win, right, 1), 1, MPI.LONG);
        win.get(got, 0, 1, MPI.LONG, right, c.disp(win, right, 0), 1, MPI.LONG);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals(c.rank() + 1, got[0], "fence epoch: the lock epoch's put, got back");
        c.checkEquals(left + 1, Memory.getLong(c.memory(win), 0), "own element 0 after the lock epoch");
        c.checkEquals(left + 11, Memory.getLong(c.memory(win), 1), "own element 1 after the fence epoch");
        win.post(win.getGroup().Incl(new int[] {left}), 0);
        win.start(win.getGroup().Incl(new int[] {right}), 0);
        win.accumulate(new long[] {100}, 0, 1, MPI.LONG, right, c.disp(win, right, 2), 1, MPI.LONG,
            MPI.SUM);
        win.complete();
        win.waitFor();
        c.checkEquals(100, Memory.getLong(c.memory(win), 2), "own element 2 after the post/start epoch");
        win.lockAll(0);
        final long[] old = new long[c.size()];
        for (int target = 0; target < c.size(); target++)
        {
            win.fetchAndOp(new long[] {1}, 0, old, target, MPI.LONG, target, c.disp(win, target, 3),
                MPI.SUM);
        }
        win.flushAll();
        win.unlockAll();
        c.barrier();
        win.fence(Win.MODE_NOPRECEDE);
        final long counted = Memory.getLong(c.memory(win), 3);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals(c.size(), counted, "own element 3 after the lockAll epoch");
        win.lock(Win.LOCK_SHARED, right, 0);
        final long[] remote = new long[1];
        final WinRequest request = win.rGet(remote, 0, 1, MPI.LONG, right, c.disp(win, right, 3), 1,
            MPI.LONG);
        request.waitFor();
        win.unlock(right);
        c.checkEquals(c.size(), remote[0], "right neighbour's element 3, by rGet");
    }

    private static void overlapPutGet(final CaseContext c) throws Exception
    {
        final Win first = c.window(4 * Long.BYTES, Long.BYTES);
        final Win second = c.keep(Win.create(c.memory(first), Long.BYTES, null, c.comm()));
        final int right = right(c);
        final long[] got = new long[2];
        first.fence(0);
        first.put(new long[] {10L * (c.rank() + 1)}, 0, 1, MPI.LONG, right, c.disp(first, right, 0), 1,
            MPI.LONG);
        first.fence(Win.MODE_NOSUCCEED);
        second.fence(0);
        second.get(got, 0, 1, MPI.LONG, right, 0, 1, MPI.LONG);
        second.put(new long[] {20L * (c.rank() + 1)}, 0, 1, MPI.LONG, right, 1, 1, MPI.LONG);
        second.fence(Win.MODE_NOSUCCEED);
        first.fence(0);
        first.get(got, 1, 1, MPI.LONG, right, c.disp(first, right, 1), 1, MPI.LONG);
        first.fence(Win.MODE_NOSUCCEED);
        c.checkEquals(10L * (c.rank() + 1), got[0], "the first window's put, got through the second");
        c.checkEquals(20L * (c.rank() + 1), got[1], "the second window's put, got through the first");
        c.checkEquals(20L * (left(c) + 1), Memory.getLong(c.memory(first), 1), "own element 1");
        second.free();
    }

    private static void overlapAccumulate(final CaseContext c) throws Exception
    {
        final Win first = c.window(Long.BYTES, Long.BYTES);
        final Win second = c.keep(Win.create(c.memory(first), Long.BYTES, null, c.comm()));
        first.lockAll(0);
        first.accumulate(new long[] {c.rank() + 1}, 0, 1, MPI.LONG, 0, c.disp(first, 0, 0), 1, MPI.LONG,
            MPI.SUM);
        first.unlockAll();
        c.barrier();
        second.lockAll(0);
        second.accumulate(new long[] {100L * (c.rank() + 1)}, 0, 1, MPI.LONG, 0, 0, 1, MPI.LONG, MPI.SUM);
        second.unlockAll();
        c.barrier();
        final long[] value = new long[1];
        first.lockAll(0);
        first.fetchAndOp(null, 0, value, 0, MPI.LONG, 0, c.disp(first, 0, 0), Win.NO_OP);
        first.flush(0);
        first.unlockAll();
        c.checkEquals(101L * c.size() * (c.size() + 1) / 2, value[0], "rank 0's long");
        c.barrier();
        second.free();
    }

    private static void overlapFetchAndCas(final CaseContext c) throws Exception
    {
        final Win first = c.window(Long.BYTES, Long.BYTES);
        final Win second = c.keep(Win.create(c.memory(first), Long.BYTES, null, c.comm()));
        final long[] ticket = new long[1];
        first.lockAll(0);
        first.fetchAndOp(new long[] {1}, 0, ticket, 0, MPI.LONG, 0, c.disp(first, 0, 0), MPI.SUM);
        first.flush(0);
        first.unlockAll();
        c.barrier();
        final long[] swapped = new long[1];
        second.lockAll(0);
        second.compareAndSwap(new long[] {-1}, 0, new long[] {c.size()}, 0, swapped, 0, MPI.LONG, 0, 0);
        second.flush(0);
        second.unlockAll();
        final long[] tickets = c.gather(ticket[0]);
        Arrays.sort(tickets);
        for (int i = 0; i < tickets.length; i++)
        {
            c.checkEquals(i, tickets[i], "ticket " + i + " of the sorted tickets");
        }
        c.checkEquals(1, c.sum(swapped[0] == c.size() ? 1 : 0), "ranks whose swap fetched size");
        c.checkEquals((long)c.size() - 1, c.sum(swapped[0] == -1 ? 1 : 0), "ranks that fetched -1");
        c.barrier();
        second.free();
    }

    private static void overlapGetAccumulate(final CaseContext c) throws Exception
    {
        final int n = 16;
        final Win first = c.window(n * Long.BYTES, Long.BYTES);
        final Win second = c.keep(Win.create(c.memory(first), Long.BYTES, null, c.comm()));
        final int right = right(c);
        final long[] mine = new long[n];
        for (int i = 0; i < n; i++)
        {
            mine[i] = 1000L * c.rank() + i;
        }
        second.lock(Win.LOCK_EXCLUSIVE, right, 0);
        second.accumulate(mine, 0, n, MPI.LONG, right, 0, n, MPI.LONG, Win.REPLACE);
        second.unlock(right);
        c.barrier();
        final long[] ones = new long[n];
        Arrays.fill(ones, 1);
        final long[] old = new long[n];
        first.lock(Win.LOCK_EXCLUSIVE, right, 0);
        first.getAccumulate(ones, 0, n, MPI.LONG, old, 0, n, MPI.LONG, right, c.disp(first, right, 0), n,
            MPI.LONG, MPI.SUM);
        first.unlock(right);
        c.barrier();
        final long[] now = new long[n];
        second.lock(Win.LOCK_SHARED, right, 0);
        second.getAccumulate(null, 0, 0, null, now, 0, n, MPI.LONG, right, 0, n, MPI.LONG, Win.NO_OP);
        second.unlock(right);
        for (int i = 0; i < n; i++)
        {
            c.checkEquals(mine[i], old[i], "fetched through the first window, element " + i);
            c.checkEquals(mine[i] + 1, now[i], "read through the second window, element " + i);
        }
        c.barrier();
        second.free();
    }

    private static void listCas(final CaseContext c) throws Exception
    {
        final Win win = listWindow(c, 0);
        win.lockAll(0);
        final long[] old = new long[1];
        long tail = pointer(0, 0);
        for (int i = 1; i <= ELEMENTS; i++)
        {
            final long mine = pointer(c.rank(), i);
            while (true)
            {
                win.compareAndSwap(new long[] {mine}, 0, new long[] {NIL}, 0, old, 0, MPI.LONG,
                    owner(tail), c.disp(win, owner(tail), 2L * index(tail) + 1));
                win.flush(owner(tail));
                if (old[0] == NIL)
                {
                    tail = mine;
                    break;
                }
                tail = old[0];
            }
        }
        win.unlockAll();
        c.barrier();
        checkList(c, win);
    }

    private static void listExclusive(final CaseContext c) throws Exception
    {
        final Win win = listWindow(c, 0);
        final long[] next = new long[1];
        long tail = pointer(0, 0);
        for (int i = 1; i <= ELEMENTS; i++)
        {
            final long mine = pointer(c.rank(), i);
            while (true)
            {
                final int owner = owner(tail);
                final long at = c.disp(win, owner, 2L * index(tail) + 1);
                win.lock(Win.LOCK_EXCLUSIVE, owner, 0);
                win.get(next, 0, 1, MPI.LONG, owner, at, 1, MPI.LONG);
                win.flush(owner);
                if (next[0] == NIL)
                {
                    win.put(new long[] {mine}, 0, 1, MPI.LONG, owner, at, 1, MPI.LONG);
                }
                win.unlock(owner);
                if (next[0] == NIL)
                {
                    tail = mine;
                    break;
                }
                tail = next[0];
            }
        }
        c.barrier();
        checkList(c, win);
    }

    private static void listFetchAndOp(final CaseContext c) throws Exception
    {
        final Win win = listWindow(c, 1);
        final long tailAt = c.disp(win, 0, 2L * (ELEMENTS + 1));
        win.lockAll(0);
        final long[] old = new long[1];
        for (int i = 1; i <= ELEMENTS; i++)
        {
            final long mine = pointer(c.rank(), i);
            win.fetchAndOp(new long[] {mine}, 0, old, 0, MPI.LONG, 0, tailAt, Win.REPLACE);
            win.flush(0);
            final long tail = old[0];
            win.put(new long[] {mine}, 0, 1, MPI.LONG, owner(tail),
                c.disp(win, owner(tail), 2L * index(tail) + 1), 1, MPI.LONG);
            win.flush(owner(tail));
        }
        win.unlockAll();
        c.barrier();
        checkList(c, win);
    }

    private static void counterFetchandadd(final CaseContext c) throws Exception
    {
        final int n = 10;
        final Win win = c.window(c.isRoot() ? (long)Long.BYTES * c.size() : 0, Long.BYTES);
        final long[] values = new long[n];
        final long[] others = new long[c.size()];
        for (int i = 0; i < n; i++)
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 0, c.disp(win, 0, c.rank()), 1, MPI.LONG,
                MPI.SUM);
            if (c.rank() > 0)
            {
                win.get(others, 0, c.rank(), MPI.LONG, 0, c.disp(win, 0, 0), c.rank(), MPI.LONG);
            }
            if (c.rank() < c.last())
            {
                win.get(others, c.rank() + 1, c.last() - c.rank(), MPI.LONG, 0,
                    c.disp(win, 0, c.rank() + 1), c.last() - c.rank(), MPI.LONG);
            }
            win.unlock(0);
            long sum = i;
            for (int r = 0; r < c.size(); r++)
            {
                sum += r == c.rank() ? 0 : others[r];
            }
            values[i] = sum;
        }
        final long[] all = new long[n * c.size()];
        c.comm().Allgather(values, 0, n, MPI.LONG, all, 0, n, MPI.LONG);
        Arrays.sort(all);
        for (int k = 0; k < all.length; k++)
        {
            if (all[k] != k)
            {
                c.fail("the " + k + "th smallest value taken is " + all[k] + ": a value taken twice, or " +
                    "one skipped");
                break;
            }
        }
    }

    private static void workQueue(final CaseContext c) throws Exception
    {
        final int items = 60;
        final Win win = c.window(c.isRoot() ? Long.BYTES * (items + 1L) : 0, Long.BYTES);
        final long[] index = new long[1];
        long taken = 0;
        win.lockAll(0);
        while (true)
        {
            win.fetchAndOp(new long[] {1}, 0, index, 0, MPI.LONG, 0, c.disp(win, 0, 0), MPI.SUM);
            win.flush(0);
            if (index[0] >= items)
            {
                break;
            }
            win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 0, c.disp(win, 0, 1 + index[0]), 1, MPI.LONG,
                MPI.SUM);
            taken++;
        }
        win.unlockAll();
        c.checkEquals(items, c.sum(taken), "items taken by all ranks");
        c.barrier();
        final var memory = c.memoryOf(win, 0);
        c.checkEquals(items + c.size(), Memory.getLong(memory, 0), "final index");
        for (int i = 0; i < items; i++)
        {
            c.checkEquals(1, Memory.getLong(memory, 1 + i), "marks on item " + i);
        }
    }

    private static int right(final CaseContext c)
    {
        return (c.rank() + 1) % c.size();
    }

    private static int left(final CaseContext c)
    {
        return (c.rank() + c.size() - 1) % c.size();
    }

    /** The pointer to element {@code index} of {@code rank}'s memory (element 0 of rank 0 is the list's head). */
    private static long pointer(final int rank, final int index)
    {
        return 1000L * rank + index + 1;
    }

    private static int owner(final long pointer)
    {
        return (int)((pointer - 1) / 1000);
    }

    private static int index(final long pointer)
    {
        return (int)((pointer - 1) % 1000);
    }

    /**
     * A window of {@link #ELEMENTS} + 1 list elements per rank (a value and a next pointer, longs) and
     * {@code extra} longs after them: each element holds 1000 * rank + index and nil, every extra long the
     * head's pointer. Written by each rank into its own memory between two fences.
     */
    private static Win listWindow(final CaseContext c, final int extra)
    {
        final Win win = c.window(Long.BYTES * (2L * (ELEMENTS + 1) + extra), Long.BYTES);
        win.fence(0);
        for (int i = 0; i <= ELEMENTS; i++)
        {
            Memory.setLong(c.memory(win), 2L * i, 1000L * c.rank() + i);
            Memory.setLong(c.memory(win), 2L * i + 1, NIL);
        }
        for (int i = 0; i < extra; i++)
        {
            Memory.setLong(c.memory(win), 2L * (ELEMENTS + 1) + i, pointer(0, 0));
        }
        win.fence(Win.MODE_NOSUCCEED);
        return win;
    }

    /** Rank 0 walks the list from its head with gets: every rank's elements 1 to ELEMENTS once, nothing else. */
    private static void checkList(final CaseContext c, final Win win)
    {
        if (!c.isRoot())
        {
            return;
        }
        final boolean[] seen = new boolean[c.size() * ELEMENTS];
        final long[] element = new long[2];
        long at = pointer(0, 0);
        int count = 0;
        win.lockAll(0);
        while (count <= seen.length)
        {
            win.get(element, 0, 2, MPI.LONG, owner(at), c.disp(win, owner(at), 2L * index(at)), 2, MPI.LONG);
            win.flush(owner(at));
            if (at != pointer(0, 0))
            {
                final long value = element[0];
                final int slot = (int)(value / 1000) * ELEMENTS + (int)(value % 1000) - 1;
                if (value != 1000L * owner(at) + index(at) || slot < 0 || slot >= seen.length || seen[slot])
                {
                    c.fail("element " + count + " of the list holds " + value + " (at rank " + owner(at) +
                        ", index " + index(at) + "): a wrong element, or one twice");
                    break;
                }
                seen[slot] = true;
                count++;
            }
            if (element[1] == NIL)
            {
                break;
            }
            at = element[1];
        }
        win.unlockAll();
        c.checkEquals(seen.length, count, "elements in the list");
    }
}
