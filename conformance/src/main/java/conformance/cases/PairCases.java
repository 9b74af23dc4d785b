package conformance.cases;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.Datatype;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;
import mpi.rma.WinRequest;

/**
 * MAXLOC and MINLOC on MPJ Express's pair types, and REPLACE and NO_OP on them, in every call of the
 * accumulate family (docs/conformance-checklist.md#maxloc-and-minloc-on-pair-types). A pair type
 * ({@code MPI.INT2}, ...) is two consecutive elements of one Java array of its base type, the value and
 * then its index; each case keeps its pairs in 16-byte slots of a window of displacement unit 8.
 */
public final class PairCases
{
    private static final int SLOT_BYTES = 16;

    /** Swaps each rank makes in fop.pair-swap-chain. */
    private static final int SWAPS = 40;

    private PairCases()
    {
    }

    /** The five pair types, with their base type's size and loads and stores of it. */
    private enum Pair
    {
        SHORT2(ValueLayout.JAVA_SHORT_UNALIGNED), INT2(ValueLayout.JAVA_INT_UNALIGNED),
        LONG2(ValueLayout.JAVA_LONG_UNALIGNED), FLOAT2(ValueLayout.JAVA_FLOAT_UNALIGNED),
        DOUBLE2(ValueLayout.JAVA_DOUBLE_UNALIGNED);

        private final ValueLayout layout;

        Pair(final ValueLayout layout)
        {
            this.layout = layout;
        }

        /** MPJ Express's datatype, read when a case runs. */
        Datatype datatype()
        {
            return switch (this)
            {
                case SHORT2 -> MPI.SHORT2;
                case INT2 -> MPI.INT2;
                case LONG2 -> MPI.LONG2;
                case FLOAT2 -> MPI.FLOAT2;
                case DOUBLE2 -> MPI.DOUBLE2;
            };
        }

        /** A Java array of the base type holding {@code values} (small integers, exact in every type). */
        Object array(final long... values)
        {
            final int n = values.length;
            return switch (this)
            {
                case SHORT2 ->
                {
                    final short[] a = new short[n];
                    for (int i = 0; i < n; i++)
                    {
                        a[i] = (short)values[i];
                    }
                    yield a;
                }
                case INT2 ->
                {
                    final int[] a = new int[n];
                    for (int i = 0; i < n; i++)
                    {
                        a[i] = (int)values[i];
                    }
                    yield a;
                }
                case LONG2 -> values.clone();
                case FLOAT2 ->
                {
                    final float[] a = new float[n];
                    for (int i = 0; i < n; i++)
                    {
                        a[i] = values[i];
                    }
                    yield a;
                }
                case DOUBLE2 ->
                {
                    final double[] a = new double[n];
                    for (int i = 0; i < n; i++)
                    {
                        a[i] = values[i];
                    }
                    yield a;
                }
            };
        }

        /** Element {@code i} of an array of {@link #array}, as a long. */
        long element(final Object array, final int i)
        {
            return switch (this)
            {
                case SHORT2 -> ((short[])array)[i];
                case INT2 -> ((int[])array)[i];
                case LONG2 -> ((long[])array)[i];
                case FLOAT2 -> (long)((float[])array)[i];
                case DOUBLE2 -> (long)((double[])array)[i];
            };
        }

        /** Half {@code half} (0 the value, 1 the index) of the pair at byte {@code at}. */
        long get(final MemorySegment memory, final long at, final int half)
        {
            final long where = at + half * layout.byteSize();
            return switch (this)
            {
                case SHORT2 -> memory.get(ValueLayout.JAVA_SHORT_UNALIGNED, where);
                case INT2 -> memory.get(ValueLayout.JAVA_INT_UNALIGNED, where);
                case LONG2 -> memory.get(ValueLayout.JAVA_LONG_UNALIGNED, where);
                case FLOAT2 -> (long)memory.get(ValueLayout.JAVA_FLOAT_UNALIGNED, where);
                case DOUBLE2 -> (long)memory.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, where);
            };
        }

        void set(final MemorySegment memory, final long at, final long value, final long index)
        {
            final long second = at + layout.byteSize();
            switch (this)
            {
                case SHORT2 ->
                {
                    memory.set(ValueLayout.JAVA_SHORT_UNALIGNED, at, (short)value);
                    memory.set(ValueLayout.JAVA_SHORT_UNALIGNED, second, (short)index);
                }
                case INT2 ->
                {
                    memory.set(ValueLayout.JAVA_INT_UNALIGNED, at, (int)value);
                    memory.set(ValueLayout.JAVA_INT_UNALIGNED, second, (int)index);
                }
                case LONG2 ->
                {
                    memory.set(ValueLayout.JAVA_LONG_UNALIGNED, at, value);
                    memory.set(ValueLayout.JAVA_LONG_UNALIGNED, second, index);
                }
                case FLOAT2 ->
                {
                    memory.set(ValueLayout.JAVA_FLOAT_UNALIGNED, at, value);
                    memory.set(ValueLayout.JAVA_FLOAT_UNALIGNED, second, index);
                }
                case DOUBLE2 ->
                {
                    memory.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, value);
                    memory.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, second, index);
                }
            }
        }
    }

    /**
     * The suite's reference of MPI-4.1 §6.9.4: the pair that MAXLOC (or MINLOC) of {@code (value, index)} and
     * {@code (offeredValue, offeredIndex)} gives, the greater (smaller) value, on equal values the lower index.
     */
    private static long[] reduce(final boolean max, final long value, final long index, final long offeredValue,
        final long offeredIndex)
    {
        if (offeredValue == value)
        {
            return new long[] {value, Math.min(index, offeredIndex)};
        }
        return (offeredValue > value) == max ? new long[] {offeredValue, offeredIndex} : new long[] {value, index};
    }

    /** Rank {@code r}'s MAXLOC value: ranks 2k and 2k + 1 offer the same one, so that ties occur. */
    private static long maxValue(final int r)
    {
        return (r / 2) * 3L - 2;
    }

    /** Rank {@code r}'s MINLOC value, ties as above. */
    private static long minValue(final int r)
    {
        return 10 - (r / 2) * 3L;
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.ACCUMULATE)
            .add("acc.pair-maxloc-minloc", Behaviour.ACC_PAIR_TYPES,
                "in a fence epoch every rank accumulates (MAXLOC) and getAccumulates (MINLOC) its pair (value, rank) " +
                    "into a slot of every rank for each of MPI.SHORT2, INT2, LONG2, FLOAT2, DOUBLE2, ranks 2k and " +
                    "2k+1 offering equal values: each slot ends with the greatest (smallest) value and, of the " +
                    "ranks that offered it, the lowest; each fetched pair is the initial one or a rank's",
                "MPI-4.1 §6.9.4 (MAXLOC, MINLOC; equal values: the lower index), §12.3.4.1, §12.3.4.2; MPICH " +
                    "acc_loc, acc_pairtype", PairCases::pairMaxlocMinloc)
            .add("acc.pair-fetch-and-request", Behaviour.ACC_PAIR_TYPES,
                "under lockAll each rank, on its right neighbour: fetchAndOp(MINLOC) of (rank + 1, rank) on a " +
                    "DOUBLE2 pair (100, 7) fetches (100, 7), then fetchAndOp(NO_OP, origin null) fetches what it " +
                    "stored; fetchAndOp(REPLACE) of a SHORT2 pair fetches (5, 6); rAccumulate(MAXLOC) of 3 LONG2 " +
                    "pairs, then rGetAccumulate(NO_OP) of them, gives each pair's MAXLOC",
                "MPI-4.1 §12.3.4.3 (fetch_and_op on one element of a predefined datatype), §12.3.5 (request-based " +
                    "calls), §6.9.4; MPICH atomic_get, fetch_and_op", PairCases::pairFetchAndRequest)
            .add("acc.pair-ops-rejected", Behaviour.ACC_PAIR_TYPES,
                "on pair types: accumulate(SUM) and fetchAndOp(BAND) are MPI_ERR_OP; MAXLOC with MPI.INT2 on one " +
                    "side and MPI.INT (twice the count) on the other, or a result of MPI.DOUBLE, is MPI_ERR_TYPE",
                "MPI-4.1 §6.9.4 (MAXLOC and MINLOC are the pair types' reductions), §6.9.2 (the others are not " +
                    "defined on them), §12.3.4 (origin, target and result of one predefined datatype)",
                PairCases::pairOpsRejected)
            .add("fop.pair-swap-chain", Behaviour.ACC_ATOMIC,
                "under lockAll every rank swaps its own LONG2 pairs (v, -v) into rank 0's pair 40 times with " +
                    "fetchAndOp(REPLACE), each v once in the job: the pairs fetched, and the one left, are the " +
                    "initial (0, 0) and every v exactly once, each with its own index (none lost, none torn)",
                "MPI-4.1 §12.7.1 (a pair is one element of its predefined datatype: atomic as one), §12.3.4.3; " +
                    "MPICH fetch_and_op, atomic_get", PairCases::pairSwapChain)
            .list();
    }

    private static void pairMaxlocMinloc(final CaseContext c) throws Exception
    {
        final Pair[] pairs = Pair.values();
        final Win win = c.window((long)pairs.length * 2 * SLOT_BYTES, Long.BYTES);
        win.fence(0);
        for (int k = 0; k < pairs.length; k++)
        {
            pairs[k].set(c.memory(win), 2L * k * SLOT_BYTES, -1000, 99);
            pairs[k].set(c.memory(win), (2L * k + 1) * SLOT_BYTES, 1000, 99);
        }
        win.fence(0);
        final Object[][] fetched = new Object[c.size()][pairs.length];
        for (int t = 0; t < c.size(); t++)
        {
            for (int k = 0; k < pairs.length; k++)
            {
                final Pair pair = pairs[k];
                final Datatype type = pair.datatype();
                win.accumulate(pair.array(maxValue(c.rank()), c.rank()), 0, 1, type, t,
                    c.disp(win, t, 4L * k), 1, type, MPI.MAXLOC);
                fetched[t][k] = pair.array(0, 0);
                win.getAccumulate(pair.array(minValue(c.rank()), c.rank()), 0, 1, type, fetched[t][k], 0,
                    1, type, t, c.disp(win, t, 4L * k + 2), 1, type, MPI.MINLOC);
            }
        }
        win.fence(Win.MODE_NOSUCCEED);
        long[] max = {-1000, 99};
        long[] min = {1000, 99};
        for (int r = 0; r < c.size(); r++)
        {
            max = reduce(true, max[0], max[1], maxValue(r), r);
            min = reduce(false, min[0], min[1], minValue(r), r);
        }
        for (int k = 0; k < pairs.length; k++)
        {
            final Pair pair = pairs[k];
            final MemorySegment own = c.memory(win);
            final String name = "MPI." + pair.name();
            c.checkEquals(max[0], pair.get(own, 2L * k * SLOT_BYTES, 0), name + " MAXLOC value");
            c.checkEquals(max[1], pair.get(own, 2L * k * SLOT_BYTES, 1), name + " MAXLOC index");
            c.checkEquals(min[0], pair.get(own, (2L * k + 1) * SLOT_BYTES, 0), name + " MINLOC value");
            c.checkEquals(min[1], pair.get(own, (2L * k + 1) * SLOT_BYTES, 1), name + " MINLOC index");
            for (int t = 0; t < c.size(); t++)
            {
                final long value = pair.element(fetched[t][k], 0);
                final long index = pair.element(fetched[t][k], 1);
                c.check((value == 1000 && index == 99) || (index >= 0 && index < c.size() &&
                    value == minValue((int)index)), name + " getAccumulate(MINLOC) on rank " + t +
                    " fetched (" + value + ", " + index + "), neither the initial pair nor a rank's");
            }
        }
    }

    private static void pairFetchAndRequest(final CaseContext c) throws Exception
    {
        final Win win = c.window(5L * SLOT_BYTES, Long.BYTES);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        final long[] initial = {4, 1, 9, 9, 7, 2};
        win.fence(0);
        final MemorySegment own = c.memory(win);
        Pair.DOUBLE2.set(own, 0, 100, 7);
        Pair.SHORT2.set(own, SLOT_BYTES, 5, 6);
        for (int p = 0; p < 3; p++)
        {
            Pair.LONG2.set(own, (2L + p) * SLOT_BYTES, initial[2 * p], initial[2 * p + 1]);
        }
        win.fence(Win.MODE_NOSUCCEED);
        win.lockAll(0);
        final double[] minOld = new double[2];
        win.fetchAndOp(new double[] {c.rank() + 1, c.rank()}, 0, minOld, 0, MPI.DOUBLE2, right,
            c.disp(win, right, 0), MPI.MINLOC);
        win.flush(right);
        final double[] read = new double[4];
        win.fetchAndOp(null, 0, read, 2, MPI.DOUBLE2, right, c.disp(win, right, 0), Win.NO_OP);
        final short[] swapped = new short[2];
        win.fetchAndOp(new short[] {(short)-c.rank(), 3}, 0, swapped, 0, MPI.SHORT2, right,
            c.disp(win, right, 2), Win.REPLACE);
        // Pair 0 is equal in value (the lower index wins), pair 1 greater, pair 2 smaller.
        final long[] offered = {4, 0, 11, 5, 6, 0};
        final long[] after = new long[6];
        WinRequest.waitAll(new WinRequest[] {
            win.rAccumulate(offered, 0, 3, MPI.LONG2, right, c.disp(win, right, 4), 3, MPI.LONG2,
                MPI.MAXLOC)});
        win.flush(right);
        WinRequest.waitAll(new WinRequest[] {
            win.rGetAccumulate(null, 0, 0, null, after, 0, 3, MPI.LONG2, right, c.disp(win, right, 4), 3,
                MPI.LONG2, Win.NO_OP)});
        win.unlockAll();
        c.check(minOld[0] == 100 && minOld[1] == 7, "fetchAndOp(MINLOC) fetched (" + minOld[0] + ", " +
            minOld[1] + "), not the initial (100, 7)");
        c.check(read[2] == c.rank() + 1 && read[3] == c.rank(), "fetchAndOp(NO_OP) read (" + read[2] + ", " +
            read[3] + ") after the MINLOC of (" + (c.rank() + 1) + ", " + c.rank() + ")");
        c.check(swapped[0] == 5 && swapped[1] == 6, "fetchAndOp(REPLACE) on MPI.SHORT2 fetched (" +
            swapped[0] + ", " + swapped[1] + "), not (5, 6)");
        final long[] expected = {4, 0, 11, 5, 7, 2};
        for (int i = 0; i < after.length; i++)
        {
            c.checkEquals(expected[i], after[i], "LONG2 pair " + i / 2 + (i % 2 == 0 ? " value" : " index") +
                " after rAccumulate(MAXLOC)");
        }
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        win.sync();
        final double value = own.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
        final short swappedIn = own.get(ValueLayout.JAVA_SHORT_UNALIGNED, SLOT_BYTES);
        win.unlock(c.rank());
        c.check(value == left + 1, "the DOUBLE2 pair's value is " + value + " after the MINLOC of rank " +
            left + "'s " + (left + 1));
        c.checkEquals(-left, swappedIn, "the SHORT2 value rank " + left + " swapped in");
    }

    private static void pairOpsRejected(final CaseContext c) throws Exception
    {
        final Win win = c.window(SLOT_BYTES, Long.BYTES);
        final long own = c.disp(win, c.rank(), 0);
        win.fence(0);
        c.expectError(ErrorClass.ERR_OP, "accumulate(SUM) on MPI.INT2",
            () -> win.accumulate(new int[] {1, 2}, 0, 1, MPI.INT2, c.rank(), own, 1, MPI.INT2, MPI.SUM));
        c.expectError(ErrorClass.ERR_OP, "fetchAndOp(BAND) on MPI.LONG2",
            () -> win.fetchAndOp(new long[] {1, 2}, 0, new long[2], 0, MPI.LONG2, c.rank(), own,
                MPI.BAND));
        c.expectError(ErrorClass.ERR_TYPE, "accumulate(MAXLOC) from MPI.INT2 to MPI.INT",
            () -> win.accumulate(new int[] {1, 2}, 0, 1, MPI.INT2, c.rank(), own, 2, MPI.INT, MPI.MAXLOC));
        c.expectError(ErrorClass.ERR_TYPE, "getAccumulate(MINLOC) with a result of MPI.DOUBLE",
            () -> win.getAccumulate(new double[] {1, 2}, 0, 1, MPI.DOUBLE2, new double[2], 0, 2,
                MPI.DOUBLE, c.rank(), own, 1, MPI.DOUBLE2, MPI.MINLOC));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void pairSwapChain(final CaseContext c) throws Exception
    {
        final Win win = c.window(SLOT_BYTES, Long.BYTES);
        final long target = c.disp(win, 0, 0);
        final long[] old = new long[2 * SWAPS];
        win.lockAll(0);
        for (int i = 0; i < SWAPS; i++)
        {
            final long value = (long)c.rank() * SWAPS + i + 1;
            win.fetchAndOp(new long[] {value, -value}, 0, old, 2 * i, MPI.LONG2, 0, target, Win.REPLACE);
            win.flush(0);
        }
        win.unlockAll();
        final long[] all = new long[old.length * c.size()];
        c.comm().Allgather(old, 0, old.length, MPI.LONG, all, 0, old.length, MPI.LONG);
        c.barrier();
        final MemorySegment rootMemory = c.memoryOf(win, 0);
        final long lastValue = Pair.LONG2.get(rootMemory, 0, 0);
        final long lastIndex = Pair.LONG2.get(rootMemory, 0, 1);
        final int[] seen = new int[c.size() * SWAPS + 1];
        checkSwapped(c, seen, lastValue, lastIndex);
        for (int i = 0; i < all.length; i += 2)
        {
            checkSwapped(c, seen, all[i], all[i + 1]);
        }
        for (int v = 0; v < seen.length; v++)
        {
            if (seen[v] != 1)
            {
                c.fail("value " + v + " was seen " + seen[v] + " times among the fetched pairs and the " +
                    "last (once each if no swap was lost)");
                break;
            }
        }
    }

    private static void checkSwapped(final CaseContext c, final int[] seen, final long value, final long index)
    {
        if (value != -index || value < 0 || value >= seen.length)
        {
            c.fail("a swapped pair is (" + value + ", " + index + "): torn, or never written");
            return;
        }
        seen[(int)value]++;
    }
}
