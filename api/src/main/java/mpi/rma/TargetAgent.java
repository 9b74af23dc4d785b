package mpi.rma;

import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * Target-side progress of a window reached by messages: a daemon thread of each process,
 * blocked in {@code Recv(ANY_SOURCE)} on the window's request communicator, that applies every
 * put, get, accumulate, get-accumulate and compare-and-swap another process sends to this
 * process's memory, grants and releases passive-target locks in order, and acknowledges flushes.
 * The process itself need not call MPI for any of it: a target computing in a loop still serves
 * lock, put and unlock.
 *
 * <p>Requests from one origin are applied in the order sent (MPJ Express keeps messages between
 * a pair on one communicator and tag in order), so an acknowledged flush or unlock means every
 * earlier request of that origin is applied. The agent never sends to its own process (niodev
 * 0.44 loses that wake-up, docs/design.md#thread-safety-of-mpj-express-044) and stops on a
 * {@link RmaRequest#STOP} from another process, never by interruption inside MPJ Express.
 */
final class TargetAgent implements Runnable
{
    private final Intracomm requests;
    private final Intracomm replies;
    private final ExposedMemory exposed;
    private final PassiveLockQueue locks;
    private final Thread thread;
    /** Volatile: what ended the agent abnormally, read by the window's user thread. */
    private volatile RuntimeException failure;

    TargetAgent(final Intracomm requests, final Intracomm replies, final ExposedMemory exposed,
        final PassiveLockQueue locks, final String name)
    {
        this.requests = requests;
        this.replies = replies;
        this.exposed = exposed;
        this.locks = locks;
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
            final List<Integer> granted = locks.release(header[RmaRequest.EXCLUSIVE] != 0);
            acknowledge(origin, kind);
            tell(granted);
            return;
        }
        if (kind == RmaRequest.FLUSH)
        {
            acknowledge(origin, kind);
            return;
        }
        final BasicType type = RmaRequest.type(header);
        if (kind == RmaRequest.PUT)
        {
            final Object data = receiveData(origin, header, type, count);
            if (!MessageFaults.dropsPut(origin))
            {
                exposed.put(type, data, 0, count, offset);
            }
        }
        else if (kind == RmaRequest.GET)
        {
            final Object elements = RmaRequest.newArray(type, count);
            exposed.get(type, offset, elements, 0, count);
            reply(origin, type, elements, count);
        }
        else if (kind == RmaRequest.ACCUMULATE)
        {
            exposed.accumulate(type, RmaRequest.op(header), receiveData(origin, header, type, count), 0, null, 0,
                count, offset);
        }
        else if (kind == RmaRequest.GET_ACCUMULATE)
        {
            final ReduceOp op = RmaRequest.op(header);
            final Object operands = op == ReduceOp.NO_OP ? null : receiveData(origin, header, type, count);
            final Object old = RmaRequest.newArray(type, count);
            exposed.accumulate(type, op, operands, 0, old, 0, count, offset);
            reply(origin, type, old, count);
        }
        else if (kind == RmaRequest.COMPARE_AND_SWAP)
        {
            final Object compareAndOrigin = receiveData(origin, header, type, 2);
            final Object old = RmaRequest.newArray(type, 1);
            type.rawToArray(exposed.compareAndSwap(type, offset, type.rawFromArray(compareAndOrigin, 0),
                type.rawFromArray(compareAndOrigin, 1)), old, 0);
            reply(origin, type, old, 1);
        }
        else
        {
            throw new RmaException(ErrorClass.ERR_OTHER, "the RMA agent got a request of unknown kind " + kind +
                " from rank " + origin);
        }
    }

    /** The request's data: inline in the header when small, else the message that follows it. */
    private Object receiveData(final int origin, final long[] header, final BasicType type, final int count)
    {
        if (RmaRequest.inline(count))
        {
            return RmaRequest.inlineData(header, type, count);
        }
        final Object data = RmaRequest.newArray(type, count);
        requests.Recv(data, 0, count, RmaRequest.datatype(type), origin, RmaRequest.DATA_TAG);
        return data;
    }

    private void reply(final int origin, final BasicType type, final Object elements, final int count)
    {
        replies.Send(elements, 0, count, RmaRequest.datatype(type), origin, RmaRequest.REPLY_TAG);
    }

    private void acknowledge(final int origin, final long kind)
    {
        replies.Send(new long[] {kind}, 0, 1, MPI.LONG, origin, RmaRequest.REPLY_TAG);
    }

    private void tell(final List<Integer> granted)
    {
        for (final int origin : granted)
        {
            acknowledge(origin, RmaRequest.LOCK);
        }
    }
}
