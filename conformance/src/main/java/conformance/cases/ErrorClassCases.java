package conformance.cases;

import java.util.EnumSet;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.Flavour;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.Win;

/**
 * The error class of each kind of mistake, and the info keys of windows: their values checked, what getInfo
 * reports, and what the keys change (docs/conformance-checklist.md#error-classes-and-info-keys).
 */
public final class ErrorClassCases
{
    private ErrorClassCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.ERROR_CLASSES)
            .add("errclass.one-sided-names", Behaviour.ERRCLASS_EACH,
                "ErrorClass has every one-sided class of MPI-4.1, each named as MPI names it",
                "MPI-4.1 §12.6.2 (Table 12.3)", ErrorClassCases::oneSidedNames)
            .add("errclass.null-comm", Behaviour.ERRCLASS_EACH,
                "making a window of the configuration's flavour on a null communicator: MPI_ERR_COMM",
                "MPI-4.1 §9.4 (MPI_ERR_COMM), §12.2; docs/design.md#error-classes", ErrorClassCases::nullComm)
            .add("errclass.communication", Behaviour.ERRCLASS_EACH,
                "in a fence epoch: a negative displacement is MPI_ERR_DISP, a negative count MPI_ERR_COUNT, a long[] " +
                    "described as INT MPI_ERR_TYPE, MAXLOC MPI_ERR_OP, a null result MPI_ERR_BUFFER, rank size " +
                    "MPI_ERR_RANK, a target past the end MPI_ERR_RMA_RANGE",
                "MPI-4.1 §9.4, §12.3, §12.6.2; docs/design.md#error-classes", ErrorClassCases::communication)
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .add("errclass.range-every-call", Behaviour.ERRCLASS_EACH,
                "in a lockAll epoch, put, get, accumulate, getAccumulate, rPut, rGet, rAccumulate and rGetAccumulate " +
                    "of 2 longs at the right neighbour's last long, and fetchAndOp and compareAndSwap just past it: " +
                    "each MPI_ERR_RMA_RANGE, and the neighbour's longs are unchanged",
                "MPI-4.1 §12.6.2 (MPI_ERR_RMA_RANGE), §12.3; docs/design.md#accesses-past-the-end-are-rejected",
                ErrorClassCases::rangeEveryCall)
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .add("errclass.negative-disp-every-call", Behaviour.ERRCLASS_EACH,
                "target displacement -1 in put, get, accumulate, getAccumulate, fetchAndOp, compareAndSwap, rPut, " +
                    "rGet, rAccumulate and rGetAccumulate: each MPI_ERR_DISP",
                "MPI-4.1 §12.3, §9.4 (MPI_ERR_DISP); docs/design.md#error-classes",
                ErrorClassCases::negativeDispEveryCall)
            .add("errclass.fetching-call-buffers", Behaviour.ERRCLASS_EACH,
                "fetchAndOp with a null result is MPI_ERR_BUFFER, with an int[] result for LONG MPI_ERR_TYPE, with " +
                    "result offset 1 of a long[1] MPI_ERR_ARG; compareAndSwap with a null compare MPI_ERR_BUFFER, an " +
                    "int[] compare MPI_ERR_TYPE; getAccumulate with 2 results for 1 target element MPI_ERR_COUNT, " +
                    "a double[] result MPI_ERR_TYPE; the target is unchanged",
                "MPI-4.1 §12.3.4.2-4, §9.4; docs/design.md#every-argument-is-checked",
                ErrorClassCases::fetchingCallBuffers)
            .add("errclass.null-op-and-type", Behaviour.ERRCLASS_EACH,
                "a null op in accumulate, getAccumulate, fetchAndOp and rAccumulate is MPI_ERR_OP; a null datatype " +
                    "in put (origin), get (target), fetchAndOp and compareAndSwap is MPI_ERR_TYPE",
                "MPI-4.1 §9.4 (MPI_ERR_OP, MPI_ERR_TYPE), §12.3; docs/design.md#error-classes",
                ErrorClassCases::nullOpAndType)
            .add("errclass.synchronisation", Behaviour.ERRCLASS_EACH,
                "lock type 7 is MPI_ERR_LOCKTYPE, MODE_NOPUT on a lock MPI_ERR_ASSERT, unlock without lock " +
                    "MPI_ERR_RMA_SYNC, any call after free MPI_ERR_WIN",
                "MPI-4.1 §12.5.3, §12.5.5, §12.6.2; docs/design.md#error-classes", ErrorClassCases::synchronisation)
            .add("errclass.info-objects", Behaviour.ERRCLASS_EACH,
                "Info: a null or empty key is MPI_ERR_INFO_KEY, deleting a key with no value MPI_ERR_INFO_NOKEY, a " +
                    "null value MPI_ERR_INFO_VALUE, copying null MPI_ERR_INFO",
                "MPI-4.1 §10.4 (MPI_Info_set, MPI_Info_delete), §9.4", ErrorClassCases::infoObjects)
            .add("info.granularity-checked", 2, Behaviour.INFO_VALUES,
                "mpi_accumulate_granularity=-8 on the last rank only: MPI_ERR_INFO_VALUE on every rank; 64 is echoed " +
                    "by getInfo",
                "MPI-4.1 §12.2.1 (mpi_accumulate_granularity), §12.2.7; MPICH win_info",
                ErrorClassCases::granularityChecked)
            .add("info.ordering-and-ops", Behaviour.INFO_VALUES,
                "accumulate_ordering=none and accumulate_ops=same_op are accepted and echoed; accumulates still sum " +
                    "right; accumulate_ordering=rar,bad is MPI_ERR_INFO_VALUE naming the valid values",
                "MPI-4.1 §12.2.1, §12.7.2; MPICH win_info", ErrorClassCases::orderingAndOps)
            .add("info.alignment-checked", Behaviour.INFO_VALUES,
                "mpi_minimum_memory_alignment=96 (no power of two) and 8192 (more than a page): " +
                    "MPI_ERR_INFO_VALUE, listing the valid values",
                "MPI-4.1 §12.2.2, §9.4; docs/design.md#info-hints", ErrorClassCases::alignmentChecked)
            .add("info.alignment-honoured", Behaviour.INFO_ALIGNMENT,
                "sizes of 8 * rank + 3 bytes with mpi_minimum_memory_alignment=64: every non-empty segment starts on " +
                    "64 bytes, sizes stay as asked, and getInfo reports a power of two of at least 64",
                "MPI-4.1 §12.2.2, §12.2.3; docs/design.md#info-hints", ErrorClassCases::alignmentHonoured)
            .only(EnumSet.of(Flavour.SHARED, Flavour.ALLOCATE), "memory the library lays out: Win.create exposes " +
                "the program's own, whose alignment is the program's")
            .add("info.alignment-not-for-own-memory", Behaviour.INFO_ALIGNMENT,
                "Win.create with mpi_minimum_memory_alignment=64: accepted, and getInfo does not report the key " +
                    "(the memory is the program's)",
                "MPI-4.1 §12.2.1, §12.2.7; docs/design.md#info-hints", ErrorClassCases::alignmentNotForOwnMemory)
            .only(EnumSet.of(Flavour.CREATE), "checks Win.create itself")
            .add("info.no-locks", Behaviour.INFO_NO_LOCKS,
                "with no_locks=true, lock, lockAll and rGet are MPI_ERR_RMA_SYNC naming the hint; fence epochs work " +
                    "and getInfo reports no_locks=true",
                "MPI-4.1 §12.2.1 (no_locks: passive target is not used), §12.3.5", ErrorClassCases::noLocks)
            .list();
    }

    private static void oneSidedNames(final CaseContext c) throws Exception
    {
        for (final String name : List.of("WIN", "BASE", "SIZE", "DISP", "LOCKTYPE", "ASSERT",
            "RMA_CONFLICT", "RMA_SYNC", "RMA_RANGE", "RMA_ATTACH", "RMA_SHARED", "RMA_FLAVOR"))
        {
            c.checkEquals("MPI_ERR_" + name, ErrorClass.valueOf("ERR_" + name).mpiName(), name);
        }
    }

    private static void nullComm(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_COMM, "window on comm=null",
            () -> c.unkeptWindow(8, 8, null, null));
    }

    private static void communication(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final long[] one = new long[1];
        win.fence(0);
        c.expectError(ErrorClass.ERR_DISP, "put at -1",
            () -> win.put(one, 0, 1, MPI.LONG, c.rank(), -1, 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_COUNT, "put of -1",
            () -> win.put(one, 0, -1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), -1, MPI.LONG));
        c.expectError(ErrorClass.ERR_TYPE, "long[] as INT",
            () -> win.put(one, 0, 1, MPI.INT, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.INT));
        c.expectError(ErrorClass.ERR_OP, "accumulate(MAXLOC)",
            () -> win.accumulate(one, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG,
                MPI.MAXLOC));
        c.expectError(ErrorClass.ERR_BUFFER, "getAccumulate into null", () -> win.getAccumulate(one, 0,
            1, MPI.LONG, null, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG, MPI.SUM));
        c.expectError(ErrorClass.ERR_RANK, "get from rank size",
            () -> win.get(one, 0, 1, MPI.LONG, c.size(), 0, 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "get past the end",
            () -> win.get(one, 0, 1, MPI.LONG, c.rank(), 1, 1, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void rangeEveryCall(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        win.fence(0);
        Memory.setLong(c.memory(win), 0, 70 + c.rank());
        Memory.setLong(c.memory(win), 1, 80 + c.rank());
        win.fence(Win.MODE_NOSUCCEED);
        final int right = (c.rank() + 1) % c.size();
        final long[] two = {-1, -1};
        final long[] result = new long[2];
        win.lockAll(0);
        c.expectError(ErrorClass.ERR_RMA_RANGE, "put", () -> win.put(two, 0, 2, MPI.LONG, right, 1, 2,
            MPI.LONG));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "get", () -> win.get(result, 0, 2, MPI.LONG, right, 1, 2,
            MPI.LONG));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "accumulate", () -> win.accumulate(two, 0, 2, MPI.LONG,
            right, 1, 2, MPI.LONG, MPI.SUM));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "getAccumulate", () -> win.getAccumulate(two, 0, 2,
            MPI.LONG, result, 0, 2, MPI.LONG, right, 1, 2, MPI.LONG, MPI.SUM));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "fetchAndOp", () -> win.fetchAndOp(two, 0, result, 0,
            MPI.LONG, right, 2, MPI.SUM));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "compareAndSwap", () -> win.compareAndSwap(two, 0, two, 1,
            result, 0, MPI.LONG, right, 2));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "rPut", () -> win.rPut(two, 0, 2, MPI.LONG, right, 1, 2,
            MPI.LONG));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "rGet", () -> win.rGet(result, 0, 2, MPI.LONG, right, 1, 2,
            MPI.LONG));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "rAccumulate", () -> win.rAccumulate(two, 0, 2, MPI.LONG,
            right, 1, 2, MPI.LONG, Win.REPLACE));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "rGetAccumulate", () -> win.rGetAccumulate(two, 0, 2,
            MPI.LONG, result, 0, 2, MPI.LONG, right, 1, 2, MPI.LONG, MPI.SUM));
        win.unlockAll();
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.checkEquals(70 + c.rank(), Memory.getLong(c.memory(win), 0), "own long 0");
        c.checkEquals(80 + c.rank(), Memory.getLong(c.memory(win), 1), "own long 1");
        win.unlock(c.rank());
    }

    private static void negativeDispEveryCall(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        final int right = (c.rank() + 1) % c.size();
        final long[] one = {1};
        final long[] result = new long[1];
        win.lockAll(0);
        c.expectError(ErrorClass.ERR_DISP, "put", () -> win.put(one, 0, 1, MPI.LONG, right, -1, 1,
            MPI.LONG));
        c.expectError(ErrorClass.ERR_DISP, "get", () -> win.get(result, 0, 1, MPI.LONG, right, -1, 1,
            MPI.LONG));
        c.expectError(ErrorClass.ERR_DISP, "accumulate", () -> win.accumulate(one, 0, 1, MPI.LONG, right,
            -1, 1, MPI.LONG, MPI.SUM));
        c.expectError(ErrorClass.ERR_DISP, "getAccumulate", () -> win.getAccumulate(one, 0, 1, MPI.LONG,
            result, 0, 1, MPI.LONG, right, -1, 1, MPI.LONG, MPI.SUM));
        c.expectError(ErrorClass.ERR_DISP, "fetchAndOp", () -> win.fetchAndOp(one, 0, result, 0, MPI.LONG,
            right, -1, MPI.SUM));
        c.expectError(ErrorClass.ERR_DISP, "compareAndSwap", () -> win.compareAndSwap(one, 0, one, 0,
            result, 0, MPI.LONG, right, -1));
        c.expectError(ErrorClass.ERR_DISP, "rPut", () -> win.rPut(one, 0, 1, MPI.LONG, right, -1, 1,
            MPI.LONG));
        c.expectError(ErrorClass.ERR_DISP, "rGet", () -> win.rGet(result, 0, 1, MPI.LONG, right, -1, 1,
            MPI.LONG));
        c.expectError(ErrorClass.ERR_DISP, "rAccumulate", () -> win.rAccumulate(one, 0, 1, MPI.LONG,
            right, -1, 1, MPI.LONG, MPI.SUM));
        c.expectError(ErrorClass.ERR_DISP, "rGetAccumulate", () -> win.rGetAccumulate(one, 0, 1, MPI.LONG,
            result, 0, 1, MPI.LONG, right, -1, 1, MPI.LONG, MPI.SUM));
        win.unlockAll();
    }

    private static void fetchingCallBuffers(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        Memory.setLong(c.memory(win), 0, 42);
        win.fence(Win.MODE_NOSUCCEED);
        final int right = (c.rank() + 1) % c.size();
        final long at = c.disp(win, right, 0);
        final long[] one = {1};
        win.lockAll(0);
        c.expectError(ErrorClass.ERR_BUFFER, "fetchAndOp into null", () -> win.fetchAndOp(one, 0, null, 0,
            MPI.LONG, right, at, MPI.SUM));
        c.expectError(ErrorClass.ERR_BUFFER, "fetchAndOp(SUM) from null", () -> win.fetchAndOp(null, 0,
            new long[1], 0, MPI.LONG, right, at, MPI.SUM));
        c.expectError(ErrorClass.ERR_TYPE, "fetchAndOp into an int[]", () -> win.fetchAndOp(one, 0,
            new int[1], 0, MPI.LONG, right, at, MPI.SUM));
        c.expectError(ErrorClass.ERR_ARG, "fetchAndOp at result offset 1 of a long[1]",
            () -> win.fetchAndOp(one, 0, new long[1], 1, MPI.LONG, right, at, MPI.SUM));
        c.expectError(ErrorClass.ERR_BUFFER, "compareAndSwap with a null compare",
            () -> win.compareAndSwap(one, 0, null, 0, new long[1], 0, MPI.LONG, right, at));
        c.expectError(ErrorClass.ERR_TYPE, "compareAndSwap with an int[] compare",
            () -> win.compareAndSwap(one, 0, new int[1], 0, new long[1], 0, MPI.LONG, right, at));
        c.expectError(ErrorClass.ERR_COUNT, "getAccumulate of 2 results for 1 element",
            () -> win.getAccumulate(one, 0, 1, MPI.LONG, new long[2], 0, 2, MPI.LONG, right, at, 1,
                MPI.LONG, MPI.SUM));
        c.expectError(ErrorClass.ERR_TYPE, "getAccumulate into a double[]",
            () -> win.getAccumulate(one, 0, 1, MPI.LONG, new double[1], 0, 1, MPI.LONG, right, at, 1,
                MPI.LONG, MPI.SUM));
        win.unlockAll();
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.checkEquals(42, Memory.getLong(c.memory(win), 0), "own long after the refused calls");
        win.unlock(c.rank());
    }

    private static void nullOpAndType(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final int right = (c.rank() + 1) % c.size();
        final long at = c.disp(win, right, 0);
        final long[] one = {1};
        final long[] result = new long[1];
        win.lockAll(0);
        c.expectError(ErrorClass.ERR_OP, "accumulate(null op)", () -> win.accumulate(one, 0, 1, MPI.LONG,
            right, at, 1, MPI.LONG, null));
        c.expectError(ErrorClass.ERR_OP, "getAccumulate(null op)", () -> win.getAccumulate(one, 0, 1,
            MPI.LONG, result, 0, 1, MPI.LONG, right, at, 1, MPI.LONG, null));
        c.expectError(ErrorClass.ERR_OP, "fetchAndOp(null op)", () -> win.fetchAndOp(one, 0, result, 0,
            MPI.LONG, right, at, null));
        c.expectError(ErrorClass.ERR_OP, "rAccumulate(null op)", () -> win.rAccumulate(one, 0, 1, MPI.LONG,
            right, at, 1, MPI.LONG, null));
        c.expectError(ErrorClass.ERR_TYPE, "put with a null origin type", () -> win.put(one, 0, 1, null,
            right, at, 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_TYPE, "get with a null target type", () -> win.get(result, 0, 1,
            MPI.LONG, right, at, 1, null));
        c.expectError(ErrorClass.ERR_TYPE, "fetchAndOp with a null type", () -> win.fetchAndOp(one, 0,
            result, 0, null, right, at, MPI.SUM));
        c.expectError(ErrorClass.ERR_TYPE, "compareAndSwap with a null type", () -> win.compareAndSwap(one,
            0, one, 0, result, 0, null, right, at));
        win.unlockAll();
    }

    private static void synchronisation(final CaseContext c) throws Exception
    {
        final Win win = c.unkeptWindow(8, 8, null, c.comm());
        c.expectError(ErrorClass.ERR_LOCKTYPE, "lock type 7", () -> win.lock(7, c.rank(), 0));
        c.expectError(ErrorClass.ERR_ASSERT, "lock with MODE_NOPUT",
            () -> win.lock(Win.LOCK_SHARED, c.rank(), Win.MODE_NOPUT));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "unlock without lock", () -> win.unlock(c.rank()));
        win.free();
        c.expectError(ErrorClass.ERR_WIN, "lockAll after free", () -> win.lockAll(0));
    }

    private static void infoObjects(final CaseContext c) throws Exception
    {
        final Info info = new Info();
        c.expectError(ErrorClass.ERR_INFO_KEY, "set(null key)", () -> info.set(null, "v"));
        c.expectError(ErrorClass.ERR_INFO_KEY, "set(empty key)", () -> info.set("", "v"));
        c.expectError(ErrorClass.ERR_INFO_NOKEY, "delete(absent)", () -> info.delete("absent"));
        c.expectError(ErrorClass.ERR_INFO_VALUE, "set(null value)", () -> info.set("k", null));
        c.expectError(ErrorClass.ERR_INFO, "new Info(null)", () -> new Info(null));
    }

    private static void granularityChecked(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_INFO_VALUE, "granularity -8 on the last rank", () -> c.window(8, 8,
            CaseContext.info("mpi_accumulate_granularity", c.rank() == c.last() ? "-8" : "8")));
        final Win win = c.window(8, 8, CaseContext.info("mpi_accumulate_granularity", "64"));
        c.checkEquals("64", win.getInfo().get("mpi_accumulate_granularity"), "getInfo");
    }

    private static void orderingAndOps(final CaseContext c) throws Exception
    {
        final Info given = CaseContext.info("accumulate_ordering", "none");
        given.set("accumulate_ops", "same_op");
        final Win win = c.window(8, 8, given);
        c.checkEquals("none", win.getInfo().get("accumulate_ordering"), "accumulate_ordering");
        c.checkEquals("same_op", win.getInfo().get("accumulate_ops"), "accumulate_ops");
        win.fence(0);
        win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG, MPI.SUM);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals(c.size(), Memory.getLong(c.memoryOf(win, 0), 0), "sum at rank 0");
        final var e = c.expectError(ErrorClass.ERR_INFO_VALUE, "accumulate_ordering=rar,bad",
            () -> c.window(8, 8, CaseContext.info("accumulate_ordering", "rar,bad")));
        c.check(e == null || e.getMessage().contains("rar, raw, war, waw"), "the message lists no " +
            "valid value: " + (e == null ? "" : e.getMessage()));
    }

    private static void alignmentChecked(final CaseContext c) throws Exception
    {
        for (final String value : List.of("96", "8192"))
        {
            final var e = c.expectError(ErrorClass.ERR_INFO_VALUE, "alignment " + value,
                () -> c.window(8, 8, CaseContext.info("mpi_minimum_memory_alignment", value)));
            c.check(e == null || e.getMessage().contains("power of two from 1 to 4096"), "the message " +
                "lists no valid value: " + (e == null ? "" : e.getMessage()));
        }
    }

    private static void alignmentHonoured(final CaseContext c) throws Exception
    {
        final Win win = c.window(8L * c.rank() + 3, 1,
            CaseContext.info("mpi_minimum_memory_alignment", "64"));
        final long reported = Long.parseLong(win.getInfo().get("mpi_minimum_memory_alignment"));
        c.check(reported >= 64 && Long.bitCount(reported) == 1, "getInfo reports " + reported);
        c.checkEquals(8L * c.rank() + 3, win.size(), "size");
        c.checkEquals(0, CaseContext.address(c.memory(win)) % 64, "own base address mod 64");
        if (c.isShared())
        {
            for (int r = 0; r < c.size(); r++)
            {
                final var segment = win.sharedQuery(r);
                c.checkEquals(8L * r + 3, segment.size(), "size of rank " + r);
                c.checkEquals(0, CaseContext.address(segment.memory()) % 64, "rank " + r + " mod 64");
            }
        }
    }

    private static void alignmentNotForOwnMemory(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8, CaseContext.info("mpi_minimum_memory_alignment", "64"));
        c.checkEquals(null, win.getInfo().get("mpi_minimum_memory_alignment"), "getInfo");
    }

    private static void noLocks(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8, CaseContext.info("no_locks", "true"));
        final var e = c.expectError(ErrorClass.ERR_RMA_SYNC, "lock",
            () -> win.lock(Win.LOCK_SHARED, c.rank(), 0));
        c.check(e == null || e.getMessage().contains("no_locks"), "the message does not name the hint: " +
            (e == null ? "" : e.getMessage()));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "lockAll", () -> win.lockAll(0));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "rGet",
            () -> win.rGet(new long[1], 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG));
        win.fence(0);
        win.put(new long[] {3}, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals(3, Memory.getLong(c.memory(win), 0), "put in a fence epoch");
        c.checkEquals("true", win.getInfo().get("no_locks"), "getInfo");
    }
}
