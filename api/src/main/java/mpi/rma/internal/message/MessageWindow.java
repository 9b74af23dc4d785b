package mpi.rma.internal.message;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.AttachedMemory;
import mpi.rma.internal.Completion;
import mpi.rma.internal.ProcessFailures;
import mpi.rma.internal.sync.PscwCompletions;
import mpi.rma.internal.sync.PscwMessages;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.vocabulary.Flavors;

/**
 * The message path of a window: every process's memory is reached through MPJ Express
 * point-to-point on two communicators private to the window (duplicated from the user's at
 * creation, so any device carries it: niodev across nodes, shm, multicore). Requests go to the
 * target's {@link TargetAgent} on one; replies come back on the other, received by the origin's
 * own thread. This process's own memory is reached directly, under the same monitor as the
 * agent ({@link ExposedMemory}), never by a message to itself.
 *
 * <p>Completion: puts and accumulates are sent and not waited for; gets, get-accumulates and
 * compare-and-swaps wait for their reply, so they complete when they return, except those started for
 * request-based calls ({@link #startGet}), whose replies {@link OutstandingReplies} receives. A flush to a target
 * with puts or accumulates outstanding sends a FLUSH and waits for its acknowledgement, which the
 * agent sends after applying every earlier request of this origin. A fence flushes every such
 * target, then agrees with every process (an Allreduce of error classes, which is also the barrier):
 * when it returns, every operation issued before it by anyone is applied. Free does the same, then
 * stops the agents (docs/design.md#free-of-a-window-reached-by-messages).
 *
 * <p>Used by the window's one user thread; the agent runs beside it.
 */
public final class MessageWindow implements AttachedMemory
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
    /** The completes of win.complete that the agent took from each origin, for win.waitFor. */
    private final PscwCompletions completions;
    /** Targets sent puts or accumulates since their last flush, fence or unlock. */
    private final boolean[] unflushed;
    /** Replies of request-based gets not yet known to have arrived. */
    private final OutstandingReplies outstanding;
    /** {@code Win.FLAVOR_CREATE}, {@code Win.FLAVOR_ALLOCATE} or {@code Win.FLAVOR_DYNAMIC}. */
    private final int flavor;
    /** The arena of memory the library allocated ({@code Win.allocate}), closed by free; null for user memory. */
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
        this.outstanding = new OutstandingReplies(replies, ranks);
        this.completions = new PscwCompletions(ranks);
        this.agent = ranks == 1 ? null :
            new TargetAgent(requests, replies, exposed, lockQueue, completions, "mpi.rma agent of rank " + rank);
    }

    /**
     * Duplicates {@code comm} twice and starts this process's agent over {@code memory}; collective.
     * A dynamic window ({@code Win.FLAVOR_DYNAMIC}) ignores {@code memory}: it exposes what is attached.
     *
     * @param ownedMemory the arena of {@code memory} if the library allocated it (free closes it), else null.
     * @throws RmaException ERR_PROC_FAILED naming the rank, or ERR_OTHER, if duplicating fails.
     */
    public static MessageWindow start(final String call, final Intracomm comm, final MemorySegment memory,
        final int flavor,
        final Arena ownedMemory)
    {
        return start(call, comm, flavor == Flavors.DYNAMIC ? ExposedMemory.dynamic() : new ExposedMemory(memory),
            flavor, ownedMemory);
    }

    /** {@link #start} over memory that others may also reach otherwise (see {@link ExposedMemory#inSharedMemory}). */
    public static MessageWindow start(final String call, final Intracomm comm, final ExposedMemory exposed,
        final int flavor,
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

    /** Attaches {@code base} to this process's memory of a dynamic window; returns its address. */
    @Override
    public long attach(final String call, final Object base)
    {
        return exposed.attach(call, WindowBase.segmentOf(base, call));
    }

    @Override
    public void detach(final String call, final Object base)
    {
        exposed.detach(call, WindowBase.segmentOf(base, call));
    }

    @Override
    public long address(final String call, final Object base, final long byteOffset)
    {
        return exposed.address(call, WindowBase.segmentOf(base, call), byteOffset);
    }

    int flavor()
    {
        return flavor;
    }

    /** Whether this is a dynamic window's path (accesses may fault at the target: {@link AccessFault}). */
    public boolean isDynamic()
    {
        return exposed.isDynamic();
    }

    /** The communicator replies travel on, for {@link PscwMessages}' posts. */
    public Intracomm replyComm()
    {
        return replies;
    }

    public PscwCompletions completions()
    {
        return completions;
    }

    /**
     * A put of {@code count} dense elements from {@code origin[originOffset...]}: to {@code count} elements at
     * byte {@code offset} of the target, or, with {@code runs} not null, into a derived target's runs from its
     * displacement at {@code offset} ({@link TargetRuns}).
     */
    void put(final String call, final BasicType type, final Object origin, final int originOffset, final int count,
        final int target, final long offset, final TargetRuns runs)
    {
        checkAgent(call);
        if (target == rank)
        {
            try
            {
                if (runs == null)
                {
                    exposed.put(type, origin, originOffset, count, offset);
                }
                else
                {
                    exposed.scatter(type, origin, originOffset, runs, offset);
                }
            }
            catch (final AccessFault fault)
            {
                throw fault.immediate(call, rank);
            }
            return;
        }
        if (runs == null)
        {
            sendWithData(call, target, RmaRequest.PUT, type, null, offset, origin, originOffset, count);
        }
        else
        {
            sendWithRuns(call, target, RmaRequest.PUT, type, null, offset, runs, origin, originOffset, count);
        }
        unflushed[target] = true;
    }

    /** A get of {@code count} elements into {@code origin[originOffset...]}, dense; {@code runs} as for put. */
    void get(final String call, final BasicType type, final Object origin, final int originOffset, final int count,
        final int target, final long offset, final TargetRuns runs)
    {
        checkAgent(call);
        if (target == rank)
        {
            try
            {
                if (runs == null)
                {
                    exposed.get(type, offset, origin, originOffset, count);
                }
                else
                {
                    exposed.gather(type, runs, offset, origin, originOffset);
                }
            }
            catch (final AccessFault fault)
            {
                throw fault.immediate(call, rank);
            }
            return;
        }
        sendGet(call, target, type, count, offset, runs);
        receiveReply(call, target, RmaRequest.GET, type, origin, originOffset, count);
    }

    /**
     * {@link #get}, started for {@code Win.rGet}: returns once the request is sent, with the reply still to come,
     * which the returned completion receives (or the next flush or unlock of {@code target}). This process's own
     * memory, and a dynamic window (whose reply starts with a status that says whether elements follow), complete
     * here. {@code arrival}, unless null, runs once the elements are in {@code origin} (a derived origin's unpacking).
     */
    Completion startGet(final String call, final BasicType type, final Object origin, final int originOffset,
        final int count, final int target, final long offset, final TargetRuns runs, final Runnable arrival)
    {
        checkAgent(call);
        if (target == rank || exposed.isDynamic())
        {
            get(call, type, origin, originOffset, count, target, offset, runs);
            if (arrival != null)
            {
                arrival.run();
            }
            return Completion.DONE;
        }
        sendGet(call, target, type, count, offset, runs);
        return outstanding.expect(call, target, type, origin, originOffset, count, arrival);
    }

    /** An accumulate of {@code count} dense elements; {@code runs} as for put. */
    void accumulate(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final int count, final int target, final long offset, final TargetRuns runs)
    {
        checkAgent(call);
        if (target == rank)
        {
            try
            {
                if (runs == null)
                {
                    exposed.accumulate(type, op, origin, originOffset, null, 0, count, offset);
                }
                else
                {
                    exposed.accumulate(type, op, origin, originOffset, null, 0, runs, offset);
                }
            }
            catch (final AccessFault fault)
            {
                throw fault.immediate(call, rank);
            }
            return;
        }
        if (runs == null)
        {
            sendWithData(call, target, RmaRequest.ACCUMULATE, type, op, offset, origin, originOffset, count);
        }
        else
        {
            sendWithRuns(call, target, RmaRequest.ACCUMULATE, type, op, offset, runs, origin, originOffset, count);
        }
        unflushed[target] = true;
    }

    /**
     * getAccumulate and fetchAndOp, origin and result dense: {@code origin} is not read with {@link ReduceOp#NO_OP};
     * {@code runs} as for put.
     */
    void getAccumulate(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int count, final int target,
        final long offset, final TargetRuns runs)
    {
        checkAgent(call);
        if (target == rank)
        {
            try
            {
                if (runs == null)
                {
                    exposed.accumulate(type, op, origin, originOffset, result, resultOffset, count, offset);
                }
                else
                {
                    exposed.accumulate(type, op, origin, originOffset, result, resultOffset, runs, offset);
                }
            }
            catch (final AccessFault fault)
            {
                throw fault.immediate(call, rank);
            }
            return;
        }
        sendGetAccumulate(call, target, type, op, origin, originOffset, count, offset, runs);
        receiveReply(call, target, RmaRequest.GET_ACCUMULATE, type, result, resultOffset, count);
    }

    /** {@link #getAccumulate}, started for {@code Win.rGetAccumulate}, as {@link #startGet} is. */
    Completion startGetAccumulate(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int count, final int target,
        final long offset, final TargetRuns runs, final Runnable arrival)
    {
        checkAgent(call);
        if (target == rank || exposed.isDynamic())
        {
            getAccumulate(call, type, op, origin, originOffset, result, resultOffset, count, target, offset, runs);
            if (arrival != null)
            {
                arrival.run();
            }
            return Completion.DONE;
        }
        sendGetAccumulate(call, target, type, op, origin, originOffset, count, offset, runs);
        return outstanding.expect(call, target, type, result, resultOffset, count, arrival);
    }

    /** Compare-and-swap of one element; returns the old value (raw). */
    long compareAndSwap(final String call, final BasicType type, final long compare, final long replacement,
        final int target, final long offset)
    {
        checkAgent(call);
        if (target == rank)
        {
            try
            {
                return exposed.compareAndSwap(type, offset, compare, replacement);
            }
            catch (final AccessFault fault)
            {
                throw fault.immediate(call, rank);
            }
        }
        final Object values = RmaRequest.newArray(type, 2);
        type.rawToArray(compare, values, 0);
        type.rawToArray(replacement, values, 1);
        sendWithData(call, target, RmaRequest.COMPARE_AND_SWAP, type, null, offset, values, 0, 2);
        final Object old = RmaRequest.newArray(type, 1);
        receiveReply(call, target, RmaRequest.COMPARE_AND_SWAP, type, old, 0, 1);
        return type.rawFromArray(old, 0);
    }

    /** Returns once {@code target}'s lock is held by this process, shared or exclusive. */
    void lock(final String call, final int target, final boolean exclusive)
    {
        checkAgent(call);
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
            catch (final RuntimeException agentFailure)
            {
                throw ProcessFailures.classify(call, "this process's RMA agent", agentFailure);
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
        checkAgent(call);
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
        outstanding.complete(call, target);
        send(call, target, RmaRequest.control(RmaRequest.UNLOCK, exclusive));
        final long[] ack = awaitAcknowledgement(call, target, RmaRequest.UNLOCK);
        unflushed[target] = false;
        final AccessFault fault = AccessFault.of(ack);
        if (fault != null)
        {
            // The target kept the lock (TargetAgent): the epoch stays open on both sides, and unlock again ends it.
            throw fault.deferred(call, target, ack[RmaRequest.ACK_FAULTS], "; the lock on rank " + target +
                " is still held: call unlock again to release it");
        }
    }

    /**
     * Completes this process's operations at {@code target}, or at every target for -1.
     *
     * @throws RmaException ERR_RMA_RANGE naming the target and address if a put or accumulate to a
     *                      dynamic window's target found no attached memory there (every target is
     *                      flushed all the same).
     */
    void flush(final String call, final int target)
    {
        checkAgent(call);
        final RmaException fault = flushCollecting(call, target);
        if (fault != null)
        {
            throw fault;
        }
    }

    /** {@link #flush}, returning the first access fault reported instead of throwing it. */
    public RmaException flushCollecting(final String call, final int target)
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
        send(call, target, RmaRequest.control(RmaRequest.FLUSH, false));
        final long[] ack = awaitAcknowledgement(call, target, RmaRequest.FLUSH);
        unflushed[target] = false;
        final AccessFault fault = AccessFault.of(ack);
        return fault == null ? null : fault.deferred(call, target, ack[RmaRequest.ACK_FAULTS], "");
    }

    /**
     * Completes every operation of this process, then agrees with every process: returns when
     * all have, or throws on every process if any brought {@code localError} or had an access fault
     * reported by a target of its puts or accumulates.
     */
    void fence(final String call, final RmaException localError)
    {
        final RmaException fault = flushCollecting(call, -1);
        agree(call, localError != null ? localError : fault != null ? fault : agentFailure(call));
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

    /**
     * Throws the failure that stopped this process's agent, if one did: a volatile load. The agent stops on the
     * first dead process of the window its device reports; from then on no epoch of the window can complete,
     * so every call fails at once, naming the rank, instead of going on until it happens to wait for the dead
     * process.
     */
    private void checkAgent(final String call)
    {
        final RmaException failure = agentFailure(call);
        if (failure != null)
        {
            throw failure;
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
                final long[] grant = AccessFault.acknowledgement(RmaRequest.LOCK, null, 0);
                replies.Send(grant, 0, grant.length, MPI.LONG, origin, RmaRequest.REPLY_TAG);
            }
            catch (final RuntimeException e)
            {
                throw ProcessFailures.classify(call, "granting rank " + origin + " the lock", e);
            }
        }
    }

    /** Sends {@code header} to {@code target}'s agent, behind every earlier request of this process. */
    public void send(final String call, final int target, final long[] header)
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

    /**
     * A request to a derived target: its run list in the header when short, else in a message of its own, and
     * {@code count} elements of {@code data} (null: none) inline when few, else in a data message (RmaRequest).
     */
    private void sendWithRuns(final String call, final int target, final long kind, final BasicType type,
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
    private void sendGet(final String call, final int target, final BasicType type, final int count,
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
    private void sendGetAccumulate(final String call, final int target, final BasicType type, final ReduceOp op,
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

    /**
     * The elements of a get-like request of {@code kind}. On a dynamic window a status comes first:
     * an access fault there throws at once, naming the target and address, and no elements follow.
     */
    private void receiveReply(final String call, final int target, final long kind, final BasicType type,
        final Object into, final int offset, final int count)
    {
        if (exposed.isDynamic())
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
    private long[] awaitAcknowledgement(final String call, final int target, final long kind)
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
}
