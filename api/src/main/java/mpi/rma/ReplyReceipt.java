package mpi.rma;

import mpi.Request;

/**
 * The reply of one get-like request on the message path (its elements), received by an MPJ Express
 * {@code Irecv} posted when the request was sent ({@link OutstandingReplies#expect}). MPJ Express
 * copies the elements into the origin's array when the receive is waited for or tested complete, on
 * the waiting thread (its completion handler), so a receipt counts as complete only once it has been.
 */
final class ReplyReceipt implements Completion
{
    private final Request receive;
    private final int target;
    private boolean done;

    ReplyReceipt(final Request receive, final int target)
    {
        this.receive = receive;
        this.target = target;
    }

    @Override
    public boolean test(final String call)
    {
        if (!done)
        {
            try
            {
                // Non-null once complete; MPJ Express then runs the handler that fills the array.
                done = receive.Test() != null;
            }
            catch (final RuntimeException e)
            {
                throw ProcessFailures.classify(call, "the reply from rank " + target, e);
            }
        }
        return done;
    }

    @Override
    public void await(final String call)
    {
        if (!done)
        {
            try
            {
                receive.Wait();
            }
            catch (final RuntimeException e)
            {
                throw ProcessFailures.classify(call, "the reply from rank " + target, e);
            }
            done = true;
        }
    }

    /** Whether the elements are in the origin's array (no MPJ Express call: for bookkeeping only). */
    boolean isDone()
    {
        return done;
    }
}
