package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * The erroneous uses of post, start, complete and wait (docs/conformance-checklist.md#post-start-complete-wait):
 * epochs closed that were never opened, nested, mixed with locks or fences, accesses outside the start group,
 * free with an epoch open. PscwCases has the synchronisation itself.
 */
public final class PscwErrorCases
{
    private PscwErrorCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.PSCW)
            .add("pscw.complete-without-start", Behaviour.PSCW_ERRORS,
                "complete with no access epoch from start: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.2, §12.6.2; MPICH errors/rma/win_sync_complete", PscwErrorCases::completeWithoutStart)
            .add("pscw.wait-without-post", Behaviour.PSCW_ERRORS,
                "waitFor and test with no exposure epoch from post: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5.2, §12.6.2; MPICH errors/rma/win_sync_wait", PscwErrorCases::waitWithoutPost)
            .add("pscw.nested-epochs", Behaviour.PSCW_ERRORS,
                "start inside an access epoch from start, post inside an exposure epoch from post: " +
                    "MPI_ERR_RMA_SYNC; a start naming itself before its own post: MPI_ERR_RMA_SYNC, not a hang",
                "MPI-4.1 §12.5.2; MPICH errors/rma/win_sync_nested", PscwErrorCases::nestedEpochs)
            .add("pscw.rma-outside-start-group", 2, Behaviour.PSCW_ERRORS,
                "a put to a rank that is not in the group of start: MPI_ERR_RMA_SYNC naming it",
                "MPI-4.1 §12.5.2 (accesses only to the start group); MPICH errors/rma/win_sync_op",
                PscwErrorCases::rmaOutsideStartGroup)
            .add("pscw.lock-in-access-epoch", Behaviour.PSCW_ERRORS,
                "lock and lockAll while an access epoch from start is open: MPI_ERR_RMA_SYNC; start inside a lock " +
                    "epoch: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.5 (access epochs do not overlap); MPICH errors/rma/win_sync_lock_at",
                PscwErrorCases::lockInAccessEpoch)
            .add("pscw.fence-in-epoch", 2, Behaviour.PSCW_ERRORS,
                "fence while an exposure epoch is open on every rank: MPI_ERR_RMA_SYNC on every rank; after the " +
                    "epoch a fence works",
                "MPI-4.1 §12.5 (epochs are disjoint); MPICH errors/rma/win_sync_lock_fence",
                PscwErrorCases::fenceInEpoch)
            .add("pscw.start-after-fence-rma", Behaviour.PSCW_ERRORS,
                "start and post while a fence epoch with a put is open: MPI_ERR_RMA_SYNC; after fence(NOSUCCEED) " +
                    "they work",
                "MPI-4.1 §12.5, §12.7; docs/design.md#lock-after-fence-only-if-no-rma-since",
                PscwErrorCases::startAfterFenceRma)
            .add("pscw.free-with-epoch-open", 2, Behaviour.PSCW_ERRORS,
                "free while rank 0 has an exposure epoch open: MPI_ERR_RMA_SYNC on every rank, and the window " +
                    "stays usable",
                "MPI-4.1 §12.2.5; MPICH errors/rma/win_sync_free_at; docs/design.md#collective-calls-fail-together",
                    PscwErrorCases::freeWithEpochOpen)
            .list();
    }

    private static void completeWithoutStart(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "complete", win::complete);
    }

    private static void waitWithoutPost(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "waitFor", win::waitFor);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "test", win::test);
    }

    private static void nestedEpochs(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "start before its own post",
            () -> win.start(PscwCases.group(win, c.rank()), 0));
        win.post(PscwCases.group(win, c.rank()), 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "post twice", () -> win.post(PscwCases.group(win, c.rank()), 0));
        win.start(PscwCases.group(win, c.rank()), 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "start twice", () -> win.start(PscwCases.group(win, c.rank()), 0));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "waitFor before its own complete", win::waitFor);
        win.complete();
        win.waitFor();
    }

    private static void rmaOutsideStartGroup(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final int other = (c.rank() + 1) % c.size();
        win.post(PscwCases.group(win, c.rank()), 0);
        win.start(PscwCases.group(win, c.rank()), 0);
        final RmaException e = c.expectError(ErrorClass.ERR_RMA_SYNC, "put to rank " + other,
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, other, c.disp(win, other, 0), 1, MPI.LONG));
        c.check(e == null || e.getMessage().contains("rank " + other), "message without the rank: " + e);
        win.complete();
        win.waitFor();
    }

    private static void lockInAccessEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.post(PscwCases.group(win, c.rank()), 0);
        win.start(PscwCases.group(win, c.rank()), 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "lock", () -> win.lock(Win.LOCK_SHARED, c.rank(), 0));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "lockAll", () -> win.lockAll(0));
        win.complete();
        win.waitFor();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "start in a lock epoch",
            () -> win.start(PscwCases.group(win, c.rank()), 0));
        win.unlock(c.rank());
    }

    private static void fenceInEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.post(PscwCases.group(win, c.rank()), 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "fence in an exposure epoch", () -> win.fence(0));
        win.start(PscwCases.group(win, c.rank()), 0);
        win.complete();
        win.waitFor();
        win.fence(0);
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void startAfterFenceRma(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        win.put(new long[] {1}, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "start", () -> win.start(PscwCases.group(win, c.rank()), 0));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "post", () -> win.post(PscwCases.group(win, c.rank()), 0));
        win.fence(Win.MODE_NOSUCCEED);
        win.post(PscwCases.group(win, c.rank()), 0);
        win.start(PscwCases.group(win, c.rank()), 0);
        win.complete();
        win.waitFor();
    }

    private static void freeWithEpochOpen(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        if (c.isRoot())
        {
            win.post(PscwCases.group(win, 0), 0);
        }
        c.expectError(ErrorClass.ERR_RMA_SYNC, "free with rank 0's exposure epoch open", win::free);
        if (c.isRoot())
        {
            win.start(PscwCases.group(win, 0), 0);
            win.put(new long[] {5}, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG);
            win.complete();
            win.waitFor();
            c.checkEquals(5, Memory.getLong(c.memory(win), 0), "the window after the failed free");
        }
    }
}
