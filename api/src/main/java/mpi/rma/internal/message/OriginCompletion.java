package mpi.rma.internal.message;

import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.internal.Completion;
import mpi.rma.spi.common.BasicType;

/**
 * What this origin still owes each target of its {@link MessageWindow}, and how it pays: puts and accumulates are
 * sent and not waited for, so a target sent any since its last flush is marked, and a flush to it sends a FLUSH and
 * waits for the acknowledgement the agent sends after applying every earlier request of this origin. Replies of
 * request-based gets and get-accumulates ({@link OutstandingReplies}) are received first: they come before anything
 * asked for after them. An unlock completes like a flush, its UNLOCK standing for the FLUSH.
 */
final class OriginCompletion
{
    private final RequestChannel channel;
    private final int ranks;
    /** Targets sent puts or accumulates since their last flush, fence or unlock. */
    private final boolean[] unflushed;
    /** Replies of request-based gets not yet known to have arrived. */
    private final OutstandingReplies outstanding;

    OriginCompletion(final RequestChannel channel, final int ranks)
    {
        this.channel = channel;
        this.ranks = ranks;
        this.unflushed = new boolean[ranks];
        this.outstanding = new OutstandingReplies(channel.replyComm(), ranks);
    }

    /** Notes that {@code target} was sent a put or accumulate, which only a flush, fence or unlock completes. */
    void sent(final int target)
    {
        unflushed[target] = true;
    }

    /** The completion of a request-based get-like call whose reply of {@code count} elements is still to come. */
    Completion expect(final String call, final int target, final BasicType type, final Object into, final int offset,
        final int count, final Runnable arrival)
    {
        return outstanding.expect(call, target, type, into, offset, count, arrival);
    }

    /** {@link MessageWindow#flush}, returning the first access fault reported instead of throwing it. */
    RmaException flushCollecting(final String call, final int target)
    {
        if (target == -1)
        {
            RmaException first = null;
            for (int peer = 0; peer < ranks; peer++)
            {
                final RmaException fault = flushCollecting(call, peer);
                first = first == null ? fault : first;
            }
            return first;
        }
        if (target == MPI.PROC_NULL)
        {
            return null;
        }
        // Request-based gets complete at a flush too; their replies come before anything asked for after them.
        outstanding.complete(call, target);
        if (!unflushed[target])
        {
            return null;
        }
        channel.send(call, target, RmaRequest.control(RmaRequest.FLUSH, false));
        final long[] ack = channel.awaitAcknowledgement(call, target, RmaRequest.FLUSH);
        unflushed[target] = false;
        final AccessFault fault = AccessFault.of(ack);
        return fault == null ? null : fault.deferred(call, target, ack[RmaRequest.ACK_FAULTS], "");
    }

    /**
     * Completes this process's operations at another process {@code target} and releases its lock there.
     *
     * @throws RmaException ERR_RMA_RANGE if a put or accumulate found no attached memory there; the lock is then
     *                      still held.
     */
    void unlock(final String call, final int target, final boolean exclusive)
    {
        outstanding.complete(call, target);
        channel.send(call, target, RmaRequest.control(RmaRequest.UNLOCK, exclusive));
        final long[] ack = channel.awaitAcknowledgement(call, target, RmaRequest.UNLOCK);
        unflushed[target] = false;
        final AccessFault fault = AccessFault.of(ack);
        if (fault != null)
        {
            // The target kept the lock (TargetAgent): the epoch stays open on both sides, and unlock again ends it.
            throw fault.deferred(call, target, ack[RmaRequest.ACK_FAULTS], "; the lock on rank " + target +
                " is still held: call unlock again to release it");
        }
    }
}
