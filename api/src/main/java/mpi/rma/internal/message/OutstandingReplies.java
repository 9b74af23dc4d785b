package mpi.rma.internal.message;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import mpi.Intracomm;
import mpi.Request;
import mpi.rma.internal.ProcessFailures;
import mpi.rma.spi.common.BasicType;

/**
 * The replies this process still expects on the message path for request-based gets
 * ({@code Win.rGet}, {@code Win.rGetAccumulate}), per target, oldest first. Each has an {@code Irecv}
 * posted on the window's reply communicator; MPJ Express matches messages from one process on one
 * communicator and tag in the order the receives were posted, so a reply always lands in the receive
 * of its own request, whatever blocking receives (a get's reply, a flush's acknowledgement) the origin
 * posts after it. A flush or unlock of a target completes that target's receipts first
 * ({@link #complete}): MPI-4.1 section 12.3.5 makes them complete the operations, and MPJ Express
 * fills a receive's array only when someone waits for it.
 */
public final class OutstandingReplies
{
    private final Intracomm replies;
    /** Per target, made on its first request-based get: most windows never make one. */
    private final List<ArrayDeque<ReplyReceipt>> byTarget;

    OutstandingReplies(final Intracomm replies, final int ranks)
    {
        this.replies = replies;
        this.byTarget = new ArrayList<>(Collections.nCopies(ranks, null));
    }

    /**
     * Posts the receive of {@code count} elements of {@code type} from {@code target} into {@code into};
     * {@code arrival}, unless null, runs once they are there (a derived origin's unpacking).
     */
    ReplyReceipt expect(final String call, final int target, final BasicType type, final Object into,
        final int offset, final int count, final Runnable arrival)
    {
        final Request receive;
        try
        {
            receive = replies.Irecv(into, offset, count, RmaRequest.datatype(type), target, RmaRequest.REPLY_TAG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "posting the receive of rank " + target + "'s reply", e);
        }
        final ReplyReceipt receipt = new ReplyReceipt(receive, target, arrival);
        ArrayDeque<ReplyReceipt> queue = byTarget.get(target);
        if (queue == null)
        {
            queue = new ArrayDeque<>();
            byTarget.set(target, queue);
        }
        // Receipts the program completed itself are dropped from the front, so the queue stays short.
        while (!queue.isEmpty() && queue.peekFirst().isDone())
        {
            queue.pollFirst();
        }
        queue.addLast(receipt);
        return receipt;
    }

    /** Waits for every reply still expected from {@code target}, oldest first. */
    void complete(final String call, final int target)
    {
        final ArrayDeque<ReplyReceipt> queue = byTarget.get(target);
        while (queue != null && !queue.isEmpty())
        {
            queue.peekFirst().await(call);
            queue.pollFirst();
        }
    }
}
