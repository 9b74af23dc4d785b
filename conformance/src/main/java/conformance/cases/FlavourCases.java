package conformance.cases;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.List;
import java.util.function.IntToLongFunction;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.Flavour;
import conformance.CaseGroup;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.SharedSegment;
import mpi.rma.Shared;
import mpi.rma.Win;

/**
 * Each flavour's own rules (docs/conformance-checklist.md#window-flavours-and-nodes): create over
 * every kind of memory and its argument errors, allocate's memory, zero sizes and PROC_NULL,
 * sharedQuery and the attributes per flavour, dense datatypes on message windows, progress at a
 * busy target, and allocateShared over processes of two nodes.
 */
public final class FlavourCases
{
    private static final String CREATE_ITSELF = "checks Win.create itself; the other flavours' configurations " +
        "run the same checks through their own calls";
    private static final String MESSAGES_ONLY = "checks windows reached by messages; allocateShared windows move " +
        "derived datatypes (dtype.*), and so do allocate windows to targets on the caller's node";
    /** How long the busy target polls its memory before it calls the put lost: a hang, not a timing. */
    private static final long PROGRESS_LIMIT_MS = 8_000;
    private static final VarHandle LONG_AT = ValueLayout.JAVA_LONG.varHandle();

    private FlavourCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.FLAVOURS)
            .add("flavour.create-double-array", Behaviour.FLAVOUR_CREATE_MEMORY,
                "Win.create over a double[] of 16 (disp unit 8): size 128; a put to the right neighbour lands in " +
                    "its array, and stays right after the garbage collector runs between the calls",
                "MPI-4.1 §12.2.1; MPICH window_creation, putfence1", FlavourCases::createDoubleArray)
            .only(EnumSet.of(Flavour.CREATE), CREATE_ITSELF)
            .add("flavour.create-int-array", Behaviour.FLAVOUR_CREATE_MEMORY,
                "Win.create over an int[] of 8 (disp unit 4): accumulate(SUM) of every rank into element 5 of rank " +
                    "0 gives the sum of the ranks, in rank 0's array",
                "MPI-4.1 §12.2.1, §12.3.4; MPICH window_creation, accfence1", FlavourCases::createIntArray)
            .only(EnumSet.of(Flavour.CREATE), CREATE_ITSELF)
            .add("flavour.create-heap-segment", Behaviour.FLAVOUR_CREATE_MEMORY,
                "Win.create over a heap MemorySegment (of a long[4]): a put lands in the long[] behind it",
                "MPI-4.1 §12.2.1; MPICH window_creation", FlavourCases::createHeapSegment)
            .only(EnumSet.of(Flavour.CREATE), CREATE_ITSELF)
            .add("flavour.create-native-segment", Behaviour.FLAVOUR_CREATE_MEMORY,
                "Win.create over a native MemorySegment of a shared arena: a put lands in it; the arena closes " +
                    "after the window is freed",
                "MPI-4.1 §12.2.1; MPICH window_creation", FlavourCases::createNativeSegment)
            .only(EnumSet.of(Flavour.CREATE), CREATE_ITSELF)
            .add("flavour.create-direct-buffer", Behaviour.FLAVOUR_CREATE_MEMORY,
                "Win.create over a direct ByteBuffer of 32 bytes: a put lands in the buffer (native byte order)",
                "MPI-4.1 §12.2.1; MPICH window_creation", FlavourCases::createDirectBuffer)
            .only(EnumSet.of(Flavour.CREATE), CREATE_ITSELF)
            .add("flavour.create-null-base", Behaviour.FLAVOUR_CREATE_ERRORS,
                "Win.create with a null base on every rank: MPI_ERR_BASE everywhere, naming the kinds to give",
                "MPI-4.1 §12.2.1, §12.6.2; docs/design.md#every-argument-is-checked", FlavourCases::createNullBase)
            .only(EnumSet.of(Flavour.CREATE), CREATE_ITSELF)
            .add("flavour.create-bad-base-one-rank", 2, Behaviour.FLAVOUR_CREATE_ERRORS,
                "the last rank passes a String, a heap ByteBuffer, a boolean[]: MPI_ERR_BASE on every rank each " +
                    "time, and a window made next works",
                "MPI-4.1 §12.2.1 (collective); docs/design.md#collective-calls-fail-together",
                FlavourCases::createBadBaseOneRank)
            .only(EnumSet.of(Flavour.CREATE), CREATE_ITSELF)
            .add("flavour.create-disp-unit-one-rank", 2, Behaviour.FLAVOUR_CREATE_ERRORS,
                "dispUnit 0 on rank 0 only: MPI_ERR_DISP on every rank",
                "MPI-4.1 §12.2.1 (disp_unit positive), §12.6.2; docs/design.md#collective-calls-fail-together",
                FlavourCases::createDispUnitOneRank)
            .only(EnumSet.of(Flavour.CREATE), CREATE_ITSELF)
            .add("flavour.allocate-zeroed-aligned", Behaviour.FLAVOUR_ALLOCATE_MEMORY,
                "Win.allocate of 1000 bytes: the base is 1000 bytes, zeroed, and 8-byte aligned for any datatype",
                "MPI-4.1 §12.2.2 (memory suitably aligned, as MPI_ALLOC_MEM)", FlavourCases::allocateZeroedAligned)
            .only(EnumSet.of(Flavour.ALLOCATE), "checks Win.allocate itself")
            .add("flavour.zero-size-every-rank", Behaviour.FLAVOUR_ZERO_AND_PROC_NULL,
                "a window of 0 bytes on every rank: size 0, an empty base; fences, lockAll and puts of 0 " +
                    "elements work; a put of 1 byte is MPI_ERR_RMA_RANGE",
                "MPI-4.1 §12.2.1, §12.2.2 (size 0 is valid), §12.6.2; MPICH win_zero, rmazero",
                FlavourCases::zeroSizeEveryRank)
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .add("flavour.proc-null-fetching-calls", Behaviour.FLAVOUR_ZERO_AND_PROC_NULL,
                "under lockAll, getAccumulate, fetchAndOp and compareAndSwap to PROC_NULL do nothing: result " +
                    "buffers and memory untouched, flush(PROC_NULL) succeeds",
                "MPI-4.1 §12.3 (PROC_NULL valid in all RMA calls); MPICH rmanull", FlavourCases::procNullFetchingCalls)
            .add("flavour.shared-query-own", Behaviour.FLAVOUR_SHARED_QUERY,
                "sharedQuery of the caller's own rank gives its memory on every flavour: size, disp unit, base",
                "MPI-4.1 §12.2.3", FlavourCases::sharedQueryOwn)
            .notDynamic(FlavourNotes.DYNAMIC_QUERY)
            .add("flavour.shared-query-others", 2, Behaviour.FLAVOUR_SHARED_QUERY,
                "on a window of memory the program owns, sharedQuery of another rank is size 0 with no memory " +
                    "(not shared with the caller); of PROC_NULL, the caller's own memory",
                "MPI-4.1 §12.2.3 (size 0 when the memory is not shared)", FlavourCases::sharedQueryOthers)
            .only(EnumSet.of(Flavour.CREATE), "on allocateShared every rank's memory is shared (query.any-rank " +
                "checks it), and on allocate the memory of every rank on the caller's node")
            .add("flavour.attributes-each", Behaviour.FLAVOUR_ATTRIBUTES,
                "windows of the four flavours side by side (allocateShared on the node's processes): each reports " +
                    "its WIN_CREATE_FLAVOR, WIN_MODEL (unified for shared memory, allocate's too on one node; " +
                    "separate otherwise), size and unit (0 and 1 for the dynamic window)",
                "MPI-4.1 §12.2.4, §12.2.6, §12.4; MPICH win_flavors", FlavourCases::attributesEach)
            .add("flavour.message-derived-type", Behaviour.FLAVOUR_MESSAGE_TYPES,
                "on a window reached by messages, one put with Contiguous(2, INT) on both sides and one with " +
                    "Vector(2, 1, 2, INT) on both sides to the right neighbour: the pair lands in ints 2-3, the " +
                    "vector's two elements in ints 4 and 6, int 5 between them stays 0",
                "MPI-4.1 §12.3.1, §5.1.2; docs/design.md#derived-datatypes", FlavourCases::messageDerivedType)
            .only(EnumSet.of(Flavour.CREATE, Flavour.DYNAMIC), MESSAGES_ONLY)
            .add("flavour.busy-target-progress", 2, Behaviour.FLAVOUR_PROGRESS,
                "rank 0 makes no MPI call and polls its own memory while the last rank locks it, puts 1 and " +
                    "unlocks: the value arrives (within seconds, not never) and unlock returns meanwhile",
                "MPI-4.1 §12.5.3, §12.7 (passive target progress); MPICH lockcontention3",
                FlavourCases::busyTargetProgress)
            .add("flavour.shared-across-nodes", 2, Behaviour.FLAVOUR_ACROSS_NODES,
                "allocateShared on processes of two nodes: MPI_ERR_RMA_SHARED on every process (no hang, no " +
                    "partial window); Shared.split gives each node's processes, on which it works",
                "MPI-4.1 §12.2.3 (comm's processes must share memory), §7.4.2", FlavourCases::sharedAcrossNodes)
            .onNodes(2)
            .list();
    }

    private static void createDoubleArray(final CaseContext c) throws Exception
    {
        final double[] array = new double[16];
        final Win win = c.keep(Win.create(array, Double.BYTES, null, c.comm()));
        c.checkEquals(128, win.size(), "size");
        win.fence(0);
        System.gc();
        win.put(new double[] {c.rank() + 0.5}, 0, 1, MPI.DOUBLE, right(c), 3, 1, MPI.DOUBLE);
        System.gc();
        win.fence(0);
        c.check(array[3] == left(c) + 0.5, "array[3] is " + array[3] + ", expected " + (left(c) + 0.5));
        final double[] back = new double[1];
        win.get(back, 0, 1, MPI.DOUBLE, right(c), 3, 1, MPI.DOUBLE);
        win.fence(Win.MODE_NOSUCCEED);
        c.check(back[0] == c.rank() + 0.5, "got back " + back[0]);
    }

    private static void createIntArray(final CaseContext c) throws Exception
    {
        final int[] array = new int[8];
        final Win win = c.keep(Win.create(array, Integer.BYTES, null, c.comm()));
        win.fence(0);
        win.accumulate(new int[] {c.rank() + 1}, 0, 1, MPI.INT, 0, 5, 1, MPI.INT, MPI.SUM);
        win.fence(Win.MODE_NOSUCCEED);
        if (c.isRoot())
        {
            c.checkEquals((long)c.size() * (c.size() + 1) / 2, array[5], "array[5]");
        }
    }

    private static void createHeapSegment(final CaseContext c) throws Exception
    {
        final long[] behind = new long[4];
        checkPutLands(c, MemorySegment.ofArray(behind), i -> behind[i]);
    }

    private static void createNativeSegment(final CaseContext c) throws Exception
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment native32 = arena.allocate(32, 8);
            checkPutLands(c, native32, i -> native32.get(ValueLayout.JAVA_LONG, 8L * i));
        }
    }

    private static void createDirectBuffer(final CaseContext c) throws Exception
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
        checkPutLands(c, buffer, i -> buffer.getLong(8 * i));
    }

    private static void createNullBase(final CaseContext c) throws Exception
    {
        final var e = c.expectError(ErrorClass.ERR_BASE, "create(null)",
            () -> c.keep(Win.create(null, 1, null, c.comm())));
        c.check(e == null || e.getMessage().contains("primitive array"), "the message names no kind: " +
            (e == null ? "" : e.getMessage()));
    }

    private static void createBadBaseOneRank(final CaseContext c) throws Exception
    {
        final List<Object> bad = List.of("not memory", ByteBuffer.allocate(8), new boolean[8]);
        for (final Object base : bad)
        {
            c.expectError(ErrorClass.ERR_BASE, "create with rank " + c.last() + " at " +
                base.getClass().getSimpleName(), () -> c.keep(Win.create(c.rank() == c.last() ? base :
                    new long[1], 8, null, c.comm())));
        }
        final Win win = c.keep(Win.create(new long[2], 8, null, c.comm()));
        c.checkEquals(16, win.size(), "size of the window made after the errors");
    }

    private static void createDispUnitOneRank(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_DISP, "create with rank 0 at dispUnit=0",
            () -> c.keep(Win.create(new int[4], c.isRoot() ? 0 : 4, null, c.comm())));
    }

    private static void allocateZeroedAligned(final CaseContext c) throws Exception
    {
        final Win win = c.keep(Win.allocate(1000, 1, null, c.comm()));
        c.checkEquals(1000, win.base().byteSize(), "base().byteSize()");
        c.checkEquals(0, win.base().address() % 8, "base address modulo 8");
        for (long i = 0; i < 1000; i++)
        {
            if (Memory.getByte(win.base(), i) != 0)
            {
                c.fail("byte " + i + " is not zero");
                break;
            }
        }
    }

    private static void zeroSizeEveryRank(final CaseContext c) throws Exception
    {
        final Win win = c.window(0, 1);
        c.checkEquals(0, win.size(), "size");
        c.checkEquals(0, win.base().byteSize(), "base().byteSize()");
        win.fence(0);
        win.put(new byte[0], 0, 0, MPI.BYTE, right(c), 0, 0, MPI.BYTE);
        c.expectError(ErrorClass.ERR_RMA_RANGE, "put of 1 byte to an empty window",
            () -> win.put(new byte[1], 0, 1, MPI.BYTE, right(c), 0, 1, MPI.BYTE));
        win.fence(Win.MODE_NOSUCCEED);
        win.lockAll(0);
        win.get(new byte[0], 0, 0, MPI.BYTE, right(c), 0, 0, MPI.BYTE);
        win.flushAll();
        win.unlockAll();
    }

    private static void procNullFetchingCalls(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        Memory.setLong(c.memory(win), 0, 31);
        win.fence(Win.MODE_NOSUCCEED);
        final long[] result = {-1};
        win.lockAll(0);
        win.getAccumulate(new long[] {1}, 0, 1, MPI.LONG, result, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1,
            MPI.LONG, MPI.SUM);
        win.fetchAndOp(new long[] {1}, 0, result, 0, MPI.LONG, MPI.PROC_NULL, 0, MPI.SUM);
        win.compareAndSwap(new long[] {1}, 0, new long[] {31}, 0, result, 0, MPI.LONG, MPI.PROC_NULL, 0);
        win.flush(MPI.PROC_NULL);
        win.unlockAll();
        c.checkEquals(-1, result[0], "result buffer");
        c.barrier();
        c.checkEquals(31, Memory.getLong(c.memory(win), 0), "own memory");
    }

    private static void sharedQueryOwn(final CaseContext c) throws Exception
    {
        final Win win = c.window(24, 4);
        final SharedSegment own = win.sharedQuery(c.rank());
        c.checkEquals(24, own.size(), "size");
        c.checkEquals(4, own.dispUnit(), "disp unit");
        c.checkEquals(win.base().address(), own.memory().address(), "address vs base()");
        c.checkEquals(24, own.memory().byteSize(), "memory().byteSize()");
    }

    private static void sharedQueryOthers(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        final SharedSegment other = win.sharedQuery(right(c));
        c.checkEquals(0, other.size(), "size of rank " + right(c));
        c.checkEquals(0, other.memory().byteSize(), "memory of rank " + right(c));
        c.checkEquals(16, win.sharedQuery(MPI.PROC_NULL).size(), "size of PROC_NULL");
        c.expectError(ErrorClass.ERR_RANK, "sharedQuery(" + c.size() + ")",
            () -> win.sharedQuery(c.size()));
    }

    private static void attributesEach(final CaseContext c) throws Exception
    {
        final Intracomm node = Shared.split(c.comm());
        final Win shared = c.keep(Win.allocateShared(8, 8, null, node));
        final Win created = c.keep(Win.create(new int[4], 4, null, c.comm()));
        final Win allocated = c.keep(Win.allocate(24, 2, null, c.comm()));
        final Win dynamic = c.keep(Win.createDynamic(null, c.comm()));
        checkAttributes(c, "allocateShared", shared, Win.FLAVOR_SHARED, Win.UNIFIED, 8, 8);
        checkAttributes(c, "create", created, Win.FLAVOR_CREATE, Win.SEPARATE, 16, 4);
        checkAttributes(c, "allocate", allocated, Win.FLAVOR_ALLOCATE,
            c.nodes() == 1 ? Win.UNIFIED : Win.SEPARATE, 24, 2);
        checkAttributes(c, "createDynamic", dynamic, Win.FLAVOR_DYNAMIC, Win.SEPARATE, 0, 1);
    }

    private static void messageDerivedType(final CaseContext c) throws Exception
    {
        final Win win = c.window(64, 4);
        final Datatype pair = Datatype.Contiguous(2, MPI.INT);
        pair.Commit();
        final Datatype strided = Datatype.Vector(2, 1, 2, MPI.INT);
        strided.Commit();
        win.fence(0);
        win.put(new int[] {c.rank(), -c.rank()}, 0, 1, pair, right(c), c.disp(win, right(c), 2), 1, pair);
        win.put(new int[] {c.rank() + 10, -99, c.rank() + 20, -99}, 0, 1, strided, right(c),
            c.disp(win, right(c), 4), 1, strided);
        win.fence(0);
        c.checkEquals(left(c), Memory.getInt(c.memory(win), 2), "int 2");
        c.checkEquals(-left(c), Memory.getInt(c.memory(win), 3), "int 3");
        c.checkEquals(left(c) + 10, Memory.getInt(c.memory(win), 4), "int 4");
        c.checkEquals(0, Memory.getInt(c.memory(win), 5), "int 5, between the vector's elements");
        c.checkEquals(left(c) + 20, Memory.getInt(c.memory(win), 6), "int 6");
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void busyTargetProgress(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.barrier();
        if (c.isRoot())
        {
            final long deadline = System.nanoTime() + PROGRESS_LIMIT_MS * 1_000_000;
            while ((long)LONG_AT.getVolatile(c.memory(win), 0L) != 1 && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            c.checkEquals(1, (long)LONG_AT.getVolatile(c.memory(win), 0L),
                "value put while rank 0 made no MPI call, after " + PROGRESS_LIMIT_MS + " ms");
        }
        else if (c.rank() == c.last())
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            win.put(new long[] {1}, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG);
            win.unlock(0);
        }
        c.barrier();
    }

    private static void sharedAcrossNodes(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_RMA_SHARED, "allocateShared across nodes",
            () -> c.keep(Win.allocateShared(8, 8, null, c.comm())));
        final Intracomm node = Shared.split(c.comm());
        c.check(node.Size() < c.size(), "Shared.split kept all " + c.size() + " processes on one node");
        final Win win = c.keep(Win.allocateShared(8, 8, null, node));
        win.fence(0);
        win.put(new long[] {c.rank()}, 0, 1, MPI.LONG, (node.Rank() + 1) % node.Size(), 0, 1, MPI.LONG);
        win.fence(Win.MODE_NOSUCCEED);
        final long[] ranks = c.gather(node.Rank() == 0 ? 1 : 0);
        c.checkEquals(c.nodes(), java.util.Arrays.stream(ranks).sum(), "node communicators");
    }

    private static int right(final CaseContext c)
    {
        return (c.rank() + 1) % c.size();
    }

    private static int left(final CaseContext c)
    {
        return (c.rank() + c.size() - 1) % c.size();
    }

    /** A window over {@code base} (4 longs): a put at element 2 of the right neighbour shows in its memory. */
    private static void checkPutLands(final CaseContext c, final Object base, final IntToLongFunction element)
    {
        final Win win = Win.create(base, Long.BYTES, null, c.comm());
        try
        {
            c.checkEquals(32, win.size(), "size");
            win.fence(0);
            win.put(new long[] {100 + c.rank()}, 0, 1, MPI.LONG, right(c), 2, 1, MPI.LONG);
            win.fence(Win.MODE_NOSUCCEED);
            c.checkEquals(100 + left(c), element.applyAsLong(2), "element 2 of the memory behind the window");
        }
        finally
        {
            win.free();
        }
    }

    private static void checkAttributes(final CaseContext c, final String what, final Win win, final int flavor,
        final int model, final long size, final int dispUnit)
    {
        c.checkEquals(Integer.valueOf(flavor), win.getAttr(Win.WIN_CREATE_FLAVOR), what + " WIN_CREATE_FLAVOR");
        c.checkEquals(Integer.valueOf(model), win.getAttr(Win.WIN_MODEL), what + " WIN_MODEL");
        c.checkEquals(Long.valueOf(size), win.getAttr(Win.WIN_SIZE), what + " WIN_SIZE");
        c.checkEquals(Integer.valueOf(dispUnit), win.getAttr(Win.WIN_DISP_UNIT), what + " WIN_DISP_UNIT");
    }
}
