package mpi.rma.internal;

import mpi.rma.internal.message.ReplyReceipt;

/**
 * What is left of an operation that a request-based call started ({@code Win.rGet} and the others), for its
 * {@code WinRequest} to complete: nothing when the call completed it itself ({@link #DONE}: shared memory,
 * this process's own memory, puts and accumulates), or a reply still on its way ({@link ReplyReceipt}).
 * {@code call} names the user's call for error messages.
 */
public interface Completion
{
    /** Nothing left: the call completed the operation before it returned. */
    Completion DONE = new Completion()
    {
        @Override
        public boolean test(final String call)
        {
            return true;
        }

        @Override
        public void await(final String call)
        {
            // Complete already.
        }
    };

    /** Whether the operation is complete; if not, moves it on once (a device needs its caller to progress). */
    boolean test(String call);

    /** Returns once the operation is complete. */
    void await(String call);
}
