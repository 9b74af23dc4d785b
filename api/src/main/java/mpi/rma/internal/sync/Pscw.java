package mpi.rma.internal.sync;

import java.lang.invoke.VarHandle;

import mpi.Group;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.Epochs;
import mpi.rma.internal.WindowGroup;
import mpi.rma.internal.vocabulary.Assertions;

/**
 * Generalized active-target synchronisation of one window (MPI-4.1 section 12.5.2): what
 * {@code Win.post}, {@code Win.start}, {@code Win.complete}, {@code Win.waitFor} and {@code Win.test}
 * do once their arguments are checked. The epochs' rules are {@link Epochs}' and {@link PscwEpochs}';
 * the signals travel by the window's {@link PscwPath} (flag words in shared memory, or messages).
 *
 * <p>This process in its own groups is handled here, with counters: a start that names itself
 * before its own post, or a wait that names itself before its own complete, would wait for itself,
 * and is ERR_RMA_SYNC instead of a hang.
 *
 * <p><b>Memory consistency.</b> A full fence before the signals of post and complete orders this
 * process's earlier loads and stores (and, on shared memory, the stores of its RMA calls) before
 * them; a full fence after start's and wait's waits orders what follows after the signals seen.
 */
public final class Pscw
{
    private static final int START_ASSERTIONS = Assertions.NOCHECK;
    private static final int POST_ASSERTIONS = Assertions.NOCHECK | Assertions.NOSTORE | Assertions.NOPUT;

    private final int rank;
    private final Epochs epochs;
    private final PscwEpochs state;
    private final WindowGroup groups;
    private final PscwPath path;
    private long selfPosts;
    private long selfStarts;
    private long selfCompletes;

    public Pscw(final int rank, final Epochs epochs, final WindowGroup groups, final PscwPath path)
    {
        this.rank = rank;
        this.epochs = epochs;
        this.state = epochs.pscw();
        this.groups = groups;
        this.path = path;
    }

    public void post(final Group group, final int assertion)
    {
        final String call = "Win.post";
        checkAssertion(call, assertion, POST_ASSERTIONS, "MODE_NOCHECK, MODE_NOSTORE, MODE_NOPUT");
        final int[] origins = groups.ranksOf(call, group);
        epochs.checkPost();
        if ((assertion & Assertions.NOSTORE) == 0)
        {
            // This process's stores to its memory come before any origin's access to it. MODE_NOSTORE says there
            // were none since the last synchronisation: nothing to order.
            VarHandle.fullFence();
        }
        final boolean noCheck = (assertion & Assertions.NOCHECK) != 0;
        for (final int origin : origins)
        {
            if (origin == rank)
            {
                selfPosts++;
            }
            else
            {
                path.post(call, origin, noCheck);
            }
        }
        epochs.posted(origins);
    }

    public void start(final Group group, final int assertion)
    {
        final String call = "Win.start";
        checkAssertion(call, assertion, START_ASSERTIONS, "MODE_NOCHECK");
        final int[] targets = groups.ranksOf(call, group);
        epochs.checkStart();
        final boolean noCheck = (assertion & Assertions.NOCHECK) != 0;
        if (!noCheck && contains(targets, rank) && selfPosts <= selfStarts)
        {
            throw new RmaException(ErrorClass.ERR_RMA_SYNC, call + ": the group includes this process (rank " + rank +
                "), which has not posted to itself: call win.post with a group that includes rank " + rank +
                " first (win.start would wait for itself)");
        }
        for (final int target : targets)
        {
            if (target == rank)
            {
                selfStarts++;
            }
            else
            {
                path.start(call, target, noCheck);
            }
        }
        // The RMA calls that follow come after the posts seen.
        VarHandle.fullFence();
        epochs.started(targets);
    }

    public void complete()
    {
        final String call = "Win.complete";
        final int[] targets = state.checkComplete();
        // The stores of this epoch's RMA calls on shared memory come before the signals.
        VarHandle.fullFence();
        RmaException fault = null;
        try
        {
            for (final int target : targets)
            {
                if (target == rank)
                {
                    selfCompletes++;
                    continue;
                }
                final RmaException found = path.complete(call, target);
                fault = fault == null ? found : fault;
            }
        }
        finally
        {
            // Ended even if a signal failed (a dead target): the program can go on with the others.
            state.completed();
        }
        if (fault != null)
        {
            throw fault;
        }
    }

    public void waitFor()
    {
        final String call = "Win.waitFor";
        final int[] origins = state.checkWait(call);
        if (contains(origins, rank) && selfCompletes < selfPosts)
        {
            throw new RmaException(ErrorClass.ERR_RMA_SYNC, call + ": the group of win.post includes this process " +
                "(rank " + rank + "), which has not called win.complete for it: call win.complete() first " +
                "(win.waitFor would wait for itself)");
        }
        for (final int origin : origins)
        {
            if (origin != rank)
            {
                path.awaitComplete(call, origin);
            }
        }
        // This process's loads after the wait see the origins' updates.
        VarHandle.fullFence();
        state.waited();
    }

    public boolean test()
    {
        final String call = "Win.test";
        final int[] origins = state.checkWait(call);
        for (final int origin : origins)
        {
            if (origin == rank ? selfCompletes < selfPosts : !path.completed(call, origin))
            {
                return false;
            }
        }
        VarHandle.fullFence();
        state.waited();
        return true;
    }

    private static void checkAssertion(final String call, final int assertion, final int allowed,
        final String allowedText)
    {
        if ((assertion & ~allowed) != 0)
        {
            throw new RmaException(ErrorClass.ERR_ASSERT, call + ": assertion=" + assertion + " has bits " + call +
                " does not accept: give 0 or an OR of " + allowedText);
        }
    }

    private static boolean contains(final int[] ranks, final int rank)
    {
        for (final int member : ranks)
        {
            if (member == rank)
            {
                return true;
            }
        }
        return false;
    }
}
