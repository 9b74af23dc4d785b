package mpi.rma;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import mpi.Intracomm;
import mpi.MPI;

/**
 * The message path of a window: every process's memory is reached through MPJ Express
 * point-to-point on two communicators private to the window (duplicated from the user's at
 * creation, so any device carries it: niodev across nodes, shm, multicore). Requests go to the
 * target's {@link TargetAgent} on one; replies come back on the other, received by the origin's
 * own thread. This process's own memory is reached directly, under the same monitor as the
 * agent ({@link ExposedMemory}), never by a message to itself.
 *
 * <p>Completion: puts and accumulates are sent and not waited for; gets, get-accumulates and
 * compare-and-swaps wait for their reply, so they complete when they return. A flush to a target
 * with puts or accumulates outstanding sends a FLUSH and waits for its acknowledgement, which the
 * agent sends after applying every earlier request of this origin. A fence flushes every such
 * target, then agrees with every process (an Allreduce of error classes, which is also the barrier):
 * when it returns, every operation issued before it by anyone is applied. Free does the same, then
 * stops the agents (docs/design.md#free-of-a-window-reached-by-messages).
 *
 * <p>Used by the window's one user thread; the agent runs beside it.
 */
final class MessageWindow
{
    /** How long free waits for this process's agent to take its STOP before calling it stuck. */
    private static final long AGENT_STOP_TIMEOUT_MS = 60_000;

    private final Intracomm requests;
    private final Intracomm replies;
    private final int rank;
    private final int ranks;
    private final ExposedMemory exposed;
    private final PassiveLockQueue lockQueue;
    /** Null with one process: nobody else sends requests. */
    private final TargetAgent agent;
    /** Targets sent puts or accumulates since their last flush, fence or unlock. */
    private final boolean[] unflushed;
    /** {@link Win#FLAVOR_CREATE} or {@link Win#FLAVOR_ALLOCATE}. */
    private final int flavor;
    /** The arena of memory the library allocated ({@link Win#allocate}), closed by free; null for user memory. */
    private final Arena ownedMemory;

    private MessageWindow(final Intracomm requests, final Intracomm replies, final ExposedMemory exposed,
        final int flavor, final Arena ownedMemory)
    {
        this.flavor = flavor;
        this.ownedMemory = ownedMemory;
        this.requests = requests;
        this.replies = replies;
        this.rank = requests.Rank();
        this.ranks = requests.Size();
        this.exposed = exposed;
        this.lockQueue = new PassiveLockQueue(rank);
        this.unflushed = new boolean[ranks];
        this.agent = ranks == 1 ? null :
            new TargetAgent(requests, replies, exposed, lockQueue, "mpi.rma agent of rank " + rank);
    }

    /**
     * Duplicates {@code comm} twice and starts this process's agent over {@code memory}; collective.
     *
     * @param ownedMemory the arena of {@code memory} if the library allocated it (free closes it), else null.
     * @throws RmaException ERR_PROC_FAILED naming the rank, or ERR_OTHER, if duplicating fails.
     */
    static MessageWindow start(final String call, final Intracomm comm, final MemorySegment memory, final int flavor,
        final Arena ownedMemory)
    {
        return start(call, comm, new ExposedMemory(memory), flavor, ownedMemory);
    }

    /** {@link #start} over memory that others may also reach otherwise (see {@link ExposedMemory#inSharedMemory}). */
    static MessageWindow start(final String call, final Intracomm comm, final ExposedMemory exposed, final int flavor,
        final Arena ownedMemory)
    {
        final Intracomm requests;
        final Intracomm replies;
        try
        {
            requests = (Intracomm)comm.clone();
            replies = (Intracomm)comm.clone();
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "duplicating the communicator", e);
        }
        final MessageWindow window = new MessageWindow(requests, replies, exposed, flavor, ownedMemory);
        if (window.agent != null)
        {
            window.agent.start();
        }
        return window;
    }

    MemorySegment localMemory()
    {
        return exposed.segment();
    }

    int flavor()
    {
        return flavor;
    }

    void put(final String call, final BasicType type, final Object origin, final int originOffset, final int count,
        final int target, final long offset)
    {
        if (target == rank)
        {
            exposed.put(type, origin, originOffset, count, offset);
            return;
        }
        sendWithData(call, target, RmaRequest.PUT, type, null, offset, origin, originOffset, count);
        unflushed[target] = true;
    }

    void get(final String call, final BasicType type, final Object origin, final int originOffset, final int count,
        final int target, final long offset)
    {
        if (target == rank)
        {
            exposed.get(type, offset, origin, originOffset, count);
            return;
        }
        send(call, target, RmaRequest.header(RmaRequest.GET, type, null, count, offset, false));
        receiveReply(call, target, type, origin, originOffset, count);
    }

    void accumulate(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final int count, final int target, final long offset)
    {
        if (target == rank)
        {
            exposed.accumulate(type, op, origin, originOffset, null, 0, count, offset);
            return;
        }
        sendWithData(call, target, RmaRequest.ACCUMULATE, type, op, offset, origin, originOffset, count);
        unflushed[target] = true;
    }

    /** getAccumulate and fetchAndOp: {@code origin} is not read with {@link ReduceOp#NO_OP}. */
    void getAccumulate(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int count, final int target,
        final long offset)
    {
        if (target == rank)
        {
            exposed.accumulate(type, op, origin, originOffset, result, resultOffset, count, offset);
            return;
        }
        if (op == ReduceOp.NO_OP)
        {
            send(call, target, RmaRequest.header(RmaRequest.GET_ACCUMULATE, type, op, count, offset, false));
        }
        else
        {
            sendWithData(call, target, RmaRequest.GET_ACCUMULATE, type, op, offset, origin, originOffset, count);
        }
        receiveReply(call, target, type, result, resultOffset, count);
    }

    /** Compare-and-swap of one element; returns the old value (raw). */
    long compareAndSwap(final String call, final BasicType type, final long compare, final long replacement,
        final int target, final long offset)
    {
        if (target == rank)
        {
            return exposed.compareAndSwap(type, offset, compare, replacement);
        }
        final Object values = RmaRequest.newArray(type, 2);
        type.rawToArray(compare, values, 0);
        type.rawToArray(replacement, values, 1);
        sendWithData(call, target, RmaRequest.COMPARE_AND_SWAP, type, null, offset, values, 0, 2);
        final Object old = RmaRequest.newArray(type, 1);
        receiveReply(call, target, type, old, 0, 1);
        return type.rawFromArray(old, 0);
    }

    /** Returns once {@code target}'s lock is held by this process, shared or exclusive. */
    void lock(final String call, final int target, final boolean exclusive)
    {
        if (target == rank)
        {
            try
            {
                lockQueue.acquireLocal(exclusive);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new RmaException(ErrorClass.ERR_OTHER, call + ": interrupted while waiting for the lock of " +
                    "this process's own memory", e);
            }
            return;
        }
        send(call, target, RmaRequest.control(RmaRequest.LOCK, exclusive));
        awaitAcknowledgement(call, target, RmaRequest.LOCK);
    }

    /**
     * Completes this process's operations at {@code target} and releases its lock there if
     * {@code held} (a lock taken with MODE_NOCHECK is not held: then only the completion).
     */
    void unlock(final String call, final int target, final boolean held, final boolean exclusive)
    {
        if (!held)
        {
            flush(call, target);
            return;
        }
        if (target == rank)
        {
            tellGranted(call, lockQueue.release(exclusive));
            return;
        }
        send(call, target, RmaRequest.control(RmaRequest.UNLOCK, exclusive));
        awaitAcknowledgement(call, target, RmaRequest.UNLOCK);
        unflushed[target] = false;
    }

    /** Completes this process's operations at {@code target}, or at every target for -1. */
    void flush(final String call, final int target)
    {
        if (target == -1)
        {
            for (int peer = 0; peer < ranks; peer++)
            {
                flush(call, peer);
            }
            return;
        }
        if (target == MPI.PROC_NULL || !unflushed[target])
        {
            return;
        }
        send(call, target, RmaRequest.control(RmaRequest.FLUSH, false));
        awaitAcknowledgement(call, target, RmaRequest.FLUSH);
        unflushed[target] = false;
    }

    /**
     * Completes every operation of this process, then agrees with every process: returns when
     * all have, or throws on every process if any brought {@code localError}.
     */
    void fence(final String call, final RmaException localError)
    {
        flush(call, -1);
        agree(call, localError != null ? localError : agentFailure(call));
    }

    /**
     * Collective: completes everything, agrees, and stops the agents. Throws on every process if
     * any brought {@code localError}; the window then stays usable.
     */
    void free(final String call, final RmaException localError)
    {
        fence(call, localError);
        try
        {
            stopAgent(call);
        }
        finally
        {
            if (ownedMemory != null)
            {
                // Every operation is applied and the agent is stopped (or stuck, and then failing): release the memory;
                // segments of it throw from now on.
                ownedMemory.close();
            }
        }
    }

    private void stopAgent(final String call)
    {
        if (agent == null)
        {
            return;
        }
        // Every request to every agent is applied (the fence's agreement came after each origin's flushes), so a
        // STOP from the left neighbour is the last message the agent takes. Never to itself: see TargetAgent.
        send(call, (rank + 1) % ranks, RmaRequest.control(RmaRequest.STOP, false));
        try
        {
            if (!agent.join(AGENT_STOP_TIMEOUT_MS))
            {
                throw new RmaException(ErrorClass.ERR_OTHER, call + ": this process's RMA agent did not stop within " +
                    AGENT_STOP_TIMEOUT_MS + " ms of the window's free");
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new RmaException(ErrorClass.ERR_OTHER, call + ": interrupted while stopping the RMA agent", e);
        }
        final RuntimeException failure = agent.failure();
        requests.Free();
        replies.Free();
        if (failure != null)
        {
            throw ProcessFailures.classify(call, "this process's RMA agent", failure);
        }
    }

    /** The failure that stopped this process's agent, as the error of {@code call}; null while it serves. */
    private RmaException agentFailure(final String call)
    {
        final RuntimeException failure = agent == null ? null : agent.failure();
        return failure == null ? null : ProcessFailures.classify(call, "this process's RMA agent", failure);
    }

    private void agree(final String call, final RmaException localError)
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

    private void tellGranted(final String call, final List<Integer> granted)
    {
        for (final int origin : granted)
        {
            try
            {
                replies.Send(new long[] {RmaRequest.LOCK}, 0, 1, MPI.LONG, origin, RmaRequest.REPLY_TAG);
            }
            catch (final RuntimeException e)
            {
                throw ProcessFailures.classify(call, "granting rank " + origin + " the lock", e);
            }
        }
    }

    private void send(final String call, final int target, final long[] header)
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
    private void sendWithData(final String call, final int target, final long kind, final BasicType type,
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

    private void receiveReply(final String call, final int target, final BasicType type, final Object into,
        final int offset, final int count)
    {
        try
        {
            replies.Recv(into, offset, count, RmaRequest.datatype(type), target, RmaRequest.REPLY_TAG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(call, "the reply from rank " + target, e);
        }
    }

    private void awaitAcknowledgement(final String call, final int target, final long kind)
    {
        final long[] ack = new long[1];
        try
        {
            replies.Recv(ack, 0, 1, MPI.LONG, target, RmaRequest.REPLY_TAG);
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
    }
}
