package mpi.rma.internal.message;

import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.ProcessFailures;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;

/**
 * The origin's end of a window's two private communicators ({@link MessageWindow}): sends each request to a
 * target's {@link TargetAgent} in the wire format of {@link RmaRequest} (header, then run list and data when they do
 * not fit inline) and receives the replies and acknowledgements that come back. Every failure of the transport is
 * classified here, naming the rank and what was under way, so the callers only say which call it was.
 */
final class RequestChannel
{
    private final Intracomm requests;
    private final Intracomm replies;
    /** A dynamic window's replies start with a status (an access fault at the target, or none). */
    private final boolean dynamic;

    RequestChannel(final Intracomm requests, final Intracomm replies, final boolean dynamic)
    {
        this.requests = requests;
        this.replies = replies;
        this.dynamic = dynamic;
    }

    /** The communicator replies travel on. */
    Intracomm replyComm()
    {
        return replies;
    }

    /** Frees both communicators, once the agent is stopped and nothing travels on them any more. */
    void free()
    {
        requests.Free();
        replies.Free();
    }

    /** Sends {@code header} to {@code target}'s agent, behind every earlier request of this process. */
    void send(final String call, final int target, final long[] header)
    {
        try
        {
            requests.Send(header, 0, header.length, MPI.LONG, target, RmaRequest.REQUEST_TAG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the request to rank " + target, e);
        }
    }

    /** A request with {@code count} elements of data: inline in the header when small, else in a second message. */
    void sendWithData(final String call, final int target, final long kind, final BasicType type,
        final ReduceOp op, final long offset, final Object data, final int index, final int count)
    {
        if (RmaRequest.inline(count))
        {
            send(call, target, RmaRequest.withData(kind, type, op, offset, data, index, count));
            return;
        }
        send(call, target, RmaRequest.header(kind, type, op, count, offset, false));
        sendData(call, target, type, data, index, count);
    }

    /**
     * A request to a derived target: its run list in the header when short, else in a message of its own, and
     * {@code count} elements of {@code data} (null: none) inline when few, else in a data message (RmaRequest).
     */
    void sendWithRuns(final String call, final int target, final long kind, final BasicType type,
        final ReduceOp op, final long offset, final TargetRuns runs, final Object data, final int index,
        final int count)
    {
        final boolean dataInline = data != null && RmaRequest.inline(count);
        send(call, target, RmaRequest.withRuns(kind, type, op, count, offset, runs, dataInline ? data : null, index));
        if (!RmaRequest.inlineLayout(runs.encodedLongs()))
        {
            final long[] layout = runs.encode();
            try
            {
                requests.Send(layout, 0, layout.length, MPI.LONG, target, RmaRequest.LAYOUT_TAG);
            }
            catch (final RuntimeException e)
            {
                throw ProcessFailures.classify(call, "the target layout to rank " + target, e);
            }
        }
        if (data != null && !dataInline)
        {
            sendData(call, target, type, data, index, count);
        }
    }

    /** The request of a get: dense, or to a derived target's runs. */
    void sendGet(final String call, final int target, final BasicType type, final int count,
        final long offset, final TargetRuns runs)
    {
        if (runs == null)
        {
            send(call, target, RmaRequest.header(RmaRequest.GET, type, null, count, offset, false));
        }
        else
        {
            sendWithRuns(call, target, RmaRequest.GET, type, null, offset, runs, null, 0, count);
        }
    }

    /** The request of a getAccumulate or fetchAndOp, with its operands unless the op is NO_OP. */
    void sendGetAccumulate(final String call, final int target, final BasicType type, final ReduceOp op,
        final Object origin, final int originOffset, final int count, final long offset, final TargetRuns runs)
    {
        final Object operands = op.readsOrigin() ? origin : null;
        if (runs != null)
        {
            sendWithRuns(call, target, RmaRequest.GET_ACCUMULATE, type, op, offset, runs, operands, originOffset,
                count);
        }
        else if (operands == null)
        {
            send(call, target, RmaRequest.header(RmaRequest.GET_ACCUMULATE, type, op, count, offset, false));
        }
        else
        {
            sendWithData(call, target, RmaRequest.GET_ACCUMULATE, type, op, offset, origin, originOffset, count);
        }
    }

    private void sendData(final String call, final int target, final BasicType type, final Object data,
        final int offset, final int count)
    {
        try
        {
            requests.Send(data, offset, count, RmaRequest.datatype(type), target, RmaRequest.DATA_TAG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the data to rank " + target, e);
        }
    }

    /** Tells each of {@code granted}, origins waiting for this process's own lock, that it now holds it. */
    void tellGranted(final String call, final List<Integer> granted)
    {
        for (final int origin : granted)
        {
            try
            {
                final long[] grant = AccessFault.acknowledgement(RmaRequest.LOCK, null, 0);
                replies.Send(grant, 0, grant.length, MPI.LONG, origin, RmaRequest.REPLY_TAG);
            }
            catch (final RuntimeException e)
            {
                throw ProcessFailures.classify(call, "granting rank " + origin + " the lock", e);
            }
        }
    }

    /**
     * The elements of a get-like request of {@code kind}. On a dynamic window a status comes first:
     * an access fault there throws at once, naming the target and address, and no elements follow.
     */
    void receiveReply(final String call, final int target, final long kind, final BasicType type,
        final Object into, final int offset, final int count)
    {
        if (dynamic)
        {
            final AccessFault fault = AccessFault.of(awaitAcknowledgement(call, target, kind));
            if (fault != null)
            {
                throw fault.immediate(call, target);
            }
        }
        try
        {
            replies.Recv(into, offset, count, RmaRequest.datatype(type), target, RmaRequest.REPLY_TAG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the reply from rank " + target, e);
        }
    }

    /** The acknowledgement of {@code kind} from {@code target} (or a reply's status): see {@link AccessFault}. */
    long[] awaitAcknowledgement(final String call, final int target, final long kind)
    {
        final long[] ack = new long[RmaRequest.ACK_LONGS];
        try
        {
            replies.Recv(ack, 0, ack.length, MPI.LONG, target, RmaRequest.REPLY_TAG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the acknowledgement from rank " + target, e);
        }
        if (ack[0] != kind)
        {
            throw new RmaException(ErrorClass.ERR_OTHER, call + ": rank " + target + " acknowledged request kind " +
                ack[0] + " where " + kind + " was due: the window's messages are out of step");
        }
        return ack;
    }

    /**
     * Agrees with every process on the worst error brought: throws {@code localError} if not null, else an error of
     * the worst class any other process brought, else returns. The Allreduce is also the barrier of fence and free.
     */
    void agree(final String call, final RmaException localError)
    {
        final int[] own = {localError == null ? 0 : localError.errorClass().ordinal() + 1};
        final int[] worst = new int[1];
        try
        {
            replies.Allreduce(own, 0, worst, 0, 1, MPI.INT, MPI.MAX);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the agreement's Allreduce", e);
        }
        if (localError != null)
        {
            throw localError;
        }
        if (worst[0] != 0)
        {
            throw new RmaException(ErrorClass.values()[worst[0] - 1], call + " failed on every process: another " +
                "process called it wrongly (its exception says how)");
        }
    }
}
