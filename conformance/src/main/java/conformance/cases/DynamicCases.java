package conformance.cases;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * The rules of dynamic windows (docs/conformance-checklist.md#dynamic-windows-attach-and-detach):
 * memory attached later and reached at its address, accesses to memory that is not attached,
 * attach and detach errors, zero-size attach, PROC_NULL targets, sharedQuery and the attributes.
 * Each case makes its windows with {@code Win.createDynamic} and exchanges addresses as a program
 * does; the other flavours run the cases of every flavour through {@code CaseContext.window}.
 */
public final class DynamicCases
{
    private static final String DYNAMIC_ITSELF = "checks Win.createDynamic's own rules (attach, detach, " +
        "addresses), which windows of the other flavours do not have";
    private static final int ITERATIONS = 25;
    /** The longs of one buffer whose halves are attached as two regions: MPICH's count. */
    private static final int TOUCHING_LONGS = 9216;

    private DynamicCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.DYNAMIC)
            .add("dynamic.attach-fence-put-get", Behaviour.DYNAMIC_ATTACHED_ACCESS,
                "each rank attaches a double[8] and sends its address; between fences each puts its rank + 0.5 at " +
                    "element 3 of its right neighbour (address + 24) and gets it back; the garbage collector runs " +
                    "between the calls: the neighbour's array holds it",
                "MPI-4.1 §12.2.4, §12.5.1; MPICH aint (addresses exchanged with Allgather)", c ->
                {
                    final double[] array = new double[8];
                    final Win win = c.keep(Win.createDynamic(null, c.comm()));
                    final long[] addresses = c.gather(win.attach(array));
                    c.checkEquals(addresses[c.rank()] + 24, win.address(array, 24), "address of element 3");
                    final int right = right(c);
                    win.fence(0);
                    System.gc();
                    win.put(new double[] {c.rank() + 0.5}, 0, 1, MPI.DOUBLE, right, addresses[right] + 24, 1,
                        MPI.DOUBLE);
                    System.gc();
                    win.fence(0);
                    c.check(array[3] == left(c) + 0.5, "array[3] is " + array[3] + ", expected " + (left(c) + 0.5));
                    final double[] back = new double[1];
                    win.get(back, 0, 1, MPI.DOUBLE, right, addresses[right] + 24, 1, MPI.DOUBLE);
                    win.fence(Win.MODE_NOSUCCEED);
                    c.check(back[0] == c.rank() + 0.5, "got back " + back[0]);
                    win.detach(array);
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.accumulate-every-rank", Behaviour.DYNAMIC_ATTACHED_ACCESS,
                "each rank attaches one int; every rank adds 1 to every rank's int " + ITERATIONS + " times, each " +
                    "under an exclusive lock: each int ends at " + ITERATIONS + " * size",
                "MPI-4.1 §12.2.4, §12.3.4; MPICH win_dynamic_acc", c ->
                {
                    final int[] counter = new int[1];
                    final Win win = c.keep(Win.createDynamic(null, c.comm()));
                    final long[] addresses = c.gather(win.attach(counter));
                    for (int i = 0; i < ITERATIONS; i++)
                    {
                        for (int target = 0; target < c.size(); target++)
                        {
                            win.lock(Win.LOCK_EXCLUSIVE, target, 0);
                            win.accumulate(new int[] {1}, 0, 1, MPI.INT, target, addresses[target], 1, MPI.INT,
                                MPI.SUM);
                            win.unlock(target);
                        }
                    }
                    c.barrier();
                    win.lock(Win.LOCK_EXCLUSIVE, c.rank(), 0);
                    c.checkEquals((long)ITERATIONS * c.size(), counter[0], "own counter");
                    win.unlock(c.rank());
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.address-arithmetic", 2, Behaviour.DYNAMIC_ATTACHED_ACCESS,
                "each rank attaches an int[1024] and sends the address of element 512; its left neighbour gets " +
                    "elements 0 and 1023 at that address - 2048 and + 2044; the address of a slice of the array's " +
                    "segment is the array's address plus the slice's offset",
                "MPI-4.1 §12.2.4, §5.1.5 (address arithmetic, MPI_Aint_add/diff); MPICH aint", c ->
                {
                    final int[] array = new int[1024];
                    array[0] = 1000 + c.rank();
                    array[1023] = 2000 + c.rank();
                    final Win win = c.keep(Win.createDynamic(null, c.comm()));
                    final long base = win.attach(array);
                    final long[] middles = c.gather(win.address(array, 512L * Integer.BYTES));
                    c.checkEquals(base + 400, win.address(MemorySegment.ofArray(array).asSlice(400), 0),
                        "address of the slice at byte 400");
                    final int right = right(c);
                    final int[] ends = new int[2];
                    win.fence(Win.MODE_NOPRECEDE);
                    win.get(ends, 0, 1, MPI.INT, right, middles[right] - 512L * Integer.BYTES, 1, MPI.INT);
                    win.get(ends, 1, 1, MPI.INT, right, middles[right] + 511L * Integer.BYTES, 1, MPI.INT);
                    win.fence(Win.MODE_NOSUCCEED);
                    c.checkEquals("[" + (1000 + right) + ", " + (2000 + right) + "]", Arrays.toString(ends),
                        "elements 0 and 1023 of rank " + right);
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.several-regions", Behaviour.DYNAMIC_ATTACHED_ACCESS,
                "each rank attaches a long[4], an int[6] and 16 native bytes: their addresses do not overlap; puts " +
                    "into each region of the right neighbour land there; after the int[] is detached the other " +
                    "regions still work",
                "MPI-4.1 §12.2.4 (any number of regions, attached and detached while the window lives); MPICH " +
                    "linked_list", c ->
                {
                    final long[] longs = new long[4];
                    final int[] ints = new int[6];
                    final MemorySegment bytes = Arena.ofAuto().allocate(16, 8);
                    final Win win = c.keep(Win.createDynamic(null, c.comm()));
                    final long[] mine = {win.attach(longs), win.attach(ints), win.attach(bytes)};
                    checkDisjoint(c, mine, new long[] {32, 24, 16});
                    final long[] all = new long[3 * c.size()];
                    c.comm().Allgather(mine, 0, 3, MPI.LONG, all, 0, 3, MPI.LONG);
                    final int right = right(c);
                    win.lockAll(0);
                    win.put(new long[] {10 + c.rank()}, 0, 1, MPI.LONG, right, all[3 * right] + 8, 1, MPI.LONG);
                    win.put(new int[] {20 + c.rank()}, 0, 1, MPI.INT, right, all[3 * right + 1] + 20, 1, MPI.INT);
                    win.put(new long[] {30 + c.rank()}, 0, 1, MPI.LONG, right, all[3 * right + 2] + 8, 1, MPI.LONG);
                    win.unlockAll();
                    c.barrier();
                    win.lock(Win.LOCK_EXCLUSIVE, c.rank(), 0);
                    c.checkEquals(10 + left(c), longs[1], "long[1]");
                    c.checkEquals(20 + left(c), ints[5], "int[5]");
                    c.checkEquals(30 + left(c), bytes.get(ValueLayout.JAVA_LONG, 8), "native long at byte 8");
                    win.unlock(c.rank());
                    win.detach(ints);
                    c.barrier();
                    win.lockAll(0);
                    win.put(new long[] {40 + c.rank()}, 0, 1, MPI.LONG, right, all[3 * right] + 16, 1, MPI.LONG);
                    win.unlockAll();
                    c.barrier();
                    win.lock(Win.LOCK_EXCLUSIVE, c.rank(), 0);
                    c.checkEquals(40 + left(c), longs[2], "long[2] after the int[] was detached");
                    win.unlock(c.rank());
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.linked-list", Behaviour.DYNAMIC_ATTACHED_ACCESS,
                "a list headed by a long[2] {value, next} rank 0 attached: each rank makes 6 elements, attaching each " +
                    "new long[2] when it makes it, and appends it with compareAndSwap(nil to rank and address) on " +
                    "the next pointer of the last element it knows, in a lockAll epoch; rank 0 walks the list by " +
                    "those addresses: every element once",
                "MPI-4.1 §12.2.4 (memory attached while others access the window), §12.3.4.4; MPICH linked_list, " +
                    "linked_list_lockall", c ->
                {
                    final int n = 6;
                    final Win win = c.keep(Win.createDynamic(null, c.comm()));
                    final long[] head = {-1, 0};
                    final long headAddress = c.gather(c.isRoot() ? win.attach(head) : 0)[0];
                    final long headPointer = listPointer(0, headAddress);
                    final List<long[]> mine = new java.util.ArrayList<>();
                    final long[] old = new long[1];
                    long tail = headPointer;
                    c.barrier();
                    win.lockAll(0);
                    for (int i = 0; i < n; i++)
                    {
                        final long[] element = {100L * c.rank() + i, 0};
                        mine.add(element);
                        final long pointer = listPointer(c.rank(), win.attach(element));
                        while (true)
                        {
                            win.compareAndSwap(new long[] {pointer}, 0, new long[] {0}, 0, old, 0, MPI.LONG,
                                listOwner(tail), listAddress(tail) + Long.BYTES);
                            win.flush(listOwner(tail));
                            if (old[0] == 0)
                            {
                                tail = pointer;
                                break;
                            }
                            tail = old[0];
                        }
                    }
                    win.unlockAll();
                    c.barrier();
                    if (c.isRoot())
                    {
                        final boolean[] seen = new boolean[n * c.size()];
                        final long[] element = new long[2];
                        int count = 0;
                        long at = head[1];
                        win.lockAll(0);
                        while (at != 0 && count <= seen.length)
                        {
                            win.get(element, 0, 2, MPI.LONG, listOwner(at), listAddress(at), 2, MPI.LONG);
                            win.flush(listOwner(at));
                            final int slot = (int)(element[0] / 100) * n + (int)(element[0] % 100);
                            if (element[0] / 100 != listOwner(at) || element[0] % 100 >= n || seen[slot])
                            {
                                c.fail("element " + count + " holds " + element[0] + ": a wrong element, or one twice");
                                break;
                            }
                            seen[slot] = true;
                            count++;
                            at = element[1];
                        }
                        win.unlockAll();
                        c.checkEquals(seen.length, count, "elements in the list");
                    }
                    c.barrier();
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.touching-regions", 2, Behaviour.DYNAMIC_TOUCHING_REGIONS,
                "rank 0 attaches the two halves of a long[" + TOUCHING_LONGS + "], of a native segment (upper half " +
                    "first) and of a direct ByteBuffer, each half a region: the halves get touching addresses; the " +
                    "last rank puts " + TOUCHING_LONGS + " longs across each pair, accumulates 2 longs across the " +
                    "seam, flushes and gets them all back: each element is where it was put, the 2 summed; a put " +
                    "running past the upper half's end is still MPI_ERR_RMA_RANGE and applies nothing",
                "MPI-4.1 §12.2.4; MPICH win_dynamic_rma_flush_get (-count=9216); " +
                    "docs/design.md#dynamic-windows-attached-memory-and-its-addresses", DynamicCases::touchingRegions)
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.detached-access", 2, Behaviour.DYNAMIC_UNATTACHED_ACCESS,
                "the last rank puts 7 into rank 0's attached long and unlocks, then tells rank 0, which finds 7 and " +
                    "detaches; the last rank's get there is then MPI_ERR_RMA_RANGE at once, its put is " +
                    "MPI_ERR_RMA_RANGE at the next flush naming rank 0, and rank 0's array is untouched",
                "MPI-4.1 §12.2.4 (complete accesses before detach; detached memory is not exposed), §12.6.2; " +
                    "docs/design.md#dynamic-windows-attached-memory-and-its-addresses", c ->
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
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.reattach-new-address", Behaviour.DYNAMIC_UNATTACHED_ACCESS,
                "an array attached, detached and attached again gets a new, higher address; a get at the old " +
                    "one is MPI_ERR_RMA_RANGE, at the new one it reads the array",
                "MPI-4.1 §12.2.4; docs/design.md#dynamic-windows-attached-memory-and-its-addresses (addresses are " +
                    "never reused)", c ->
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
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.past-region-end", 2, Behaviour.DYNAMIC_UNATTACHED_ACCESS,
                "rank 0 attaches a long[2]; the last rank's get of 3 longs there, get just past its end, " +
                    "compareAndSwap at address 8 and fetchAndOp just before it are MPI_ERR_RMA_RANGE at once; an " +
                    "accumulate of 2 longs at its last long is MPI_ERR_RMA_RANGE at flush and applies nothing, " +
                    "one of 1 long applies",
                "MPI-4.1 §12.2.4, §12.6.2 (MPI_ERR_RMA_RANGE); " +
                    "docs/design.md#dynamic-windows-attached-memory-and-its-addresses", c ->
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
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.fault-at-fence", 2, Behaviour.DYNAMIC_UNATTACHED_ACCESS,
                "in a fence epoch the last rank puts to an address rank 0 has not attached: the next fence is " +
                    "MPI_ERR_RMA_RANGE on every rank, and the window works afterwards",
                "MPI-4.1 §12.2.4, §12.5.1; docs/design.md#dynamic-windows-attached-memory-and-its-addresses (a " +
                    "fence reports it on every process)", c ->
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
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.attach-errors", Behaviour.DYNAMIC_ATTACH_ERRORS,
                "attaching the same array twice or a slice overlapping an attached one is MPI_ERR_RMA_ATTACH; an " +
                    "adjacent slice attaches; null, a String and a boolean[] are MPI_ERR_BASE; detaching memory " +
                    "not attached (twice, or never) and the address of detached memory are MPI_ERR_BASE, an address " +
                    "past an attached slice MPI_ERR_ARG",
                "MPI-4.1 §12.2.4, §12.6.2 (MPI_ERR_RMA_ATTACH); " +
                    "docs/design.md#dynamic-windows-attached-memory-and-its-addresses", c ->
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
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.flavor-errors", Behaviour.DYNAMIC_ATTACH_ERRORS,
                "attach, detach and address on a window of Win.create: MPI_ERR_RMA_FLAVOR",
                "MPI-4.1 §12.2.4 (attach to dynamic windows only), §12.6.2 (MPI_ERR_RMA_FLAVOR)", c ->
                {
                    final long[] array = new long[2];
                    final Win created = c.keep(Win.create(new long[2], Long.BYTES, null, c.comm()));
                    c.expectError(ErrorClass.ERR_RMA_FLAVOR, "attach", () -> created.attach(array));
                    c.expectError(ErrorClass.ERR_RMA_FLAVOR, "detach", () -> created.detach(array));
                    c.expectError(ErrorClass.ERR_RMA_FLAVOR, "address", () -> created.address(array, 0));
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.zero-size-attach", 2, Behaviour.DYNAMIC_ZERO_AND_PROC_NULL,
                "each rank attaches two long[0] (distinct addresses) and sends one's address: puts and gets of 0 " +
                    "elements there work; a get of 1 long is MPI_ERR_RMA_RANGE at once, a put at the next flush",
                "MPI-4.1 §12.2.4, §12.3 (zero counts); MPICH rmazero", c ->
                {
                    final long[] empty = new long[0];
                    final long[] other = new long[0];
                    final Win win = c.keep(Win.createDynamic(null, c.comm()));
                    final long mine = win.attach(empty);
                    c.check(win.attach(other) != mine, "two empty arrays got one address");
                    c.checkEquals(mine, win.address(empty, 0), "address(empty, 0)");
                    final long[] addresses = c.gather(mine);
                    final int right = right(c);
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
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.proc-null", Behaviour.DYNAMIC_ZERO_AND_PROC_NULL,
                "every RMA call to PROC_NULL, at an address nobody attached, does nothing in a lockAll and in a " +
                    "fence epoch: no error at the call or at flush, unlockAll and fence, buffers untouched",
                "MPI-4.1 §12.3 (PROC_NULL valid in all RMA calls); MPICH rmanull; docs/design.md#proc-null-targets",
                c ->
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
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.shared-query", Behaviour.DYNAMIC_QUERY_ATTRIBUTES,
                "sharedQuery of every rank, this one included, and of PROC_NULL is size 0 with no memory, before " +
                    "and after memory is attached",
                "MPI-4.1 §12.2.3 (memory not shared with the caller, or not allocated by the window, has size 0)",
                c ->
                {
                    final Win win = c.keep(Win.createDynamic(null, c.comm()));
                    checkNothingShared(c, win, "before attach");
                    win.attach(new long[4]);
                    checkNothingShared(c, win, "after attach");
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.attributes", Behaviour.DYNAMIC_QUERY_ATTRIBUTES,
                "a dynamic window reports WIN_CREATE_FLAVOR FLAVOR_DYNAMIC, WIN_MODEL SEPARATE, WIN_SIZE 0, " +
                    "WIN_DISP_UNIT 1 and WIN_BASE MemorySegment.NULL (MPI_BOTTOM), memory attached or not",
                "MPI-4.1 §12.2.4, §12.2.6; MPICH win_flavors", c ->
                {
                    final Win win = c.keep(Win.createDynamic(null, c.comm()));
                    win.attach(new int[16]);
                    c.checkEquals(Integer.valueOf(Win.FLAVOR_DYNAMIC), win.getAttr(Win.WIN_CREATE_FLAVOR), "flavor");
                    c.checkEquals(Integer.valueOf(Win.SEPARATE), win.getAttr(Win.WIN_MODEL), "model");
                    c.checkEquals(Long.valueOf(0), win.getAttr(Win.WIN_SIZE), "WIN_SIZE");
                    c.checkEquals(Integer.valueOf(1), win.getAttr(Win.WIN_DISP_UNIT), "WIN_DISP_UNIT");
                    c.checkEquals(MemorySegment.NULL, win.getAttr(Win.WIN_BASE), "WIN_BASE");
                    c.checkEquals(0, win.size(), "size()");
                })
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .list();
    }

    /** A list pointer of dynamic.linked-list: the owner's rank and the element's address; 0 is nil. */
    private static long listPointer(final int rank, final long address)
    {
        return (long)(rank + 1) << 48 | address;
    }

    private static int listOwner(final long pointer)
    {
        return (int)(pointer >>> 48) - 1;
    }

    private static long listAddress(final long pointer)
    {
        return pointer & ((1L << 48) - 1);
    }

    /**
     * dynamic.touching-regions: three memories, each attached as two halves; one put, accumulate and get
     * run across each seam.
     */
    private static void touchingRegions(final CaseContext c)
    {
        final int n = TOUCHING_LONGS;
        final long half = n / 2 * (long)Long.BYTES;
        final long[] array = new long[n];
        final MemorySegment heap = MemorySegment.ofArray(array);
        final MemorySegment offHeap = Arena.ofAuto().allocate(2 * half, Long.BYTES);
        final ByteBuffer buffer = ByteBuffer.allocateDirect((int)(2 * half)).order(ByteOrder.nativeOrder());
        final Win win = c.keep(Win.createDynamic(null, c.comm()));
        final long[] lower = new long[3];
        if (c.isRoot())
        {
            lower[0] = attachHalves(c, win, heap.asSlice(0, half), heap.asSlice(half), false, half, "the long[]");
            lower[1] = attachHalves(c, win, offHeap.asSlice(0, half), offHeap.asSlice(half), true, half,
                "the native segment");
            lower[2] = attachHalves(c, win, buffer.slice(0, (int)half), buffer.slice((int)half, (int)half), false,
                half, "the direct ByteBuffer");
        }
        c.comm().Bcast(lower, 0, lower.length, MPI.LONG, 0);
        if (c.rank() == c.last())
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            for (int k = 0; k < lower.length; k++)
            {
                accessAcrossTheSeam(c, win, k, lower[k]);
            }
            win.put(new long[2], 0, 2, MPI.LONG, 0, lower[0] + 2 * half - Long.BYTES, 2, MPI.LONG);
            c.expectError(ErrorClass.ERR_RMA_RANGE, "flush after a put past the upper half's end", () -> win.flush(0));
            win.unlock(0);
        }
        c.barrier();
        if (c.isRoot())
        {
            final MemorySegment[] memories = {heap, offHeap, MemorySegment.ofBuffer(buffer)};
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            for (int k = 0; k < memories.length; k++)
            {
                for (final int i : new int[] {0, n / 2 - 1, n / 2, n - 1})
                {
                    c.checkEquals(seamValue(k, i, n), memories[k].getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i),
                        "memory " + k + ", long " + i);
                }
            }
            win.unlock(0);
        }
    }

    /** Attaches two halves of one memory (the upper one first if asked); checks that their addresses touch. */
    private static long attachHalves(final CaseContext c, final Win win, final Object lowerHalf,
        final Object upperHalf, final boolean upperFirst, final long half, final String what)
    {
        final long upper = upperFirst ? win.attach(upperHalf) : 0;
        final long lower = win.attach(lowerHalf);
        final long upperAddress = upperFirst ? upper : win.attach(upperHalf);
        c.checkEquals(lower + half, upperAddress, "address of the upper half of " + what + " (lower half at " +
            lower + ")");
        return lower;
    }

    /** Puts every long of memory {@code k} at {@code address}, adds 1 to the two at the seam, and gets them back. */
    private static void accessAcrossTheSeam(final CaseContext c, final Win win, final int k, final long address)
    {
        final int n = TOUCHING_LONGS;
        final long[] data = new long[n];
        for (int i = 0; i < n; i++)
        {
            data[i] = k * 1_000_000L + i + 1;
        }
        try
        {
            win.put(data, 0, n, MPI.LONG, 0, address, n, MPI.LONG);
            win.accumulate(new long[] {1, 1}, 0, 2, MPI.LONG, 0, address + (n / 2 - 1) * (long)Long.BYTES, 2,
                MPI.LONG, MPI.SUM);
            win.flush(0);
            final long[] back = new long[n];
            win.get(back, 0, n, MPI.LONG, 0, address, n, MPI.LONG);
            win.flush(0);
            for (int i = 0; i < n; i++)
            {
                if (back[i] != seamValue(k, i, n))
                {
                    c.fail("memory " + k + ": long " + i + " read back across the seam is " + back[i] + ", expected " +
                        seamValue(k, i, n));
                    break;
                }
            }
        }
        catch (final RmaException e)
        {
            c.fail("memory " + k + ": an access across the two halves failed: " + e.getMessage());
        }
    }

    /** What long {@code i} of memory {@code k} holds after {@link #accessAcrossTheSeam}. */
    private static long seamValue(final int k, final int i, final int n)
    {
        return k * 1_000_000L + i + 1 + (i == n / 2 - 1 || i == n / 2 ? 1 : 0);
    }

    private static int right(final CaseContext c)
    {
        return (c.rank() + 1) % c.size();
    }

    private static int left(final CaseContext c)
    {
        return (c.rank() + c.size() - 1) % c.size();
    }

    /** Checks that the regions at {@code addresses}, of {@code bytes} bytes each, share no address. */
    private static void checkDisjoint(final CaseContext c, final long[] addresses, final long[] bytes)
    {
        for (int i = 0; i < addresses.length; i++)
        {
            for (int j = i + 1; j < addresses.length; j++)
            {
                c.check(addresses[i] + bytes[i] <= addresses[j] || addresses[j] + bytes[j] <= addresses[i],
                    "regions " + i + " and " + j + " overlap: addresses " + Arrays.toString(addresses) + ", bytes " +
                        Arrays.toString(bytes));
            }
        }
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
