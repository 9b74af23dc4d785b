package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.SharedSegment;
import mpi.rma.Win;

/** sharedQuery (docs/conformance-checklist.md#sharedquery-proc_null-and-zero-sizes). */
public final class QueryCases
{
    private QueryCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.QUERY)
            .add("query.any-rank", Behaviour.QUERY_ANY_RANK,
                "every rank queries every rank and gets that rank's size and disp unit (sizes 8(r+1), units 1,2,4,8)",
                "MPI-4.1 §12.2.3; MPICH win_shared_noncontig, win_shared_zerobyte", QueryCases::anyRank)
            .sharedOnly(FlavourNotes.OTHERS_MEMORY)
            .add("query.self", Behaviour.QUERY_ANY_RANK,
                "sharedQuery(own rank) is the segment allocateShared gave this rank (same address and size)",
                "MPI-4.1 §12.2.3; mpi4py testSharedQuery; MPICH win_shared", QueryCases::self)
            .notDynamic(FlavourNotes.DYNAMIC_QUERY)
            .add("query.proc-null-lowest-nonzero", 2, Behaviour.QUERY_PROC_NULL,
                "rank 0 asks 0 bytes, the others 16 with disp unit 4: sharedQuery(PROC_NULL) is rank 1's segment",
                "MPI-4.1 §12.2.3; MPICH win_shared_query_null", QueryCases::procNullLowestNonzero)
            .sharedOnly(FlavourNotes.OTHERS_MEMORY)
            .add("query.proc-null-rank-zero", Behaviour.QUERY_PROC_NULL,
                "every rank asks 16 bytes: sharedQuery(PROC_NULL) is rank 0's segment (on rank 0, its own base)",
                "MPI-4.1 §12.2.3; MPICH win_shared", QueryCases::procNullRankZero)
            .sharedOnly(FlavourNotes.OTHERS_MEMORY)
            .add("query.proc-null-all-zero", Behaviour.QUERY_PROC_NULL,
                "all sizes 0: sharedQuery(PROC_NULL) gives size 0 (an empty segment, as ALLOC_MEM(0))",
                "MPI-4.1 §12.2.3", QueryCases::procNullAllZero)
            .add("query.rank-too-large", Behaviour.QUERY_BAD_RANK,
                "sharedQuery(size of the group): MPI_ERR_RANK",
                "MPI-4.1 §12.6.2; Open MPI win_shared_query.c.in", QueryCases::rankTooLarge)
            .add("query.rank-negative", Behaviour.QUERY_BAD_RANK,
                "sharedQuery(-5) (negative, not PROC_NULL): MPI_ERR_RANK",
                "MPI-4.1 §12.6.2; MPICH errors/rma/winerr (rank -5)", QueryCases::rankNegative)
            .add("query.local-call", 2, Behaviour.QUERY_LOCAL,
                "sharedQuery is local: rank 0 queries 1000 times while the others do nothing, nobody waits",
                "MPI-4.1 §12.2.3 (not collective); MPICH win_shared_rma_flush_load (only the checker queries)",
                QueryCases::localCall)
            .add("query.no-epoch-needed", Behaviour.QUERY_LOCAL,
                "sharedQuery needs no epoch: it works before the first fence and after fence(NOSUCCEED)",
                "MPI-4.1 §12.2.3", QueryCases::noEpochNeeded)
            .sharedOnly(FlavourNotes.OTHERS_MEMORY)
            .list();
    }

    private static void anyRank(final CaseContext c) throws Exception
    {
        final Win win = c.window(8L * (c.rank() + 1), 1 << (c.rank() % 4));
        for (int r = 0; r < c.size(); r++)
        {
            final SharedSegment s = win.sharedQuery(r);
            c.checkEquals(8L * (r + 1), s.size(), "sharedQuery(" + r + ").size()");
            c.checkEquals(1 << (r % 4), s.dispUnit(), "sharedQuery(" + r + ").dispUnit()");
            c.checkEquals(s.size(), s.memory().byteSize(), "sharedQuery(" + r + ").memory().byteSize()");
        }
    }

    private static void self(final CaseContext c) throws Exception
    {
        final Win win = c.window(48, 4);
        final SharedSegment own = win.sharedQuery(c.rank());
        c.checkEquals(win.base().address(), own.memory().address(), "address");
        c.checkEquals(48, own.size(), "size");
        c.checkEquals(4, own.dispUnit(), "dispUnit");
    }

    private static void procNullLowestNonzero(final CaseContext c) throws Exception
    {
        final Win win = c.window(c.rank() == 0 ? 0 : 16, 4);
        final SharedSegment any = win.sharedQuery(MPI.PROC_NULL);
        c.checkEquals(16, any.size(), "size");
        c.checkEquals(4, any.dispUnit(), "dispUnit");
        c.checkEquals(win.sharedQuery(1).memory().address(), any.memory().address(), "address");
    }

    private static void procNullRankZero(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 1);
        c.checkEquals(win.sharedQuery(0).memory().address(), win.sharedQuery(MPI.PROC_NULL).memory().address(),
            "address");
    }

    private static void procNullAllZero(final CaseContext c) throws Exception
    {
        final Win win = c.window(0, 8);
        c.checkEquals(0, win.sharedQuery(MPI.PROC_NULL).size(), "size");
    }

    private static void rankTooLarge(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        c.expectError(ErrorClass.ERR_RANK, "sharedQuery(" + c.size() + ")", () -> win.sharedQuery(c.size()));
    }

    private static void rankNegative(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        c.expectError(ErrorClass.ERR_RANK, "sharedQuery(-5)", () -> win.sharedQuery(-5));
    }

    private static void localCall(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        if (c.isRoot())
        {
            for (int i = 0; i < 1000; i++)
            {
                win.sharedQuery(i % c.size());
            }
        }
    }

    private static void noEpochNeeded(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        c.checkEquals(8, win.sharedQuery(c.last()).size(), "before any fence");
        win.fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED);
        c.checkEquals(8, win.sharedQuery(c.last()).size(), "after fence(NOSUCCEED)");
    }
}
