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
 * memory attached later and reached at its address, in one region or several, touching or not
 * ({@link DynamicEdgeCases} has the accesses to memory that is not attached, the errors, zero-size attach,
 * PROC_NULL targets, sharedQuery and the attributes).
 * Each case makes its windows with {@code Win.createDynamic} and exchanges addresses as a program
 * does; the other flavours run the cases of every flavour through {@code CaseContext.window}.
 */
public final class DynamicCases
{
    /** Why a case of dynamic windows runs on createDynamic only. */
    static final String DYNAMIC_ITSELF = "checks Win.createDynamic's own rules (attach, detach, " +
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
                "MPI-4.1 §12.2.4, §12.5.1; MPICH aint (addresses exchanged with Allgather)",
                DynamicCases::attachFencePutGet)
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.accumulate-every-rank", Behaviour.DYNAMIC_ATTACHED_ACCESS,
                "each rank attaches one int; every rank adds 1 to every rank's int " + ITERATIONS + " times, each " +
                    "under an exclusive lock: each int ends at " + ITERATIONS + " * size",
                "MPI-4.1 §12.2.4, §12.3.4; MPICH win_dynamic_acc", DynamicCases::accumulateEveryRank)
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.address-arithmetic", 2, Behaviour.DYNAMIC_ATTACHED_ACCESS,
                "each rank attaches an int[1024] and sends the address of element 512; its left neighbour gets " +
                    "elements 0 and 1023 at that address - 2048 and + 2044; the address of a slice of the array's " +
                    "segment is the array's address plus the slice's offset",
                "MPI-4.1 §12.2.4, §5.1.5 (address arithmetic, MPI_Aint_add/diff); MPICH aint",
                DynamicCases::addressArithmetic)
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.several-regions", Behaviour.DYNAMIC_ATTACHED_ACCESS,
                "each rank attaches a long[4], an int[6] and 16 native bytes: their addresses do not overlap; puts " +
                    "into each region of the right neighbour land there; after the int[] is detached the other " +
                    "regions still work",
                "MPI-4.1 §12.2.4 (any number of regions, attached and detached while the window lives); MPICH " +
                    "linked_list", DynamicCases::severalRegions)
            .only(EnumSet.of(Flavour.DYNAMIC), DYNAMIC_ITSELF)
            .add("dynamic.linked-list", Behaviour.DYNAMIC_ATTACHED_ACCESS,
                "a list headed by a long[2] {value, next} rank 0 attached: each rank makes 6 elements, attaching each " +
                    "new long[2] when it makes it, and appends it with compareAndSwap(nil to rank and address) on " +
                    "the next pointer of the last element it knows, in a lockAll epoch; rank 0 walks the list by " +
                    "those addresses: every element once",
                "MPI-4.1 §12.2.4 (memory attached while others access the window), §12.3.4.4; MPICH linked_list, " +
                    "linked_list_lockall", DynamicCases::linkedList)
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
            .list();
    }

    private static void attachFencePutGet(final CaseContext c) throws Exception
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
    }

    private static void accumulateEveryRank(final CaseContext c) throws Exception
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
    }

    private static void addressArithmetic(final CaseContext c) throws Exception
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
    }

    private static void severalRegions(final CaseContext c) throws Exception
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
    }

    private static void linkedList(final CaseContext c) throws Exception
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
}
