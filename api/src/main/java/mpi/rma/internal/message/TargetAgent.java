package mpi.rma.internal.message;

import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.sync.PscwCompletions;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;

/**
 * Target-side progress of a window reached by messages: a daemon thread of each process,
 * blocked in {@code Recv(ANY_SOURCE)} on the window's request communicator, that applies every
 * put, get, accumulate, get-accumulate and compare-and-swap another process sends to this
 * process's memory, grants and releases passive-target locks in order, acknowledges flushes, and
 * counts the completes of win.complete for win.waitFor ({@link PscwCompletions}).
 * The process itself need not call MPI for any of it: a target computing in a loop still serves
 * lock, put and unlock.
 *
 * <p>Requests from one origin are applied in the order sent (MPJ Express keeps messages between
 * a pair on one communicator and tag in order), so an acknowledged flush or unlock means every
 * earlier request of that origin is applied. The agent never sends to its own process (niodev
 * 0.44 loses that wake-up, docs/design.md#thread-safety-of-mpj-express-044) and stops on a
 * {@link RmaRequest#STOP} from another process, never by interruption inside MPJ Express.
 *
 * <p>A request to a derived target datatype carries its run list ({@link TargetRuns}, in the header or
 * in a message of its own right after it, {@link RmaRequest}) and dense data: the agent scatters the
 * data into the runs (put, accumulate) or gathers the runs into a dense reply (get, get-accumulate),
 * under the same rules of order and atomicity as a dense request.
 *
 * <p>On a dynamic window an access that does not lie within an attached region is not applied
 * ({@link AccessFault}): a get-like request's status says so at once; a put or accumulate has no
 * reply, so the agent keeps the fault and returns it with that origin's next flush or unlock
 * acknowledgement (a fence flushes too), and an unlock that reports one leaves the lock held.
 */
public final class TargetAgent implements Runnable
{
    private final Intracomm requests;
    private final Intracomm replies;
    private final ExposedMemory exposed;
    private final PassiveLockQueue locks;
    private final PscwCompletions completions;
    private final Thread thread;
    /** Volatile: what ended the agent abnormally, read by the window's user thread. */
    private volatile RuntimeException failure;
    /** Per origin, the first access fault of its puts and accumulates since its last flush or unlock (dynamic). */
    private final AccessFault[] pendingFaults;
    /** Per origin, how many of its puts and accumulates faulted since then. */
    private final long[] faultCounts;
    /** What the agent receives the data of puts and accumulates into, reused (the agent's thread only). */
    private final ScratchArrays incoming = new ScratchArrays();
    /** What it gathers the elements of replies into, reused: a blocking Send is done with them when it returns. */
    private final ScratchArrays outgoing = new ScratchArrays();

    TargetAgent(final Intracomm requests, final Intracomm replies, final ExposedMemory exposed,
        final PassiveLockQueue locks, final PscwCompletions completions, final String name)
    {
        this.requests = requests;
        this.completions = completions;
        this.replies = replies;
        this.exposed = exposed;
        this.locks = locks;
        this.pendingFaults = new AccessFault[requests.Size()];
        this.faultCounts = new long[requests.Size()];
        this.thread = new Thread(this, name);
        // A program that ends without freeing the window must still be able to exit.
        thread.setDaemon(true);
    }

    void start()
    {
        thread.start();
    }

    /** Waits for the agent to take its STOP; false if it has not ended within {@code timeoutMs}. */
    boolean join(final long timeoutMs) throws InterruptedException
    {
        thread.join(timeoutMs);
        return !thread.isAlive();
    }

    /** What ended the agent before its STOP, or null. */
    RuntimeException failure()
    {
        return failure;
    }

    @Override
    public void run()
    {
        try
        {
            final long[] header = new long[RmaRequest.MAX_HEADER_LONGS];
            while (true)
            {
                final Status status = requests.Recv(header, 0, header.length, MPI.LONG, MPI.ANY_SOURCE,
                    RmaRequest.REQUEST_TAG);
                if (header[RmaRequest.KIND] == RmaRequest.STOP)
                {
                    return;
                }
                serve(status.source, header);
            }
        }
        catch (final RuntimeException e)
        {
            // Volatile store: this process's next synchronisation reports it; the origins waiting on this agent
            // learn of it only from the device (a dead process) or from this line.
            failure = e;
            // A win.waitFor waiting for a complete that this agent would have taken fails instead of waiting for ever,
            // and so does a lock of this process's own memory that only a request to the agent could release.
            completions.agentStopped(e);
            locks.agentStopped(e);
            System.err.println("mpi.rma: " + thread.getName() + " stopped serving the window: " + e);
        }
    }

    private void serve(final int origin, final long[] header)
    {
        final long kind = header[RmaRequest.KIND];
        final int count = (int)header[RmaRequest.COUNT];
        final long offset = header[RmaRequest.OFFSET];
        if (kind == RmaRequest.LOCK)
        {
            tell(locks.request(origin, header[RmaRequest.EXCLUSIVE] != 0));
            return;
        }
        if (kind == RmaRequest.UNLOCK)
        {
            if (pendingFaults[origin] != null)
            {
                // The origin's unlock throws: the lock stays held so that both sides agree that the epoch is open.
                acknowledgeFaults(origin, kind);
                return;
            }
            final List<Integer> granted = locks.release(header[RmaRequest.EXCLUSIVE] != 0);
            acknowledge(origin, kind);
            tell(granted);
            return;
        }
        if (kind == RmaRequest.FLUSH)
        {
            acknowledgeFaults(origin, kind);
            return;
        }
        if (kind == RmaRequest.COMPLETE)
        {
            // Every earlier request of this origin is applied: its access epoch's operations are all in memory.
            completions.arrived(origin);
            return;
        }
        final BasicType type = RmaRequest.type(header);
        // A derived target's run list (RmaRequest), or null: a dense target, as every request had before them.
        final TargetRuns received = header[RmaRequest.LAYOUT_LONGS] == 0 ? null :
            receiveRuns(origin, header, type, count);
        final int dataAt = received == null ? RmaRequest.HEADER_LONGS : RmaRequest.dataIndex(header);
        final TargetRuns runs = MessageFaults.ignoresTargetLayout() ? null : received;
        if (kind == RmaRequest.PUT)
        {
            final Object data = receiveData(origin, header, dataAt, type, count);
            try
            {
                if (!MessageFaults.dropsPut(origin) && runs == null)
                {
                    exposed.put(type, data, 0, count, offset);
                }
                else if (!MessageFaults.dropsPut(origin))
                {
                    exposed.scatter(type, data, 0, runs, offset);
                }
            }
            catch (final AccessFault fault)
            {
                recordFault(origin, fault);
            }
        }
        else if (kind == RmaRequest.GET)
        {
            final Object elements = outgoing.array(type, count);
            AccessFault fault = null;
            try
            {
                if (runs == null)
                {
                    exposed.get(type, offset, elements, 0, count);
                }
                else
                {
                    exposed.gather(type, runs, offset, elements, 0);
                }
            }
            catch (final AccessFault e)
            {
                fault = e;
            }
            reply(origin, kind, fault, type, elements, count);
        }
        else if (kind == RmaRequest.ACCUMULATE)
        {
            final Object data = receiveData(origin, header, dataAt, type, count);
            try
            {
                accumulate(type, RmaRequest.op(header), data, null, count, offset, runs);
            }
            catch (final AccessFault fault)
            {
                recordFault(origin, fault);
            }
        }
        else if (kind == RmaRequest.GET_ACCUMULATE)
        {
            final ReduceOp op = RmaRequest.op(header);
            final Object operands = op.readsOrigin() ? receiveData(origin, header, dataAt, type, count) : null;
            final Object old = outgoing.array(type, count);
            AccessFault fault = null;
            try
            {
                accumulate(type, op, operands, old, count, offset, runs);
            }
            catch (final AccessFault e)
            {
                fault = e;
            }
            reply(origin, kind, fault, type, old, count);
        }
        else if (kind == RmaRequest.COMPARE_AND_SWAP)
        {
            final Object compareAndOrigin = receiveData(origin, header, RmaRequest.HEADER_LONGS, type, 2);
            final Object old = RmaRequest.newArray(type, 1);
            AccessFault fault = null;
            try
            {
                type.rawToArray(exposed.compareAndSwap(type, offset, type.rawFromArray(compareAndOrigin, 0),
                    type.rawFromArray(compareAndOrigin, 1)), old, 0);
            }
            catch (final AccessFault e)
            {
                fault = e;
            }
            reply(origin, kind, fault, type, old, 1);
        }
        else
        {
            throw new RmaException(ErrorClass.ERR_OTHER, "the RMA agent got a request of unknown kind " + kind +
                " from rank " + origin);
        }
    }

    /** Keeps the first fault of {@code origin}'s puts and accumulates for its next flush or unlock; counts the rest. */
    private void recordFault(final int origin, final AccessFault fault)
    {
        if (pendingFaults[origin] == null)
        {
            pendingFaults[origin] = fault;
        }
        faultCounts[origin]++;
    }

    /** An accumulate or get-accumulate into a dense target ({@code runs} null) or a derived one. */
    private void accumulate(final BasicType type, final ReduceOp op, final Object operands, final Object result,
        final int count, final long offset, final TargetRuns runs)
    {
        if (runs == null)
        {
            exposed.accumulate(type, op, operands, 0, result, 0, count, offset);
        }
        else
        {
            exposed.accumulate(type, op, operands, 0, result, 0, runs, offset);
        }
    }

    /** A derived target's run list: in the header when short, else the message that follows the header. */
    private TargetRuns receiveRuns(final int origin, final long[] header, final BasicType type, final int count)
    {
        final int longs = (int)header[RmaRequest.LAYOUT_LONGS];
        if (RmaRequest.inlineLayout(longs))
        {
            return TargetRuns.decode(header, RmaRequest.HEADER_LONGS, longs, type, count);
        }
        final long[] layout = new long[longs];
        requests.Recv(layout, 0, longs, MPI.LONG, origin, RmaRequest.LAYOUT_TAG);
        return TargetRuns.decode(layout, 0, longs, type, count);
    }

    /**
     * The request's data: inline in the header from index {@code at} when small, else the message that
     * follows it.
     */
    private Object receiveData(final int origin, final long[] header, final int at, final BasicType type,
        final int count)
    {
        if (RmaRequest.inline(count))
        {
            return RmaRequest.inlineData(header, at, type, count);
        }
        final Object data = incoming.array(type, count);
        requests.Recv(data, 0, count, RmaRequest.datatype(type), origin, RmaRequest.DATA_TAG);
        return data;
    }

    /**
     * The elements of a get, get-accumulate or compare-and-swap. On a dynamic window a status goes
     * first, saying whether the access faulted (then no elements follow); the other flavours' origins
     * checked the range themselves, so a fault there is a bug of this library.
     */
    private void reply(final int origin, final long kind, final AccessFault fault, final BasicType type,
        final Object elements, final int count)
    {
        if (exposed.isDynamic())
        {
            send(origin, AccessFault.acknowledgement(kind, fault, fault == null ? 0 : 1));
        }
        else if (fault != null)
        {
            throw fault;
        }
        if (fault == null)
        {
            replies.Send(elements, 0, count, RmaRequest.datatype(type), origin, RmaRequest.REPLY_TAG);
        }
    }

    private void acknowledge(final int origin, final long kind)
    {
        send(origin, AccessFault.acknowledgement(kind, null, 0));
    }

    /** Acknowledges {@code kind} with the faults recorded for {@code origin} since its last one, and forgets them. */
    private void acknowledgeFaults(final int origin, final long kind)
    {
        send(origin, AccessFault.acknowledgement(kind, pendingFaults[origin], faultCounts[origin]));
        pendingFaults[origin] = null;
        faultCounts[origin] = 0;
    }

    private void send(final int origin, final long[] ack)
    {
        replies.Send(ack, 0, ack.length, MPI.LONG, origin, RmaRequest.REPLY_TAG);
    }

    private void tell(final List<Integer> granted)
    {
        for (final int origin : granted)
        {
            acknowledge(origin, RmaRequest.LOCK);
        }
    }
}
