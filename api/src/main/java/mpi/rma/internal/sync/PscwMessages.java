package mpi.rma.internal.sync;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.rma.RmaException;
import mpi.rma.internal.ProcessFailures;
import mpi.rma.internal.message.MessageFaults;
import mpi.rma.internal.message.MessageWindow;
import mpi.rma.internal.message.RmaRequest;

/**
 * Post and complete by MPJ Express messages on the window's private communicators, for targets
 * reached by messages ({@link MessageWindow}):
 * <ul>
 * <li>a post is a message from the target to the origin on the reply communicator with
 *     {@link RmaRequest#POST_TAG}, which the origin's start receives (blocking until the target posts);
 *     with {@code Win.MODE_NOCHECK} on both sides neither is sent nor received. It is sent with
 *     {@code Isend}, since post must not wait (on multicore a {@code Send} waits for its receive: a
 *     ring of posts would wait for ever), and the send is completed by the wait that ends the epoch:
 *     the origin received it before it could complete;</li>
 * <li>a complete is a {@link RmaRequest#COMPLETE} request to the target's agent, behind the origin's
 *     puts and accumulates in the same ordered stream, so the agent has applied them when it counts the
 *     complete ({@link PscwCompletions}); the origin does not wait for it. On a dynamic window the
 *     origin first flushes the target, whose acknowledgement carries the access faults of the epoch.</li>
 * </ul>
 * A target that died makes start's receive fail naming it (on {@code -dev shm}); an origin that died
 * stops this process's agent, which fails the wait.
 */
public final class PscwMessages implements PscwPath
{
    /** A post carries nothing but its arrival. */
    private static final long[] POST = {1};

    private final MessageWindow window;
    private final PscwCompletions completions;
    /** Posts this process made to each origin: the completes it waits for from it. */
    private final long[] postsTo;
    private final long[] postMessage = new long[1];
    /** Per origin, the send of this process's last post to it, until the wait of its epoch completes it. */
    private final Request[] postSends;

    public PscwMessages(final MessageWindow window, final int ranks)
    {
        this.window = window;
        this.completions = window.completions();
        this.postsTo = new long[ranks];
        this.postSends = new Request[ranks];
    }

    @Override
    public void post(final String call, final int origin, final boolean noCheck)
    {
        postsTo[origin]++;
        if (noCheck)
        {
            return;
        }
        final Intracomm replies = window.replyComm();
        try
        {
            finishPost(call, origin);
            postSends[origin] = replies.Isend(POST, 0, 1, MPI.LONG, origin, RmaRequest.POST_TAG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the post to rank " + origin, e);
        }
    }

    @Override
    public void start(final String call, final int target, final boolean noCheck)
    {
        if (noCheck)
        {
            // The program asserts that the post has happened: MODE_NOCHECK's saving is this message.
            return;
        }
        if (MessageFaults.startsWithoutPost())
        {
            // The test fault: the post is taken whenever it comes (so the target's send ends), not waited for.
            window.replyComm().Irecv(new long[1], 0, 1, MPI.LONG, target, RmaRequest.POST_TAG);
            return;
        }
        try
        {
            window.replyComm().Recv(postMessage, 0, 1, MPI.LONG, target, RmaRequest.POST_TAG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "waiting for the win.post of rank " + target, e);
        }
    }

    @Override
    public RmaException complete(final String call, final int target)
    {
        final RmaException fault = window.isDynamic() ? window.flushCollecting(call, target) : null;
        window.send(call, target, RmaRequest.control(RmaRequest.COMPLETE, false));
        return fault;
    }

    @Override
    public boolean completed(final String call, final int origin)
    {
        if (!completions.reached(call, origin, postsTo[origin]))
        {
            return false;
        }
        finishPost(call, origin);
        return true;
    }

    @Override
    public void awaitComplete(final String call, final int origin)
    {
        completions.await(call, origin, postsTo[origin]);
        finishPost(call, origin);
    }

    /** Completes the send of the last post to {@code origin}: received already once the origin has completed. */
    private void finishPost(final String call, final int origin)
    {
        final Request send = postSends[origin];
        if (send == null)
        {
            return;
        }
        postSends[origin] = null;
        try
        {
            send.Wait();
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the post to rank " + origin, e);
        }
    }
}
