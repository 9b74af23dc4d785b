package conformance.cases;

import java.util.EnumSet;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.Flavour;
import conformance.CaseGroup;
import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Shared;
import mpi.rma.SharedSegment;
import mpi.rma.Win;

/**
 * Collective allocation and its argument errors
 * (docs/conformance-checklist.md#allocation-and-argument-errors).
 */
public final class AllocationCases
{
    private AllocationCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.ALLOCATION)
            .add("alloc.collective", Behaviour.ALLOC_COLLECTIVE,
                "allocateShared returns on every rank; the local segment has the size asked for",
                "MPI-4.1 §12.2.3; MPICH win_shared", AllocationCases::collective)
            .notDynamic(FlavourNotes.DYNAMIC_ATTRIBUTES)
            .add("alloc.sizes-differ", Behaviour.ALLOC_SIZES,
                "each rank may ask for a different size (10 + rank); sharedQuery(r).size() is rank r's",
                "MPI-4.1 §12.2.3; mpi4py test_win (Allocate_shared 10+rank)", AllocationCases::sizesDiffer)
            .sharedOnly(FlavourNotes.OTHERS_MEMORY)
            .add("alloc.zero-some", Behaviour.ALLOC_SIZES,
                "size 0 is valid on some ranks: even ranks ask 0, odd 16; create and free succeed",
                "MPI-4.1 §12.2.3; MPICH win_zero, win_shared_zerobyte", AllocationCases::zeroSome)
            .sharedOnly(FlavourNotes.OTHERS_MEMORY)
            .add("alloc.zero-all", Behaviour.ALLOC_SIZES,
                "size 0 on every rank is valid; sharedQuery(PROC_NULL) gives size 0 and an empty segment",
                "MPI-4.1 §12.2.3; MPICH win_zero (all-zero case)", AllocationCases::zeroAll)
            .add("alloc.negative-size", Behaviour.ALLOC_ARGUMENT_ERRORS,
                "size < 0 on every rank: MPI_ERR_SIZE",
                "MPI-4.1 §12.2.3, §12.6.2; MPICH MPIR_ERRTEST_WIN_SIZE", AllocationCases::negativeSize)
            .only(EnumSet.of(Flavour.SHARED, Flavour.ALLOCATE), FlavourNotes.SIZE_ARGUMENT)
            .add("alloc.negative-size-one-rank", 2, Behaviour.ALLOC_ARGUMENT_ERRORS,
                "size < 0 on the last rank only: every rank gets MPI_ERR_SIZE, no rank gets a window",
                "MPI-4.1 §12.2.3 (collective); docs/design.md#collective-calls-fail-together",
                AllocationCases::negativeSizeOneRank)
            .only(EnumSet.of(Flavour.SHARED, Flavour.ALLOCATE), FlavourNotes.SIZE_ARGUMENT)
            .add("alloc.disp-unit-zero", Behaviour.ALLOC_ARGUMENT_ERRORS,
                "dispUnit = 0: MPI_ERR_DISP",
                "MPI-4.1 §12.2.3 (disp_unit positive); MPICH MPIR_ERRTEST_WIN_DISPUNIT", AllocationCases::dispUnitZero)
            .notDynamic(FlavourNotes.DISP_UNIT_ARGUMENT)
            .add("alloc.disp-unit-negative-one-rank", 2, Behaviour.ALLOC_ARGUMENT_ERRORS,
                "dispUnit = -4 on rank 0 only: MPI_ERR_DISP on every rank",
                "MPI-4.1 §12.2.3; MPICH MPIR_ERRTEST_WIN_DISPUNIT", AllocationCases::dispUnitNegativeOneRank)
            .notDynamic(FlavourNotes.DISP_UNIT_ARGUMENT)
            .add("alloc.null-comm", Behaviour.ALLOC_ARGUMENT_ERRORS,
                "a null communicator is rejected with MPI_ERR_COMM",
                "MPI-4.1 §12.2.3 (comm is an intracommunicator), §9.4; Open MPI win_allocate_shared.c.in; " +
                    "docs/design.md#error-classes", AllocationCases::nullComm)
            .add("alloc.info-bad-value", Behaviour.ALLOC_INFO,
                "alloc_shared_noncontig=\"maybe\": MPI_ERR_INFO_VALUE on every rank",
                "MPI-4.1 §12.2.1 (info keys), §9.4 (ERR_INFO_VALUE)", AllocationCases::infoBadValue)
            .add("alloc.info-unknown-key", Behaviour.ALLOC_INFO,
                "an unknown info key is ignored: creation succeeds and getInfo does not echo it",
                "MPI-4.1 §12.2.7 (unknown keys may be ignored); MPICH impls/mpich/rma/win_info",
                AllocationCases::infoUnknownKey)
            .add("alloc.comm-self", Behaviour.ALLOC_ONE_PROCESS,
                "a window on MPI.COMM_SELF works on every rank alone: 16 bytes, disp unit 4, PROC_NULL gives it",
                "MPI-4.1 §12.2.3; MPICH win_shared_query_null (self part); pmodels/mpich#6994",
                AllocationCases::commSelf)
            .notDynamic(FlavourNotes.DYNAMIC_QUERY)
            .add("alloc.split-shared", Behaviour.ALLOC_SPLIT,
                "Shared.split (COMM_TYPE_SHARED) on one node keeps every process, in order (on two nodes, fewer); " +
                    "a window on it works",
                "MPI-4.1 §7.4.2 (MPI_COMM_TYPE_SHARED); MPICH win_shared (splits first)", AllocationCases::splitShared)
            .add("alloc.usable-after-error", Behaviour.ALLOC_AFTER_FAILURE,
                "after a failed allocateShared (MPI_ERR_SIZE) the communicator can make a window",
                "docs/design.md#collective-calls-fail-together (no partial window after a failed collective)",
                AllocationCases::usableAfterError)
            .only(EnumSet.of(Flavour.SHARED, Flavour.ALLOCATE), FlavourNotes.SIZE_ARGUMENT)
            .add("alloc.zero-local-segment", Behaviour.ALLOC_SIZES,
                "a zero-size rank's own segment is an empty segment (not null); touching byte 0 is refused",
                "MPI-4.1 §12.2.3 (as ALLOC_MEM of size 0); open-mpi/ompi#7203", AllocationCases::zeroLocalSegment)
            .notDynamic(FlavourNotes.DYNAMIC_ATTRIBUTES)
            .add("alloc.large", Behaviour.ALLOC_LARGE,
                "a 16 MiB segment per rank can be written at its first and last byte and read by every rank",
                "MPICH win_large_shm (scaled down); docs/design.md#pages-reserved-with-fallocate",
                AllocationCases::large)
            .list();
    }

    private static void collective(final CaseContext c) throws Exception
    {
        final Win win = c.window(64, 1);
        c.checkEquals(64, win.size(), "size()");
        c.checkEquals(64, win.base().byteSize(), "base().byteSize()");
        c.checkEquals(c.size(), win.getGroup().Size(), "window group size");
    }

    private static void sizesDiffer(final CaseContext c) throws Exception
    {
        final Win win = c.window(10 + c.rank(), 1);
        for (int r = 0; r < c.size(); r++)
        {
            c.checkEquals(10 + r, win.sharedQuery(r).size(), "sharedQuery(" + r + ").size()");
        }
    }

    private static void zeroSome(final CaseContext c) throws Exception
    {
        final Win win = c.window(c.rank() % 2 == 0 ? 0 : 16, 1);
        for (int r = 0; r < c.size(); r++)
        {
            c.checkEquals(r % 2 == 0 ? 0 : 16, win.sharedQuery(r).size(), "sharedQuery(" + r + ").size()");
        }
        win.free();
    }

    private static void zeroAll(final CaseContext c) throws Exception
    {
        final Win win = c.window(0, 1);
        final SharedSegment s = win.sharedQuery(MPI.PROC_NULL);
        c.checkEquals(0, s.size(), "sharedQuery(PROC_NULL).size()");
        c.checkEquals(0, s.memory().byteSize(), "its memory's byteSize()");
        win.free();
    }

    private static void negativeSize(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_SIZE, "allocateShared(-1)", () -> c.window(-1, 1));
    }

    private static void negativeSizeOneRank(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_SIZE, "allocateShared with rank " + c.last() + " at -8",
            () -> c.window(c.rank() == c.last() ? -8 : 8, 1));
    }

    private static void dispUnitZero(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_DISP, "allocateShared(dispUnit=0)", () -> c.window(8, 0));
    }

    private static void dispUnitNegativeOneRank(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_DISP, "allocateShared with rank 0 at dispUnit=-4",
            () -> c.window(8, c.rank() == 0 ? -4 : 4));
    }

    private static void nullComm(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_COMM, "allocateShared(comm=null)",
            () -> Win.allocateShared(8, 1, null, null));
    }

    private static void infoBadValue(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_INFO_VALUE, "allocateShared(alloc_shared_noncontig=maybe)",
            () -> c.window(8, 1, CaseContext.info("alloc_shared_noncontig", "maybe")));
    }

    private static void infoUnknownKey(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1, CaseContext.info("x_not_a_hint", "42"));
        c.check(win.getInfo().get("x_not_a_hint") == null, "getInfo echoes x_not_a_hint");
    }

    private static void commSelf(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 4, null, c.self());
        final SharedSegment any = win.sharedQuery(MPI.PROC_NULL);
        c.checkEquals(16, any.size(), "sharedQuery(PROC_NULL).size()");
        c.checkEquals(4, any.dispUnit(), "sharedQuery(PROC_NULL).dispUnit()");
        c.checkEquals(win.base().address(), any.memory().address(), "PROC_NULL address vs base");
        win.fence(0);
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void splitShared(final CaseContext c) throws Exception
    {
        final Intracomm node = Shared.split(c.comm());
        if (c.nodes() == 1)
        {
            c.checkEquals(c.size(), node.Size(), "node communicator size");
            c.checkEquals(c.rank(), node.Rank(), "rank in the node communicator");
        }
        else
        {
            c.check(node.Size() < c.size(), "Shared.split kept all " + c.size() + " processes of " +
                c.nodes() + " nodes");
        }
        final Win win = c.window(8, 8, null, node);
        c.checkEquals(node.Size(), win.getGroup().Size(), "window group size");
    }

    private static void usableAfterError(final CaseContext c) throws Exception
    {
        c.expectError(ErrorClass.ERR_SIZE, "allocateShared(-1)", () -> c.window(-1, 1));
        final Win win = c.window(32, 4);
        win.fence(0);
        c.checkEquals(32, win.size(), "size after the failed call");
    }

    private static void zeroLocalSegment(final CaseContext c) throws Exception
    {
        final Win win = c.window(0, 1);
        c.check(win.base() != null, "base() is null");
        c.checkEquals(0, win.base().byteSize(), "base().byteSize()");
        c.expectThrows(IndexOutOfBoundsException.class, "store to byte 0 of a 0-byte segment",
            () -> Memory.setByte(win.base(), 0, (byte)1));
    }

    private static void large(final CaseContext c) throws Exception
    {
        final long bytes = 16L << 20;
        final Win win = c.window(bytes, 1);
        win.fence(0);
        Memory.setByte(c.memory(win), 0, (byte)(c.rank() + 1));
        Memory.setByte(c.memory(win), bytes - 1, (byte)(c.rank() + 2));
        win.fence(0);
        for (int r = 0; r < c.size(); r++)
        {
            // Loads where the segments are shared; gets, completed by the next fence, elsewhere.
            final byte[] ends = new byte[2];
            if (c.isShared())
            {
                ends[0] = Memory.getByte(win.sharedQuery(r).memory(), 0);
                ends[1] = Memory.getByte(win.sharedQuery(r).memory(), bytes - 1);
            }
            else
            {
                win.get(ends, 0, 1, MPI.BYTE, r, c.disp(win, r, 0), 1, MPI.BYTE);
                win.get(ends, 1, 1, MPI.BYTE, r, c.disp(win, r, bytes - 1), 1, MPI.BYTE);
                win.fence(0);
            }
            c.checkEquals(r + 1, ends[0], "first byte of rank " + r);
            c.checkEquals(r + 2, ends[1], "last byte of rank " + r);
        }
        win.fence(Win.MODE_NOSUCCEED);
    }
}
