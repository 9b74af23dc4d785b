package mpi.rma.internal.message;

import mpi.Request;
import mpi.rma.internal.Completion;
import mpi.rma.internal.ProcessFailures;

/**
 * The reply of one get-like request on the message path (its elements), received by an MPJ Express
 * {@code Irecv} posted when the request was sent ({@link OutstandingReplies#expect}). MPJ Express
 * copies the elements into the origin's array when the receive is waited for or tested complete, on
 * the waiting thread (its completion handler), so a receipt counts as complete only once it has been.
 * A reply for a derived origin or result datatype lands in a dense array first: the receipt then
 * unpacks it into the program's buffer ({@code arrival}) as it completes, whoever completes it (the
 * request's wait or test, or a flush or unlock of the target).
 */
public final class ReplyReceipt implements Completion
{
    private final Request receive;
    private final int target;
    /** What runs once the elements have arrived, or null. */
    private final Runnable arrival;
    private boolean done;

    ReplyReceipt(final Request receive, final int target, final Runnable arrival)
    {
        this.receive = receive;
        this.target = target;
        this.arrival = arrival;
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
            if (done)
            {
                arrived();
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
            arrived();
        }
    }

    private void arrived()
    {
        if (arrival != null)
        {
            arrival.run();
        }
    }

    /** Whether the elements are in the origin's array (no MPJ Express call: for bookkeeping only). */
    boolean isDone()
    {
        return done;
    }
}
