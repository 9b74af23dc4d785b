package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.SharedSegment;
import mpi.rma.Win;

/** Where the segments lie (docs/conformance-checklist.md#contiguous-vs-noncontig-layout). */
public final class LayoutCases
{
    private static final String NONCONTIG = "alloc_shared_noncontig";

    private LayoutCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.LAYOUT)
            .add("layout.contiguous-default", Behaviour.LAYOUT_CONTIGUOUS,
                "by default segment i starts where segment i-1 ends (sizes 8(r+1)), seen from every rank",
                "MPI-4.1 §12.2.3 (consecutive addresses); MPICH win_shared", LayoutCases::contiguousDefault)
            .add("layout.contiguous-absolute-index", Behaviour.LAYOUT_CONTIGUOUS,
                "with equal sizes N, rank r's element j is element r*N+j from sharedQuery(PROC_NULL)'s memory " +
                    "(stores under lockAll, sync-barrier-sync)",
                "MPI-4.1 §12.2.3; MPICH win_shared", LayoutCases::contiguousAbsoluteIndex)
            .add("layout.zero-size-takes-no-room", 3, Behaviour.LAYOUT_CONTIGUOUS,
                "first and last rank 16 ints, the others 0: the last segment starts right after the first",
                "MPI-4.1 §12.2.3; MPICH win_shared_zerobyte", LayoutCases::zeroSizeTakesNoRoom)
            .add("layout.zero-size-address", 3, Behaviour.LAYOUT_CONTIGUOUS,
                "a zero-size rank in a contiguous window reports the address where its empty segment would begin",
                "MPI-4.1 §12.2.3; open-mpi/ompi#7203 (null base for zero-size ranks, fixed by PR #7204)",
                LayoutCases::zeroSizeAddress)
            .add("layout.noncontig-all", Behaviour.LAYOUT_NONCONTIG,
                "with alloc_shared_noncontig=true everywhere, getInfo says so and each rank's stores (fence) are read " +
                    "by all through sharedQuery(i)",
                "MPI-4.1 §12.2.3 (info key); MPICH win_shared_noncontig", LayoutCases::noncontigAll)
            .add("layout.noncontig-one-rank-only", 2, Behaviour.LAYOUT_NONCONTIG,
                "alloc_shared_noncontig=true on rank 0 only: the others rely on contiguity, so it stays contiguous",
                "MPI-4.1 §12.2.3 (the hint lets the library, not the user, choose); docs/design.md#noncontiguous-only-when-every-process-asks",
                LayoutCases::noncontigOneRankOnly)
            .add("layout.alignment-contiguous", Behaviour.LAYOUT_ALIGNMENT,
                "sizes that are multiples of 8: every segment of a contiguous window is 8-byte aligned",
                "MPI-4.1 §12.2.3 alignment paragraph, §9.2; mpi-forum/mpi-issues#121", LayoutCases::alignmentContiguous)
            .add("layout.alignment-noncontig", Behaviour.LAYOUT_ALIGNMENT,
                "odd sizes with alloc_shared_noncontig=true: every non-empty segment is 8-byte aligned",
                "MPI-4.1 §12.2.3 (noncontig: each segment aligned); open-mpi/ompi PR #2978",
                LayoutCases::alignmentNoncontig)
            .add("layout.same-memory", 2, Behaviour.LAYOUT_SAME_MEMORY,
                "a store by rank r through its own base is loaded by every rank through sharedQuery(r) after a fence",
                "MPI-4.1 §12.2.3 (same memory, maybe different addresses), §12.5.1", LayoutCases::sameMemory)
            .allSharedOnly(FlavourNotes.LAYOUT)
            .list();
    }

    private static void contiguousDefault(final CaseContext c) throws Exception
    {
        final Win win = c.window(8L * (c.rank() + 1), 8);
        checkContiguous(c, win);
    }

    private static void contiguousAbsoluteIndex(final CaseContext c) throws Exception
    {
        final int n = 100;
        final Win win = c.window(4L * n, 4);
        win.lockAll(Win.MODE_NOCHECK);
        for (int j = 0; j < n; j++)
        {
            Memory.setInt(win.base(), j, c.rank() * n + j);
        }
        win.sync();
        c.barrier();
        win.sync();
        final SharedSegment whole = win.sharedQuery(MPI.PROC_NULL);
        final SharedSegment lastSegment = win.sharedQuery(c.last());
        if (lastSegment.memory().address() != whole.memory().address() + (long)c.last() * n * 4)
        {
            // Reading past the first segment would leave the mapping: report instead of crashing.
            c.fail("rank " + c.last() + "'s segment is not at element " + c.last() * n + " of rank 0's");
            win.unlockAll();
            return;
        }
        final var all = whole.memory().reinterpret((long)c.size() * n * 4);
        for (int i = 0; i < c.size() * n; i++)
        {
            if (Memory.getInt(all, i) != i)
            {
                c.fail("absolute element " + i + " is " + Memory.getInt(all, i));
                break;
            }
        }
        win.unlockAll();
    }

    private static void zeroSizeTakesNoRoom(final CaseContext c) throws Exception
    {
        final boolean edge = c.rank() == 0 || c.rank() == c.last();
        final Win win = c.window(edge ? 64 : 0, 4);
        c.checkEquals(win.sharedQuery(0).memory().address() + 64, win.sharedQuery(c.last()).memory().address(),
            "address of the last segment");
        checkContiguous(c, win);
    }

    private static void zeroSizeAddress(final CaseContext c) throws Exception
    {
        final Win win = c.window(c.rank() == 1 ? 0 : 24, 1);
        final SharedSegment zero = win.sharedQuery(1);
        c.checkEquals(0, zero.size(), "sharedQuery(1).size()");
        c.checkEquals(win.sharedQuery(0).memory().address() + 24, zero.memory().address(),
            "address of rank 1's empty segment");
    }

    private static void noncontigAll(final CaseContext c) throws Exception
    {
        final Win win = c.window(40, 4, CaseContext.info(NONCONTIG, "true"));
        c.checkEquals("true", win.getInfo().get(NONCONTIG), "getInfo " + NONCONTIG);
        win.fence(0);
        for (int j = 0; j < 10; j++)
        {
            Memory.setInt(win.base(), j, 1000 * c.rank() + j);
        }
        win.fence(0);
        for (int r = 0; r < c.size(); r++)
        {
            final SharedSegment s = win.sharedQuery(r);
            c.check(s.size() >= 40, "sharedQuery(" + r + ").size()=" + s.size() + " < 40");
            for (int j = 0; j < 10; j++)
            {
                c.checkEquals(1000 * r + j, Memory.getInt(s.memory(), j), "rank " + r + " element " + j);
            }
        }
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void noncontigOneRankOnly(final CaseContext c) throws Exception
    {
        final Win win = c.window(24, 1, c.rank() == 0 ? CaseContext.info(NONCONTIG, "true") : null);
        c.checkEquals("false", win.getInfo().get(NONCONTIG), "getInfo " + NONCONTIG);
        checkContiguous(c, win);
    }

    private static void alignmentContiguous(final CaseContext c) throws Exception
    {
        final Win win = c.window(8L * (c.rank() + 3), 8);
        for (int r = 0; r < c.size(); r++)
        {
            c.checkEquals(0, win.sharedQuery(r).memory().address() % 8, "address of rank " + r + " mod 8");
        }
    }

    private static void alignmentNoncontig(final CaseContext c) throws Exception
    {
        final Win win = c.window(3 + 2L * c.rank(), 1, CaseContext.info(NONCONTIG, "true"));
        for (int r = 0; r < c.size(); r++)
        {
            c.checkEquals(0, win.sharedQuery(r).memory().address() % 8, "address of rank " + r + " mod 8");
        }
    }

    private static void sameMemory(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        Memory.setLong(win.base(), 0, 0x5EED0000L + c.rank());
        win.fence(0);
        for (int r = 0; r < c.size(); r++)
        {
            c.checkEquals(0x5EED0000L + r, Memory.getLong(win.sharedQuery(r).memory(), 0), "rank " + r);
        }
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void checkContiguous(final CaseContext c, final Win win)
    {
        for (int r = 1; r < c.size(); r++)
        {
            final SharedSegment previous = win.sharedQuery(r - 1);
            c.checkEquals(previous.memory().address() + previous.size(), win.sharedQuery(r).memory().address(),
                "address of rank " + r + " (end of rank " + (r - 1) + ")");
        }
    }
}
