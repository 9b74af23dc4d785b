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
 * fetchAndOp under contention on each basic type (docs/conformance-checklist.md#accumulate-family-and-atomicity).
 * The values are chosen where an implementation goes wrong: a char above 0x7fff, a byte sum that wraps, a long
 * that differs from another only above bit 31. {@link CompareAndSwapTypeCases} has compareAndSwap on each type,
 * {@link AccumulateTypeCases} and {@link GetAccumulateTypeCases} accumulate and getAccumulate.
 */
public final class FetchAndOpTypeCases
{
    private FetchAndOpTypeCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.ACCUMULATE)
            .add("fop.byte-sum", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 10 fetchAndOp(SUM, 1) on rank 0's byte, from -40, each flushed: the fetched values " +
                    "are -40 to 10 * size - 41, each once, and the byte ends at 10 * size - 40",
                "MPI-4.1 §12.3.4.3, §12.7.1; MPICH fetch_and_op (char variant)", FetchAndOpTypeCases::byteSum)
            .add("fop.char-sum-wraps", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 10 fetchAndOp(SUM, 1) on rank 0's char, from 0xfff0: the fetched values are " +
                    "0xfff0 onwards, wrapping past 0xffff to 0, each once (a char is unsigned)",
                "MPI-4.1 §12.3.4.3, §12.7.1; MPICH fetch_and_op", FetchAndOpTypeCases::charSumWraps)
            .add("fop.short-max-min", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 12 fetchAndOp(MAX, 100 * rank + i) and fetchAndOp(MIN, -(100 * rank + i)) on rank " +
                    "0's two shorts: each fetched value is the start or a value some rank gave, none below this " +
                    "rank's previous operand, and the shorts end at the largest and smallest operand",
                "MPI-4.1 §12.3.4.3, §12.7.2 (one origin's accumulates are ordered); MPICH fetch_and_op (short " +
                    "variant)", FetchAndOpTypeCases::shortMaxMin)
            .add("fop.boolean-lxor", Behaviour.ACC_FETCH_AND_OP,
                "every rank toggles rank 0's boolean 15 times with fetchAndOp(LXOR, true): of the fetched values " +
                    "half (rounded up) are false, and the boolean ends at the parity of 15 * size; SUM and BAND on " +
                    "BOOLEAN: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.3, §6.9.2 (logical operations on logical types); MPICH fetch_and_op",
                FetchAndOpTypeCases::booleanLxor)
            .add("fop.int-sum-increments", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 15 fetchAndOp(SUM, rank + 1) on rank 0's int: sorted, the fetched values form one " +
                    "chain from the start, each the previous plus the previous fetcher's increment, ending where the " +
                    "int ends",
                "MPI-4.1 §12.3.4.3, §12.7.1; MPICH fetch_and_op (int variant), fetchandadd",
                FetchAndOpTypeCases::intSumIncrements)
            .add("fop.long-replace-chain", Behaviour.ACC_FETCH_AND_OP,
                "every rank swaps 15 values ((rank + 1) << 40 | i) into rank 0's long with fetchAndOp(REPLACE): the " +
                    "fetched values and the final one are the start and every value written, each exactly once",
                "MPI-4.1 §12.3.4.3 (REPLACE), §12.7.1; MPICH fetch_and_op (long variant), atomic_rmw_fop",
                FetchAndOpTypeCases::longReplaceChain)
            .add("fop.float-sum", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 15 fetchAndOp(SUM, 1.0f) on rank 0's float, from 0.5: the fetched values are 0.5, " +
                    "1.5, ... each once; BAND and LOR on FLOAT: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.3, §6.9.2 (no bitwise or logical operations on floating point); MPICH " +
                    "fetch_and_op", FetchAndOpTypeCases::floatSum)
            .add("fop.double-prod", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 8 fetchAndOp(PROD, 2.0) on rank 0's double, from 1: the fetched values are the " +
                    "powers of two 2^0 to 2^(8 * size - 1), each once; LXOR and BOR on DOUBLE: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.3, §6.9.2; MPICH fetch_and_op (double variant)", FetchAndOpTypeCases::doubleProd)
            .list();
    }

    private static void byteSum(final CaseContext c) throws Exception
    {
        sumContention(c, Kind.BYTE, -40, 10);
    }

    private static void charSumWraps(final CaseContext c) throws Exception
    {
        sumContention(c, Kind.CHAR, 0xFFF0, 10);
    }

    private static void booleanLxor(final CaseContext c) throws Exception
    {
        final int n = 15;
        final Win win = c.window(1, 1);
        final boolean[] result = new boolean[1];
        final long[] fetched = new long[n];
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            win.fetchAndOp(new boolean[] {true}, 0, result, 0, MPI.BOOLEAN, 0, c.disp(win, 0, 0), MPI.LXOR);
            win.flush(0);
            fetched[i] = result[0] ? 1 : 0;
        }
        c.expectError(ErrorClass.ERR_OP, "fetchAndOp(SUM) on BOOLEAN", () -> win.fetchAndOp(
            new boolean[] {true}, 0, result, 0, MPI.BOOLEAN, 0, c.disp(win, 0, 0), MPI.SUM));
        c.expectError(ErrorClass.ERR_OP, "fetchAndOp(BAND) on BOOLEAN", () -> win.fetchAndOp(
            new boolean[] {true}, 0, result, 0, MPI.BOOLEAN, 0, c.disp(win, 0, 0), MPI.BAND));
        win.unlockAll();
        final long trues = c.sum(Arrays.stream(fetched).sum());
        final long total = (long)n * c.size();
        c.checkEquals(total / 2, trues, "fetched values that are true, of " + total);
        c.barrier();
        c.checkEquals(total % 2, RootElement.finalValue(c, win, Kind.BOOLEAN, 0), "final value (1: true)");
    }

    private static void intSumIncrements(final CaseContext c) throws Exception
    {
        final int n = 15;
        final long start = 1_000_000;
        final Win win = c.window(4, 4);
        RootElement.storeAtRoot(c, win, Kind.INT, start);
        final int[] result = new int[1];
        final long[] mine = new long[2 * n];
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            win.fetchAndOp(new int[] {c.rank() + 1}, 0, result, 0, MPI.INT, 0, c.disp(win, 0, 0), MPI.SUM);
            win.flush(0);
            mine[2 * i] = result[0];
            mine[2 * i + 1] = c.rank() + 1;
        }
        win.unlockAll();
        final long[] all = new long[mine.length * c.size()];
        c.comm().Allgather(mine, 0, mine.length, MPI.LONG, all, 0, mine.length, MPI.LONG);
        final long[][] pairs = new long[all.length / 2][];
        for (int p = 0; p < pairs.length; p++)
        {
            pairs[p] = new long[] {all[2 * p], all[2 * p + 1]};
        }
        Arrays.sort(pairs, (a, b) -> Long.compare(a[0], b[0]));
        long expected = start;
        for (final long[] pair : pairs)
        {
            if (pair[0] != expected)
            {
                c.fail("the fetched values break the chain: expected " + expected + ", next is " + pair[0]);
                break;
            }
            expected += pair[1];
        }
        c.barrier();
        c.checkEquals(start + (long)n * c.size() * (c.size() + 1) / 2, RootElement.finalValue(c, win, Kind.INT, 0),
            "final value");
    }

    private static void longReplaceChain(final CaseContext c) throws Exception
    {
        final int n = 15;
        final long start = 0x7FFF_0000_0000_0001L;
        final Win win = c.window(8, 8);
        RootElement.storeAtRoot(c, win, Kind.LONG, start);
        final long[] result = new long[1];
        final long[] fetched = new long[n];
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            win.fetchAndOp(new long[] {(long)(c.rank() + 1) << 40 | i}, 0, result, 0, MPI.LONG, 0,
                c.disp(win, 0, 0), Win.REPLACE);
            win.flush(0);
            fetched[i] = result[0];
        }
        win.unlockAll();
        final long[] all = new long[n * c.size() + 1];
        c.comm().Allgather(fetched, 0, n, MPI.LONG, all, 0, n, MPI.LONG);
        c.barrier();
        all[all.length - 1] = RootElement.finalValue(c, win, Kind.LONG, 0);
        final long[] expected = new long[all.length];
        expected[0] = start;
        for (int r = 0; r < c.size(); r++)
        {
            for (int i = 0; i < n; i++)
            {
                expected[1 + r * n + i] = (long)(r + 1) << 40 | i;
            }
        }
        Arrays.sort(all);
        Arrays.sort(expected);
        c.check(Arrays.equals(expected, all), "the fetched and final values are not the start and the " +
            "written values, each once: " + Arrays.toString(all));
    }

    private static void floatSum(final CaseContext c) throws Exception
    {
        final int n = 15;
        final Win win = c.window(4, 4);
        RootElement.storeAtRoot(c, win, Kind.FLOAT, Kind.FLOAT.of(0.5));
        final float[] result = new float[1];
        final long[] fetched = new long[n];
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            win.fetchAndOp(new float[] {1}, 0, result, 0, MPI.FLOAT, 0, c.disp(win, 0, 0), MPI.SUM);
            win.flush(0);
            fetched[i] = (long)(result[0] * 2);
        }
        c.expectError(ErrorClass.ERR_OP, "fetchAndOp(BAND) on FLOAT", () -> win.fetchAndOp(new float[1],
            0, result, 0, MPI.FLOAT, 0, c.disp(win, 0, 0), MPI.BAND));
        c.expectError(ErrorClass.ERR_OP, "fetchAndOp(LOR) on FLOAT", () -> win.fetchAndOp(new float[1], 0,
            result, 0, MPI.FLOAT, 0, c.disp(win, 0, 0), MPI.LOR));
        win.unlockAll();
        // Twice each value: 1, 3, 5, ... for 0.5, 1.5, 2.5, ...
        checkDistinctRun(c, fetched, k -> 2 * k + 1, "twice the fetched value");
        c.barrier();
        c.checkEquals(Kind.FLOAT.of(0.5 + n * c.size()), RootElement.finalValue(c, win, Kind.FLOAT, 0), "final value");
    }

    private static void doubleProd(final CaseContext c) throws Exception
    {
        final int n = 8;
        final Win win = c.window(8, 8);
        RootElement.storeAtRoot(c, win, Kind.DOUBLE, Kind.DOUBLE.of(1));
        final double[] result = new double[1];
        final long[] exponents = new long[n];
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            win.fetchAndOp(new double[] {2}, 0, result, 0, MPI.DOUBLE, 0, c.disp(win, 0, 0), MPI.PROD);
            win.flush(0);
            exponents[i] = Math.getExponent(result[0]) + (result[0] == Math.scalb(1.0,
                Math.getExponent(result[0])) ? 0 : 10_000);
        }
        c.expectError(ErrorClass.ERR_OP, "fetchAndOp(LXOR) on DOUBLE", () -> win.fetchAndOp(
            new double[1], 0, result, 0, MPI.DOUBLE, 0, c.disp(win, 0, 0), MPI.LXOR));
        c.expectError(ErrorClass.ERR_OP, "fetchAndOp(BOR) on DOUBLE", () -> win.fetchAndOp(
            new double[1], 0, result, 0, MPI.DOUBLE, 0, c.disp(win, 0, 0), MPI.BOR));
        win.unlockAll();
        checkDistinctRun(c, exponents, k -> k, "exponent of the fetched value (10000+: no power of two)");
        c.barrier();
        c.checkEquals(Kind.DOUBLE.of(Math.scalb(1.0, n * c.size())), RootElement.finalValue(c, win, Kind.DOUBLE, 0),
            "final value");
    }

    /**
     * Every rank's {@code fetched} values, gathered and sorted, must be {@code expected(0)},
     * {@code expected(1)}, ... in that order: each once.
     */
    private static void checkDistinctRun(final CaseContext c, final long[] fetched,
        final java.util.function.LongUnaryOperator expected, final String what)
    {
        final long[] all = new long[fetched.length * c.size()];
        c.comm().Allgather(fetched, 0, fetched.length, MPI.LONG, all, 0, fetched.length, MPI.LONG);
        Arrays.sort(all);
        for (int k = 0; k < all.length; k++)
        {
            if (all[k] != expected.applyAsLong(k))
            {
                c.fail(what + ": the " + k + "th smallest is " + all[k] + ", expected " + expected.applyAsLong(k) +
                    " (a value fetched twice, or one missing)");
                return;
            }
        }
    }

    /** Every rank adds 1 to rank 0's element {@code n} times with fetchAndOp: each intermediate value fetched once. */
    private static void sumContention(final CaseContext c, final Kind kind, final long start, final int n)
    {
        final Win win = c.window(kind.bytes, kind.bytes);
        RootElement.storeAtRoot(c, win, kind, start);
        final Object result = kind.array(1);
        final long[] fetched = new long[n];
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            win.fetchAndOp(kind.one(1), 0, result, 0, kind.datatype(), 0, c.disp(win, 0, 0), MPI.SUM);
            win.flush(0);
            fetched[i] = kind.get(result, 0);
        }
        win.unlockAll();
        final long[] expected = new long[n * c.size()];
        for (int k = 0; k < expected.length; k++)
        {
            expected[k] = kind.normalise(start + k);
        }
        Arrays.sort(expected);
        checkDistinctRun(c, fetched, k -> expected[(int)k], "fetched value");
        c.barrier();
        c.checkEquals(kind.normalise(start + (long)n * c.size()), RootElement.finalValue(c, win, kind, 0),
            "final value");
    }

    private static void shortMaxMin(final CaseContext c)
    {
        final int n = 12;
        final Win win = c.window(4, 2);
        win.fence(0);
        if (c.isRoot())
        {
            Kind.SHORT.store(c.memory(win), 0, -1000);
            Kind.SHORT.store(c.memory(win), 1, 1000);
        }
        win.fence(Win.MODE_NOSUCCEED);
        final short[] result = new short[1];
        final long[] olds = new long[2 * n];
        win.lockAll(0);
        for (int i = 0; i < n; i++)
        {
            final short value = (short)(100 * c.rank() + i);
            win.fetchAndOp(new short[] {value}, 0, result, 0, MPI.SHORT, 0, c.disp(win, 0, 0), MPI.MAX);
            win.flush(0);
            olds[2 * i] = result[0];
            win.fetchAndOp(new short[] {(short)-value}, 0, result, 0, MPI.SHORT, 0, c.disp(win, 0, 1), MPI.MIN);
            win.flush(0);
            olds[2 * i + 1] = result[0];
            if (i > 0)
            {
                c.check(olds[2 * i] >= value - 1, "MAX fetched " + olds[2 * i] + " after this rank's own " +
                    (value - 1));
                c.check(olds[2 * i + 1] <= -(value - 1), "MIN fetched " + olds[2 * i + 1] + " after this rank's " +
                    "own " + -(value - 1));
            }
        }
        win.unlockAll();
        final long[] all = new long[olds.length * c.size()];
        c.comm().Allgather(olds, 0, olds.length, MPI.LONG, all, 0, olds.length, MPI.LONG);
        for (int k = 0; k < all.length; k++)
        {
            final long old = Math.abs(all[k]);
            final boolean given = old % 100 < n && old / 100 < c.size() && (k % 2 == 0 ? all[k] >= 0 : all[k] <= 0);
            c.check(all[k] == (k % 2 == 0 ? -1000 : 1000) || given,
                "fetched " + all[k] + ", which is neither the start nor any rank's operand");
        }
        final long top = 100L * (c.size() - 1) + n - 1;
        c.barrier();
        c.checkEquals(top, RootElement.finalValue(c, win, Kind.SHORT, 0), "MAX's final value");
        c.checkEquals(-top, RootElement.finalValue(c, win, Kind.SHORT, 1), "MIN's final value");
    }

}
