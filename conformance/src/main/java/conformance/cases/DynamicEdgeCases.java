package conformance.cases;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.Flavour;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * Dynamic windows at their edges (docs/conformance-checklist.md#dynamic-windows-attach-and-detach): accesses
 * to memory that is not attached, attach and detach errors, zero-size attach, PROC_NULL targets, sharedQuery
 * and the attributes. DynamicCases has the accesses to attached memory.
 */
public final class DynamicEdgeCases
{
    private DynamicEdgeCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.DYNAMIC)
            .add("dynamic.detached-access", 2, Behaviour.DYNAMIC_UNATTACHED_ACCESS,
                "the last rank puts 7 into rank 0's attached long and unlocks, then tells rank 0, which finds 7 and " +
                    "detaches; the last rank's get there is then MPI_ERR_RMA_RANGE at once, its put is " +
                    "MPI_ERR_RMA_RANGE at the next flush naming rank 0, and rank 0's array is untouched",
                "MPI-4.1 §12.2.4 (complete accesses before detach; detached memory is not exposed), §12.6.2; " +
                    "docs/design.md#dynamic-windows-attached-memory-and-its-addresses",
                    DynamicEdgeCases::detachedAccess)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .add("dynamic.reattach-new-address", Behaviour.DYNAMIC_UNATTACHED_ACCESS,
                "an array attached, detached and attached again gets a new, higher address; a get at the old " +
                    "one is MPI_ERR_RMA_RANGE, at the new one it reads the array",
                "MPI-4.1 §12.2.4; docs/design.md#dynamic-windows-attached-memory-and-its-addresses (addresses are " +
                    "never reused)", DynamicEdgeCases::reattachNewAddress)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .add("dynamic.past-region-end", 2, Behaviour.DYNAMIC_UNATTACHED_ACCESS,
                "rank 0 attaches a long[2]; the last rank's get of 3 longs there, get just past its end, " +
                    "compareAndSwap at address 8 and fetchAndOp just before it are MPI_ERR_RMA_RANGE at once; an " +
                    "accumulate of 2 longs at its last long is MPI_ERR_RMA_RANGE at flush and applies nothing, " +
                    "one of 1 long applies",
                "MPI-4.1 §12.2.4, §12.6.2 (MPI_ERR_RMA_RANGE); " +
                    "docs/design.md#dynamic-windows-attached-memory-and-its-addresses", DynamicEdgeCases::pastRegionEnd)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .add("dynamic.fault-at-fence", 2, Behaviour.DYNAMIC_UNATTACHED_ACCESS,
                "in a fence epoch the last rank puts to an address rank 0 has not attached: the next fence is " +
                    "MPI_ERR_RMA_RANGE on every rank, and the window works afterwards",
                "MPI-4.1 §12.2.4, §12.5.1; docs/design.md#dynamic-windows-attached-memory-and-its-addresses (a " +
                    "fence reports it on every process)", DynamicEdgeCases::faultAtFence)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .add("dynamic.attach-errors", Behaviour.DYNAMIC_ATTACH_ERRORS,
                "attaching the same array twice or a slice overlapping an attached one is MPI_ERR_RMA_ATTACH; an " +
                    "adjacent slice attaches; null, a String and a boolean[] are MPI_ERR_BASE; detaching memory " +
                    "not attached (twice, or never) and the address of detached memory are MPI_ERR_BASE, an address " +
                    "past an attached slice MPI_ERR_ARG",
                "MPI-4.1 §12.2.4, §12.6.2 (MPI_ERR_RMA_ATTACH); " +
                    "docs/design.md#dynamic-windows-attached-memory-and-its-addresses", DynamicEdgeCases::attachErrors)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .add("dynamic.flavor-errors", Behaviour.DYNAMIC_ATTACH_ERRORS,
                "attach, detach and address on a window of Win.create: MPI_ERR_RMA_FLAVOR",
                "MPI-4.1 §12.2.4 (attach to dynamic windows only), §12.6.2 (MPI_ERR_RMA_FLAVOR)",
                DynamicEdgeCases::flavorErrors)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .add("dynamic.zero-size-attach", 2, Behaviour.DYNAMIC_ZERO_AND_PROC_NULL,
                "each rank attaches two long[0] (distinct addresses) and sends one's address: puts and gets of 0 " +
                    "elements there work; a get of 1 long is MPI_ERR_RMA_RANGE at once, a put at the next flush",
                "MPI-4.1 §12.2.4, §12.3 (zero counts); MPICH rmazero", DynamicEdgeCases::zeroSizeAttach)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .add("dynamic.proc-null", Behaviour.DYNAMIC_ZERO_AND_PROC_NULL,
                "every RMA call to PROC_NULL, at an address nobody attached, does nothing in a lockAll and in a " +
                    "fence epoch: no error at the call or at flush, unlockAll and fence, buffers untouched",
                "MPI-4.1 §12.3 (PROC_NULL valid in all RMA calls); MPICH rmanull; docs/design.md#proc-null-targets",
                DynamicEdgeCases::procNull)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .add("dynamic.shared-query", Behaviour.DYNAMIC_QUERY_ATTRIBUTES,
                "sharedQuery of every rank, this one included, and of PROC_NULL is size 0 with no memory, before " +
                    "and after memory is attached",
                "MPI-4.1 §12.2.3 (memory not shared with the caller, or not allocated by the window, has size 0)",
                DynamicEdgeCases::sharedQuery)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .add("dynamic.attributes", Behaviour.DYNAMIC_QUERY_ATTRIBUTES,
                "a dynamic window reports WIN_CREATE_FLAVOR FLAVOR_DYNAMIC, WIN_MODEL SEPARATE, WIN_SIZE 0, " +
                    "WIN_DISP_UNIT 1 and WIN_BASE MemorySegment.NULL (MPI_BOTTOM), memory attached or not",
                "MPI-4.1 §12.2.4, §12.2.6; MPICH win_flavors", DynamicEdgeCases::attributes)
            .only(EnumSet.of(Flavour.DYNAMIC), DynamicCases.DYNAMIC_ITSELF)
            .list();
    }

    private static void detachedAccess(final CaseContext c) throws Exception
    {
        final long[] array = new long[2];
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        final long address = c.gather(win.attach(array))[0];
        if (c.rank() == c.last())
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            win.put(new long[] {7}, 0, 1, MPI.LONG, 0, address, 1, MPI.LONG);
            win.unlock(0);
            c.send(1, 0);
            c.receive(0);
            win.lock(Win.LOCK_SHARED, 0, 0);
            c.expectError(ErrorClass.ERR_RMA_RANGE, "get from detached memory",
                () -> win.get(new long[1], 0, 1, MPI.LONG, 0, address, 1, MPI.LONG));
            win.put(new long[] {8}, 0, 1, MPI.LONG, 0, address, 1, MPI.LONG);
            final RmaException e = c.expectError(ErrorClass.ERR_RMA_RANGE,
                "flush after a put to detached memory", () -> win.flush(0));
            c.check(e == null || e.getMessage().contains("rank 0") &&
                e.getMessage().contains(Long.toString(address)), "the message names no rank or address: " +
                (e == null ? "" : e.getMessage()));
            win.unlock(0);
        }
        else if (c.isRoot())
        {
            c.receive(c.last());
            c.checkEquals(7, array[0], "the put completed before the detach");
            win.detach(array);
            c.send(1, c.last());
        }
        c.barrier();
        if (c.isRoot())
        {
            c.checkEquals(7, array[0], "the detached array after the put to it");
        }
    }

    private static void reattachNewAddress(final CaseContext c) throws Exception
    {
        final long[] array = {42};
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        final long old = win.attach(array);
        win.detach(array);
        final long again = win.attach(array);
        c.check(again > old, "address after reattaching " + again + " is not above the old " + old);
        final long[] got = new long[1];
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.expectError(ErrorClass.ERR_RMA_RANGE, "get at the old address",
            () -> win.get(got, 0, 1, MPI.LONG, c.rank(), old, 1, MPI.LONG));
        win.get(got, 0, 1, MPI.LONG, c.rank(), again, 1, MPI.LONG);
        win.unlock(c.rank());
        c.checkEquals(42, got[0], "value at the new address");
    }

    private static void pastRegionEnd(final CaseContext c) throws Exception
    {
        final long[] array = new long[2];
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        final long address = c.gather(win.attach(array))[0];
        if (c.rank() == c.last())
        {
            final long[] result = new long[3];
            win.lock(Win.LOCK_SHARED, 0, 0);
            c.expectError(ErrorClass.ERR_RMA_RANGE, "get of 3 longs from a region of 2",
                () -> win.get(result, 0, 3, MPI.LONG, 0, address, 3, MPI.LONG));
            c.expectError(ErrorClass.ERR_RMA_RANGE, "get just past the region",
                () -> win.get(result, 0, 1, MPI.LONG, 0, address + 16, 1, MPI.LONG));
            c.expectError(ErrorClass.ERR_RMA_RANGE, "compareAndSwap at address 8",
                () -> win.compareAndSwap(new long[] {1}, 0, new long[] {0}, 0, result, 0, MPI.LONG, 0, 8));
            c.expectError(ErrorClass.ERR_RMA_RANGE, "fetchAndOp just before the region",
                () -> win.fetchAndOp(new long[] {1}, 0, result, 0, MPI.LONG, 0, address - 8, MPI.SUM));
            win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 0, address + 8, 1, MPI.LONG, MPI.SUM);
            win.accumulate(new long[] {5, 5}, 0, 2, MPI.LONG, 0, address + 8, 2, MPI.LONG, MPI.SUM);
            c.expectError(ErrorClass.ERR_RMA_RANGE, "flush after an accumulate past the region",
                () -> win.flush(0));
            win.unlock(0);
        }
        c.barrier();
        if (c.isRoot())
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            c.checkEquals("[0, 1]", Arrays.toString(array), "rank 0's array");
            win.unlock(0);
        }
    }

    private static void faultAtFence(final CaseContext c) throws Exception
    {
        final long[] array = new long[1];
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        final long address = c.gather(win.attach(array))[0];
        win.fence(0);
        if (c.rank() == c.last())
        {
            win.put(new long[] {1}, 0, 1, MPI.LONG, 0, address + 4096, 1, MPI.LONG);
        }
        c.expectError(ErrorClass.ERR_RMA_RANGE, "fence after a put to unattached memory",
            () -> win.fence(0));
        win.fence(0);
        if (c.rank() == c.last())
        {
            win.put(new long[] {2}, 0, 1, MPI.LONG, 0, address, 1, MPI.LONG);
        }
        win.fence(Win.MODE_NOSUCCEED);
        if (c.isRoot())
        {
            c.checkEquals(2, array[0], "value put after the failed fence");
        }
    }

    private static void attachErrors(final CaseContext c) throws Exception
    {
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        final long[] array = new long[8];
        final MemorySegment native64 = Arena.ofAuto().allocate(64, 8);
        win.attach(array);
        c.expectError(ErrorClass.ERR_RMA_ATTACH, "the same array twice", () -> win.attach(array));
        win.attach(native64.asSlice(0, 32));
        c.expectError(ErrorClass.ERR_RMA_ATTACH, "bytes 16-47 over bytes 0-31",
            () -> win.attach(native64.asSlice(16, 32)));
        win.attach(native64.asSlice(32, 32));
        c.expectError(ErrorClass.ERR_BASE, "attach(null)", () -> win.attach(null));
        c.expectError(ErrorClass.ERR_BASE, "attach of a String", () -> win.attach("memory"));
        c.expectError(ErrorClass.ERR_BASE, "attach of a boolean[]", () -> win.attach(new boolean[4]));
        c.expectError(ErrorClass.ERR_BASE, "detach of memory never attached",
            () -> win.detach(new long[8]));
        win.detach(array);
        c.expectError(ErrorClass.ERR_BASE, "second detach", () -> win.detach(array));
        c.expectError(ErrorClass.ERR_BASE, "address of detached memory", () -> win.address(array, 0));
        c.expectError(ErrorClass.ERR_ARG, "address past the slice",
            () -> win.address(native64.asSlice(0, 32), 33));
        win.attach(array);
    }

    private static void flavorErrors(final CaseContext c) throws Exception
    {
        final long[] array = new long[2];
        final Win created = c.keep(Win.create(new long[2], Long.BYTES, null, c.comm()));
        c.expectError(ErrorClass.ERR_RMA_FLAVOR, "attach", () -> created.attach(array));
        c.expectError(ErrorClass.ERR_RMA_FLAVOR, "detach", () -> created.detach(array));
        c.expectError(ErrorClass.ERR_RMA_FLAVOR, "address", () -> created.address(array, 0));
    }

    private static void zeroSizeAttach(final CaseContext c) throws Exception
    {
        final long[] empty = new long[0];
        final long[] other = new long[0];
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        final long mine = win.attach(empty);
        c.check(win.attach(other) != mine, "two empty arrays got one address");
        c.checkEquals(mine, win.address(empty, 0), "address(empty, 0)");
        final long[] addresses = c.gather(mine);
        final int right = (c.rank() + 1) % c.size();
        win.lockAll(0);
        win.put(new long[0], 0, 0, MPI.LONG, right, addresses[right], 0, MPI.LONG);
        win.get(new long[0], 0, 0, MPI.LONG, right, addresses[right], 0, MPI.LONG);
        win.flush(right);
        c.expectError(ErrorClass.ERR_RMA_RANGE, "get of 1 long from an empty region",
            () -> win.get(new long[1], 0, 1, MPI.LONG, right, addresses[right], 1, MPI.LONG));
        win.put(new long[] {1}, 0, 1, MPI.LONG, right, addresses[right], 1, MPI.LONG);
        c.expectError(ErrorClass.ERR_RMA_RANGE, "flush after a put of 1 long to an empty region",
            () -> win.flush(right));
        win.unlockAll();
        c.barrier();
        win.detach(empty);
    }

    private static void procNull(final CaseContext c) throws Exception
    {
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        final long nowhere = 12_345;
        final long[] result = {-1};
        win.lockAll(0);
        win.put(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, nowhere, 1, MPI.LONG);
        win.get(result, 0, 1, MPI.LONG, MPI.PROC_NULL, nowhere, 1, MPI.LONG);
        win.accumulate(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, nowhere, 1, MPI.LONG, MPI.SUM);
        win.getAccumulate(new long[] {1}, 0, 1, MPI.LONG, result, 0, 1, MPI.LONG, MPI.PROC_NULL, nowhere,
            1, MPI.LONG, MPI.SUM);
        win.fetchAndOp(new long[] {1}, 0, result, 0, MPI.LONG, MPI.PROC_NULL, nowhere, MPI.SUM);
        win.compareAndSwap(new long[] {1}, 0, new long[] {0}, 0, result, 0, MPI.LONG, MPI.PROC_NULL,
            nowhere);
        win.flush(MPI.PROC_NULL);
        win.unlockAll();
        win.fence(0);
        win.put(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, nowhere, 1, MPI.LONG);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals(-1, result[0], "result buffer");
    }

    private static void sharedQuery(final CaseContext c) throws Exception
    {
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        checkNothingShared(c, win, "before attach");
        win.attach(new long[4]);
        checkNothingShared(c, win, "after attach");
    }

    private static void attributes(final CaseContext c) throws Exception
    {
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        win.attach(new int[16]);
        c.checkEquals(Integer.valueOf(Win.FLAVOR_DYNAMIC), win.getAttr(Win.WIN_CREATE_FLAVOR), "flavor");
        c.checkEquals(Integer.valueOf(Win.SEPARATE), win.getAttr(Win.WIN_MODEL), "model");
        c.checkEquals(Long.valueOf(0), win.getAttr(Win.WIN_SIZE), "WIN_SIZE");
        c.checkEquals(Integer.valueOf(1), win.getAttr(Win.WIN_DISP_UNIT), "WIN_DISP_UNIT");
        c.checkEquals(MemorySegment.NULL, win.getAttr(Win.WIN_BASE), "WIN_BASE");
        c.checkEquals(0, win.size(), "size()");
    }

    private static void checkNothingShared(final CaseContext c, final Win win, final String when)
    {
        for (int r = 0; r < c.size(); r++)
        {
            c.checkEquals(0, win.sharedQuery(r).size(), "sharedQuery(" + r + ").size() " + when);
            c.checkEquals(0, win.sharedQuery(r).memory().byteSize(), "sharedQuery(" + r + ") memory " + when);
        }
        c.checkEquals(0, win.sharedQuery(MPI.PROC_NULL).size(), "sharedQuery(PROC_NULL).size() " + when);
    }
}
