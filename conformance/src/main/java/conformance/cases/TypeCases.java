package conformance.cases;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseBody;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/**
 * The accumulate family on every basic type (docs/conformance-checklist.md#accumulate-family-and-atomicity):
 * accumulate and getAccumulate with every operation on each of MPJ Express's eight basic types, MPI_ERR_OP
 * for those MPI does not define on it, fetchAndOp under contention on each type, and compareAndSwap on each
 * integer and logical type. The values are chosen where an implementation goes wrong: a char above 0x7fff, a
 * byte sum that wraps, a long that differs from another only above bit 31.
 */
public final class TypeCases
{
    /** What accumulate takes: every operation but NO_OP. */
    private static final Reduction[] ACCUMULATE_OPS = Arrays.copyOf(Reduction.values(), Reduction.values().length - 1);

    private TypeCases()
    {
    }

    public static List<Case> cases()
    {
        final CaseList list = new CaseList(CaseGroup.ACCUMULATE);
        for (final Kind kind : Kind.values())
        {
            list.add("acc.type-" + lower(kind), Behaviour.ACC_EVERY_TYPE,
                "every rank accumulates into each operation's " + kind.mpiName() + " of every rank, for each of " +
                    opsText(kind, true) + ", between fences: each element is the reduction of its initial value and " +
                    "every rank's operand (REPLACE: one of the operands); " + errorText(kind, true),
                "MPI-4.1 §12.3.4.1, §6.9.2 (the operations and the types they apply to); MPICH accfence1 (every type)",
                accumulateEveryOp(kind));
        }
        for (final Kind kind : Kind.values())
        {
            list.add("gacc.type-" + lower(kind), Behaviour.ACC_EVERY_TYPE,
                "each rank calls getAccumulate on its right neighbour's " + kind.mpiName() + " once per operation (" +
                    opsText(kind, false) + "), results at their own offsets of one array: each result is the old " +
                    "value, and the neighbour's element becomes the operation's result; " + errorText(kind, false),
                "MPI-4.1 §12.3.4.2, §6.9.2; MPICH get_accumulate (the types it is built for)",
                getAccumulateEveryOp(kind));
        }
        return list
            .add("fop.byte-sum", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 10 fetchAndOp(SUM, 1) on rank 0's byte, from -40, each flushed: the fetched values " +
                    "are -40 to 10 * size - 41, each once, and the byte ends at 10 * size - 40",
                "MPI-4.1 §12.3.4.3, §12.7.1; MPICH fetch_and_op (char variant)", c ->
                    sumContention(c, Kind.BYTE, -40, 10))
            .add("fop.char-sum-wraps", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 10 fetchAndOp(SUM, 1) on rank 0's char, from 0xfff0: the fetched values are " +
                    "0xfff0 onwards, wrapping past 0xffff to 0, each once (a char is unsigned)",
                "MPI-4.1 §12.3.4.3, §12.7.1; MPICH fetch_and_op", c ->
                    sumContention(c, Kind.CHAR, 0xFFF0, 10))
            .add("fop.short-max-min", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 12 fetchAndOp(MAX, 100 * rank + i) and fetchAndOp(MIN, -(100 * rank + i)) on rank " +
                    "0's two shorts: each fetched value is the start or a value some rank gave, none below this " +
                    "rank's previous operand, and the shorts end at the largest and smallest operand",
                "MPI-4.1 §12.3.4.3, §12.7.2 (one origin's accumulates are ordered); MPICH fetch_and_op (short " +
                    "variant)", TypeCases::maxMinContention)
            .add("fop.boolean-lxor", Behaviour.ACC_FETCH_AND_OP,
                "every rank toggles rank 0's boolean 15 times with fetchAndOp(LXOR, true): of the fetched values " +
                    "half (rounded up) are false, and the boolean ends at the parity of 15 * size; SUM and BAND on " +
                    "BOOLEAN: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.3, §6.9.2 (logical operations on logical types); MPICH fetch_and_op", c ->
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
                    c.checkEquals(total % 2, finalValue(c, win, Kind.BOOLEAN, 0), "final value (1: true)");
                })
            .add("fop.int-sum-increments", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 15 fetchAndOp(SUM, rank + 1) on rank 0's int: sorted, the fetched values form one " +
                    "chain from the start, each the previous plus the previous fetcher's increment, ending where the " +
                    "int ends",
                "MPI-4.1 §12.3.4.3, §12.7.1; MPICH fetch_and_op (int variant), fetchandadd", c ->
                {
                    final int n = 15;
                    final long start = 1_000_000;
                    final Win win = c.window(4, 4);
                    storeAtRoot(c, win, Kind.INT, start);
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
                    c.checkEquals(start + (long)n * c.size() * (c.size() + 1) / 2, finalValue(c, win, Kind.INT, 0),
                        "final value");
                })
            .add("fop.long-replace-chain", Behaviour.ACC_FETCH_AND_OP,
                "every rank swaps 15 values ((rank + 1) << 40 | i) into rank 0's long with fetchAndOp(REPLACE): the " +
                    "fetched values and the final one are the start and every value written, each exactly once",
                "MPI-4.1 §12.3.4.3 (REPLACE), §12.7.1; MPICH fetch_and_op (long variant), atomic_rmw_fop", c ->
                {
                    final int n = 15;
                    final long start = 0x7FFF_0000_0000_0001L;
                    final Win win = c.window(8, 8);
                    storeAtRoot(c, win, Kind.LONG, start);
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
                    all[all.length - 1] = finalValue(c, win, Kind.LONG, 0);
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
                })
            .add("fop.float-sum", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 15 fetchAndOp(SUM, 1.0f) on rank 0's float, from 0.5: the fetched values are 0.5, " +
                    "1.5, ... each once; BAND and LOR on FLOAT: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.3, §6.9.2 (no bitwise or logical operations on floating point); MPICH " +
                    "fetch_and_op", c ->
                {
                    final int n = 15;
                    final Win win = c.window(4, 4);
                    storeAtRoot(c, win, Kind.FLOAT, Kind.FLOAT.of(0.5));
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
                    c.checkEquals(Kind.FLOAT.of(0.5 + n * c.size()), finalValue(c, win, Kind.FLOAT, 0), "final value");
                })
            .add("fop.double-prod", Behaviour.ACC_FETCH_AND_OP,
                "every rank does 8 fetchAndOp(PROD, 2.0) on rank 0's double, from 1: the fetched values are the " +
                    "powers of two 2^0 to 2^(8 * size - 1), each once; LXOR and BOR on DOUBLE: MPI_ERR_OP",
                "MPI-4.1 §12.3.4.3, §6.9.2; MPICH fetch_and_op (double variant)", c ->
                {
                    final int n = 8;
                    final Win win = c.window(8, 8);
                    storeAtRoot(c, win, Kind.DOUBLE, Kind.DOUBLE.of(1));
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
                    c.checkEquals(Kind.DOUBLE.of(Math.scalb(1.0, n * c.size())), finalValue(c, win, Kind.DOUBLE, 0),
                        "final value");
                })
            .add("cas.byte-counter", Behaviour.ACC_COMPARE_AND_SWAP,
                "every rank increments rank 0's byte 12 times with a compareAndSwap retry loop, from 100: it ends at " +
                    "(byte)(100 + 12 * size), past 127 into the negatives, with no increment lost",
                "MPI-4.1 §12.3.4.4 (byte types), §12.7.1; MPICH compare_and_swap", c ->
                    casCounter(c, Kind.BYTE, 100, 12))
            .add("cas.char-counter-wraps", Behaviour.ACC_COMPARE_AND_SWAP,
                "as above on a char from 0xfff8: compare values above 0x7fff match (a char is unsigned) and the " +
                    "counter wraps past 0xffff",
                "MPI-4.1 §12.3.4.4, §12.7.1; MPICH compare_and_swap", c ->
                    casCounter(c, Kind.CHAR, 0xFFF8, 12))
            .add("cas.short-election", Behaviour.ACC_COMPARE_AND_SWAP,
                "for each of rank 0's 10 shorts, every rank tries compareAndSwap(-1 to -(1000 * rank + k + 2)): " +
                    "exactly one rank per short fetches -1, every other fetches the winner's value, and the short " +
                    "holds it",
                "MPI-4.1 §12.3.4.4 (swap only if equal; the old value always returned); MPICH atomic_rmw_cas", c ->
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
                })
            .add("cas.boolean-mutex", 2, Behaviour.ACC_COMPARE_AND_SWAP,
                "a mutex on rank 0's boolean: each rank 8 times takes it with compareAndSwap(false to true) until " +
                    "it fetches false, gets rank 0's counter, pauses, puts it plus one, and releases with " +
                    "compareAndSwap(true to false), fetching true: the counter ends at 8 * size",
                "MPI-4.1 §12.3.4.4 (logical types), §12.5.4 (flush orders the critical section); MPICH " +
                    "atomic_rmw_cas, mutex_bench", c ->
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
                })
            .add("cas.int-exact-compare", Behaviour.ACC_COMPARE_AND_SWAP,
                "on the right neighbour's ints 0x80000001 and -1: compare 1 fails, compare 0x80000001 swaps in 5; " +
                    "compare -1 swaps in 0x7fffffff, compare 0x7ffffffe then fails: each fetches the old value, and " +
                    "the ints end 5 and 0x7fffffff",
                "MPI-4.1 §12.3.4.4 (the whole element is compared); MPICH compare_and_swap", c ->
                    exactCompare(c, Kind.INT, new long[] {Integer.MIN_VALUE + 1, -1},
                        new long[][] {{0, 1, 5}, {0, Integer.MIN_VALUE + 1, 5}, {1, -1, Integer.MAX_VALUE},
                            {1, Integer.MAX_VALUE - 1, 3}}, new long[] {5, Integer.MAX_VALUE}))
            .add("cas.long-exact-compare", Behaviour.ACC_COMPARE_AND_SWAP,
                "on the right neighbour's longs 2^32 + 5 and Long.MIN_VALUE: compare 5 fails (equal low 32 bits), " +
                    "compare 2^32 + 5 swaps in Long.MIN_VALUE; compare 0 fails (equal but for bit 63), compare " +
                    "Long.MIN_VALUE swaps in -1",
                "MPI-4.1 §12.3.4.4; MPICH compare_and_swap (long variant)", c ->
                    exactCompare(c, Kind.LONG, new long[] {(1L << 32) + 5, Long.MIN_VALUE},
                        new long[][] {{0, 5, 9}, {0, (1L << 32) + 5, Long.MIN_VALUE}, {1, 0, 9}, {1, Long.MIN_VALUE, -1}},
                        new long[] {Long.MIN_VALUE, -1}))
            .list();
    }

    private static String lower(final Kind kind)
    {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String opsText(final Kind kind, final boolean accumulate)
    {
        final List<String> names = new ArrayList<>();
        for (final Reduction op : accumulate ? ACCUMULATE_OPS : Reduction.values())
        {
            if (op.appliesTo(kind))
            {
                names.add(op.name());
            }
        }
        return String.join(", ", names);
    }

    private static String errorText(final Kind kind, final boolean accumulate)
    {
        final List<String> names = new ArrayList<>();
        for (final Reduction op : Reduction.values())
        {
            if (!op.appliesTo(kind))
            {
                names.add(op.name());
            }
        }
        if (accumulate)
        {
            names.add("NO_OP");
        }
        return names.isEmpty() ? "every operation applies" : String.join(", ", names) + ": MPI_ERR_OP";
    }

    /** The value every rank's accumulate of {@code op} starts from. */
    private static long initial(final Kind kind, final Reduction op)
    {
        return switch (op)
        {
            case LAND -> kind.high();
            case LOR, LXOR -> 0;
            default -> kind.samples()[(op.ordinal() + 5) % 8];
        };
    }

    /** What rank {@code rank} accumulates with {@code op}: for the logical ops, true values with a zero low byte. */
    private static long operand(final Kind kind, final Reduction op, final int rank)
    {
        return switch (op)
        {
            case LAND, LXOR -> kind.high();
            case LOR -> rank == 0 ? kind.high() : 0;
            default -> kind.samples()[(op.ordinal() + rank) % 8];
        };
    }

    private static CaseBody accumulateEveryOp(final Kind kind)
    {
        return c ->
        {
            final Win win = c.window((long)ACCUMULATE_OPS.length * kind.bytes, kind.bytes);
            win.fence(0);
            for (int i = 0; i < ACCUMULATE_OPS.length; i++)
            {
                kind.store(c.memory(win), i, ACCUMULATE_OPS[i].appliesTo(kind) ? initial(kind, ACCUMULATE_OPS[i]) : 0);
            }
            win.fence(0);
            for (int target = 0; target < c.size(); target++)
            {
                for (int i = 0; i < ACCUMULATE_OPS.length; i++)
                {
                    final Reduction op = ACCUMULATE_OPS[i];
                    if (op.appliesTo(kind))
                    {
                        win.accumulate(kind.one(operand(kind, op, c.rank())), 0, 1, kind.datatype(), target,
                            c.disp(win, target, i), 1, kind.datatype(), op.op());
                    }
                }
            }
            final int right = (c.rank() + 1) % c.size();
            for (final Reduction op : Reduction.values())
            {
                if (!op.appliesTo(kind) || op == Reduction.NO_OP)
                {
                    c.expectError(ErrorClass.ERR_OP, "accumulate(" + op.mpiName() + ") on " + kind.mpiName(),
                        () -> win.accumulate(kind.one(0), 0, 1, kind.datatype(), right, c.disp(win, right, 0), 1,
                            kind.datatype(), op.op()));
                }
            }
            win.fence(Win.MODE_NOSUCCEED);
            for (int i = 0; i < ACCUMULATE_OPS.length; i++)
            {
                final Reduction op = ACCUMULATE_OPS[i];
                if (!op.appliesTo(kind))
                {
                    c.checkEquals(0, kind.load(c.memory(win), i), "element of " + op + ", which no call may change");
                    continue;
                }
                final long actual = kind.load(c.memory(win), i);
                if (op == Reduction.REPLACE)
                {
                    boolean found = false;
                    for (int r = 0; r < c.size(); r++)
                    {
                        found |= actual == operand(kind, op, r);
                    }
                    c.check(found, "REPLACE left " + kind.show(actual) + ", which no rank gave");
                    continue;
                }
                long expected = initial(kind, op);
                for (int r = 0; r < c.size(); r++)
                {
                    expected = op.apply(kind, expected, operand(kind, op, r));
                }
                if (expected != actual)
                {
                    c.fail(op.mpiName() + " on " + kind.mpiName() + ": expected " + kind.show(expected) + ", got " +
                        kind.show(actual));
                }
            }
        };
    }

    /** The value {@code owner}'s element of {@code op} starts from in getAccumulate's cases. */
    private static long fetchInitial(final Kind kind, final Reduction op, final int owner)
    {
        return switch (op)
        {
            case LAND, LXOR -> kind.high();
            case LOR -> 0;
            default -> kind.samples()[(op.ordinal() + owner) % 8];
        };
    }

    /** What {@code origin} combines into its right neighbour's element of {@code op}. */
    private static long fetchOperand(final Kind kind, final Reduction op, final int origin)
    {
        return switch (op)
        {
            case LAND -> 0;
            case LOR, LXOR -> kind.high();
            default -> kind.samples()[(op.ordinal() + origin + 3) % 8];
        };
    }

    private static CaseBody getAccumulateEveryOp(final Kind kind)
    {
        return c ->
        {
            final Reduction[] ops = Reduction.values();
            final Win win = c.window((long)ops.length * kind.bytes, kind.bytes);
            final int right = (c.rank() + 1) % c.size();
            final int left = (c.rank() + c.size() - 1) % c.size();
            win.fence(0);
            for (int i = 0; i < ops.length; i++)
            {
                kind.store(c.memory(win), i, ops[i].appliesTo(kind) ? fetchInitial(kind, ops[i], c.rank()) : 0);
            }
            win.fence(0);
            final Object results = kind.array(ops.length);
            for (int i = 0; i < ops.length; i++)
            {
                final Reduction op = ops[i];
                final int slot = i;
                if (op.appliesTo(kind))
                {
                    win.getAccumulate(kind.one(fetchOperand(kind, op, c.rank())), 0, 1, kind.datatype(), results, i, 1,
                        kind.datatype(), right, c.disp(win, right, i), 1, kind.datatype(), op.op());
                }
                else
                {
                    c.expectError(ErrorClass.ERR_OP, "getAccumulate(" + op.mpiName() + ") on " + kind.mpiName(),
                        () -> win.getAccumulate(kind.one(0), 0, 1, kind.datatype(), results, slot, 1, kind.datatype(),
                            right, c.disp(win, right, slot), 1, kind.datatype(), op.op()));
                }
            }
            win.fence(Win.MODE_NOSUCCEED);
            for (int i = 0; i < ops.length; i++)
            {
                final Reduction op = ops[i];
                if (!op.appliesTo(kind))
                {
                    c.checkEquals(0, kind.load(c.memory(win), i), "element of " + op + ", which no call may change");
                    continue;
                }
                final long old = fetchInitial(kind, op, right);
                if (kind.get(results, i) != old)
                {
                    c.fail(op.mpiName() + ": fetched " + kind.show(kind.get(results, i)) + ", expected the old " +
                        kind.show(old));
                }
                final long expected = op.apply(kind, fetchInitial(kind, op, c.rank()), fetchOperand(kind, op, left));
                final long actual = kind.load(c.memory(win), i);
                if (expected != actual)
                {
                    c.fail(op.mpiName() + " on " + kind.mpiName() + ": own element is " + kind.show(actual) +
                        ", expected " + kind.show(expected));
                }
            }
        };
    }

    /** Rank 0 stores {@code value} into element 0 of its memory between fences; the others wait in them. */
    private static void storeAtRoot(final CaseContext c, final Win win, final Kind kind, final long value)
    {
        win.fence(0);
        if (c.isRoot())
        {
            kind.store(c.memory(win), 0, value);
        }
        win.fence(Win.MODE_NOSUCCEED);
    }

    /** Element {@code index} of rank 0, read with fetchAndOp(NO_OP) in a lockAll epoch of its own. */
    private static long finalValue(final CaseContext c, final Win win, final Kind kind, final int index)
    {
        final Object result = kind.array(1);
        win.lockAll(0);
        win.fetchAndOp(null, 0, result, 0, kind.datatype(), 0, c.disp(win, 0, index), Win.NO_OP);
        win.flush(0);
        win.unlockAll();
        return kind.get(result, 0);
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
        storeAtRoot(c, win, kind, start);
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
        c.checkEquals(kind.normalise(start + (long)n * c.size()), finalValue(c, win, kind, 0), "final value");
    }

    private static void maxMinContention(final CaseContext c)
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
        c.checkEquals(top, finalValue(c, win, Kind.SHORT, 0), "MAX's final value");
        c.checkEquals(-top, finalValue(c, win, Kind.SHORT, 1), "MIN's final value");
    }

    private static short candidate(final int rank, final int slot)
    {
        return (short)-(1000 * rank + slot + 2);
    }

    /** Every rank adds 1 to rank 0's element {@code n} times by compareAndSwap, retrying with the value it fetched. */
    private static void casCounter(final CaseContext c, final Kind kind, final long start, final int n)
    {
        final Win win = c.window(kind.bytes, kind.bytes);
        storeAtRoot(c, win, kind, start);
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
        c.checkEquals(kind.normalise(start + (long)n * c.size()), finalValue(c, win, kind, 0), "counter");
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
