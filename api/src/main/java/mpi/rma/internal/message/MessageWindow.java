package mpi.rma.internal.message;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import mpi.Intracomm;
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
 * <p>This class coordinates; each job has a class of its own: the wire ({@link RequestChannel}), this process's own
 * memory ({@link OwnMemoryAccess}), what each target is still owed ({@link OriginCompletion}) and the agent's life
 * ({@link AgentLife}).
 *
 * <p>Used by the window's one user thread; the agent runs beside it.
 */
public final class MessageWindow implements AttachedMemory
{
    private final int rank;
    private final ExposedMemory exposed;
    private final RequestChannel channel;
    private final OwnMemoryAccess own;
    private final OriginCompletion completion;
    private final AgentLife agent;
    /** The completes of win.complete that the agent took from each origin, for win.waitFor. */
    private final PscwCompletions completions;
    /** {@code Win.FLAVOR_CREATE}, {@code Win.FLAVOR_ALLOCATE} or {@code Win.FLAVOR_DYNAMIC}. */
    private final int flavor;
    /** The arena of memory the library allocated ({@code Win.allocate}), closed by free; null for user memory. */
    private final Arena ownedMemory;

    private MessageWindow(final Intracomm requests, final Intracomm replies, final ExposedMemory exposed,
        final int flavor, final Arena ownedMemory)
    {
        this.flavor = flavor;
        this.ownedMemory = ownedMemory;
        this.rank = requests.Rank();
        final int ranks = requests.Size();
        this.exposed = exposed;
        final PassiveLockQueue lockQueue = new PassiveLockQueue(rank);
        this.channel = new RequestChannel(requests, replies, exposed.isDynamic());
        this.own = new OwnMemoryAccess(exposed, lockQueue, rank);
        this.completion = new OriginCompletion(channel, ranks);
        this.completions = new PscwCompletions(ranks);
        this.agent = new AgentLife(ranks == 1 ? null :
            new TargetAgent(requests, replies, exposed, lockQueue, completions, "mpi.rma agent of rank " + rank),
            rank, ranks);
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
        window.agent.start();
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
        return channel.replyComm();
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
        agent.check(call);
        if (target == rank)
        {
            own.put(call, type, origin, originOffset, count, offset, runs);
            return;
        }
        if (runs == null)
        {
            channel.sendWithData(call, target, RmaRequest.PUT, type, null, offset, origin, originOffset, count);
        }
        else
        {
            channel.sendWithRuns(call, target, RmaRequest.PUT, type, null, offset, runs, origin, originOffset, count);
        }
        completion.sent(target);
    }

    /** A get of {@code count} elements into {@code origin[originOffset...]}, dense; {@code runs} as for put. */
    void get(final String call, final BasicType type, final Object origin, final int originOffset, final int count,
        final int target, final long offset, final TargetRuns runs)
    {
        agent.check(call);
        if (target == rank)
        {
            own.get(call, type, origin, originOffset, count, offset, runs);
            return;
        }
        channel.sendGet(call, target, type, count, offset, runs);
        channel.receiveReply(call, target, RmaRequest.GET, type, origin, originOffset, count);
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
        agent.check(call);
        if (target == rank || exposed.isDynamic())
        {
            get(call, type, origin, originOffset, count, target, offset, runs);
            if (arrival != null)
            {
                arrival.run();
            }
            return Completion.DONE;
        }
        channel.sendGet(call, target, type, count, offset, runs);
        return completion.expect(call, target, type, origin, originOffset, count, arrival);
    }

    /** An accumulate of {@code count} dense elements; {@code runs} as for put. */
    void accumulate(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final int count, final int target, final long offset, final TargetRuns runs)
    {
        agent.check(call);
        if (target == rank)
        {
            own.accumulate(call, type, op, origin, originOffset, null, 0, count, offset, runs);
            return;
        }
        if (runs == null)
        {
            channel.sendWithData(call, target, RmaRequest.ACCUMULATE, type, op, offset, origin, originOffset, count);
        }
        else
        {
            channel.sendWithRuns(call, target, RmaRequest.ACCUMULATE, type, op, offset, runs, origin, originOffset,
                count);
        }
        completion.sent(target);
    }

    /**
     * getAccumulate and fetchAndOp, origin and result dense: {@code origin} is not read with {@link ReduceOp#NO_OP};
     * {@code runs} as for put.
     */
    void getAccumulate(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int count, final int target,
        final long offset, final TargetRuns runs)
    {
        agent.check(call);
        if (target == rank)
        {
            own.accumulate(call, type, op, origin, originOffset, result, resultOffset, count, offset, runs);
            return;
        }
        channel.sendGetAccumulate(call, target, type, op, origin, originOffset, count, offset, runs);
        channel.receiveReply(call, target, RmaRequest.GET_ACCUMULATE, type, result, resultOffset, count);
    }

    /** {@link #getAccumulate}, started for {@code Win.rGetAccumulate}, as {@link #startGet} is. */
    Completion startGetAccumulate(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int count, final int target,
        final long offset, final TargetRuns runs, final Runnable arrival)
    {
        agent.check(call);
        if (target == rank || exposed.isDynamic())
        {
            getAccumulate(call, type, op, origin, originOffset, result, resultOffset, count, target, offset, runs);
            if (arrival != null)
            {
                arrival.run();
            }
            return Completion.DONE;
        }
        channel.sendGetAccumulate(call, target, type, op, origin, originOffset, count, offset, runs);
        return completion.expect(call, target, type, result, resultOffset, count, arrival);
    }

    /** Compare-and-swap of one element; returns the old value (raw). */
    long compareAndSwap(final String call, final BasicType type, final long compare, final long replacement,
        final int target, final long offset)
    {
        agent.check(call);
        if (target == rank)
        {
            return own.compareAndSwap(call, type, compare, replacement, offset);
        }
        final Object values = RmaRequest.newArray(type, 2);
        type.rawToArray(compare, values, 0);
        type.rawToArray(replacement, values, 1);
        channel.sendWithData(call, target, RmaRequest.COMPARE_AND_SWAP, type, null, offset, values, 0, 2);
        final Object old = RmaRequest.newArray(type, 1);
        channel.receiveReply(call, target, RmaRequest.COMPARE_AND_SWAP, type, old, 0, 1);
        return type.rawFromArray(old, 0);
    }

    /** Returns once {@code target}'s lock is held by this process, shared or exclusive. */
    void lock(final String call, final int target, final boolean exclusive)
    {
        agent.check(call);
        if (target == rank)
        {
            own.lock(call, exclusive);
            return;
        }
        channel.send(call, target, RmaRequest.control(RmaRequest.LOCK, exclusive));
        channel.awaitAcknowledgement(call, target, RmaRequest.LOCK);
    }

    /**
     * Completes this process's operations at {@code target} and releases its lock there if
     * {@code held} (a lock taken with MODE_NOCHECK is not held: then only the completion).
     */
    void unlock(final String call, final int target, final boolean held, final boolean exclusive)
    {
        agent.check(call);
        if (!held)
        {
            flush(call, target);
            return;
        }
        if (target == rank)
        {
            own.unlock(call, exclusive, channel);
            return;
        }
        completion.unlock(call, target, exclusive);
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
        agent.check(call);
        final RmaException fault = flushCollecting(call, target);
        if (fault != null)
        {
            throw fault;
        }
    }

    /** {@link #flush}, returning the first access fault reported instead of throwing it. */
    public RmaException flushCollecting(final String call, final int target)
    {
        return completion.flushCollecting(call, target);
    }

    /**
     * Completes every operation of this process, then agrees with every process: returns when
     * all have, or throws on every process if any brought {@code localError} or had an access fault
     * reported by a target of its puts or accumulates.
     */
    void fence(final String call, final RmaException localError)
    {
        final RmaException fault = flushCollecting(call, -1);
        channel.agree(call, localError != null ? localError : fault != null ? fault : agent.failure(call));
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
            agent.stop(call, channel);
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

    /** Sends {@code header} to {@code target}'s agent, behind every earlier request of this process. */
    public void send(final String call, final int target, final long[] header)
    {
        channel.send(call, target, header);
    }
}
