package xdev.shmdev;

import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

import kupl.Doorbell;
import kupl.KuplConfig;
import kupl.PeerDeathException;
import kupl.ProcessProgress;
import kupl.ShmComm;
import kupl.ShmWin;
import kupl.Waiter;
import xdev.XDevException;

/**
 * Drives the device: holds its lock, makes one pass over the queues (read every incoming one,
 * move large messages' bytes through the staging areas, write what the outgoing queues have room
 * for), waits until a condition holds
 * ({@link DeviceWaiter}), and breaks the device for good on the first protocol or liveness
 * error, so that every later call reports it. The requests drive the device through it
 * ({@link RequestDriver}).
 *
 * <p>It is also the process's {@link ProcessProgress}, installed for as long as the device can move
 * messages: every other wait of the process (a collective's fence or flag round, a window's fence, lock,
 * PSCW flag or free) makes the same pass between its checks, so that a send left pending by a thread that
 * went on into one of them still completes (MPI's progress rule).
 */
final class Progress implements RequestDriver, ProcessProgress
{
    private final int ownRank;
    private final PeerQueues queues;
    private final MessageProtocol protocol;
    private final Completions completions;
    private final DeviceWaiter waiter;
    /** The device's window, whose record of the first dead rank every call reads ({@link #checkUsable}). */
    private final ShmWin window;
    private final ShmComm comm;
    /** Volatile: read by checks outside the lock; set once, under the lock, by finish. */
    private volatile boolean finished;
    /** Volatile: the first protocol or liveness error, set once; every later call fails with it. */
    private volatile XDevException broken;
    /**
     * The network's part of each pass in a job that spans nodes ({@link NetworkReceives#pass}), or one that
     * does nothing: set once, before the device is used.
     */
    private BooleanSupplier networkPass = () -> false;

    /**
     * @param maxParkNs the longest a wait sleeps between passes unless a peer rings {@code ownBell}: the
     *                  liveness interval on one node; shorter in a job that spans nodes, whose network rings
     *                  no bell (a receive from any rank waiting in {@link NetworkReceives} is given what the
     *                  network brought at the next pass).
     */
    Progress(final ShmWin window, final ShmComm comm, final KuplConfig config, final PeerQueues queues,
        final MessageProtocol protocol, final Completions completions, final Doorbell ownBell, final long maxParkNs)
    {
        this.ownRank = comm.rank();
        this.window = window;
        this.comm = comm;
        this.queues = queues;
        this.protocol = protocol;
        this.completions = completions;
        final long parkNs = Math.min(maxParkNs, config.livenessIntervalNs());
        // Its attempts make the device's pass themselves, under the lock of their condition: no second pass.
        this.waiter = new DeviceWaiter(window.waiter().withParker(ownBell.asParker(), parkNs, parkNs)
            .withProgressInAttempts(), comm);
    }

    /** Adds the network's part to every pass from now on ({@link ClusterShmDevice}); before the device is used. */
    synchronized void addNetworkPass(final BooleanSupplier pass)
    {
        networkPass = pass;
    }

    /** From now on, every wait of the process drives the device too (until {@link #finish}). */
    void installForEveryWait()
    {
        Waiter.installProcessProgress(this);
    }

    /** One pass for a wait of the process outside the device (nothing once the device has finished). */
    @Override
    public synchronized boolean makeProgress()
    {
        // Under the lock that finish sets the flag under: a pass never starts on a device that has finished.
        return !finished && pass();
    }


    /**
     * Runs a step of the protocol under the device's lock; an error in it (a corrupted queue, a
     * protocol violation) breaks the device.
     */
    synchronized <T> T locked(final Supplier<T> step)
    {
        checkUsable();
        try
        {
            return step.get();
        }
        catch (final XDevException e)
        {
            throw broken(e);
        }
    }

    /** As {@link #locked(Supplier)}, for a step made once that takes {@code argument}: no lambda per call. */
    synchronized <A, T> T locked(final Function<A, T> step, final A argument)
    {
        checkUsable();
        try
        {
            return step.apply(argument);
        }
        catch (final XDevException e)
        {
            throw broken(e);
        }
    }

    /**
     * Numbers and starts a send of {@code bytes}, under the device's lock: {@code reuse} (a request of the caller's
     * thread that was waited for) made the new send, or a new request if it is null. A method rather than a
     * {@link #locked} step: no lambda per message.
     */
    synchronized SendRequest startSend(final MessageBytes bytes, final int destination, final int tag,
        final int context, final boolean synchronous, final boolean rendezvous, final SendRequest reuse)
    {
        checkUsable();
        try
        {
            final int sequence = protocol.nextSequence(destination);
            final SendRequest send;
            if (reuse == null)
            {
                send = new SendRequest(this, destination, tag, context, sequence, synchronous, rendezvous, bytes);
            }
            else
            {
                reuse.restart(destination, tag, context, sequence, synchronous, rendezvous, bytes);
                send = reuse;
            }
            protocol.start(send);
            return send;
        }
        catch (final XDevException e)
        {
            throw broken(e);
        }
    }

    /** Reads what has arrived from every peer, without writing (under the lock). */
    void drainInbound()
    {
        queues.drain(protocol);
    }

    /** One pass over every queue; returns whether anything was read or written. */
    synchronized boolean pass()
    {
        // Written out rather than through locked(): this runs on every poll of every wait.
        checkUsable();
        try
        {
            // Staged bytes after the drain (which may bring a clear-to-send) and before the flush (which writes the
            // clear-to-send of the message granted the staging area next).
            return queues.drain(protocol) | protocol.pumpStaged() | queues.flushAll() | networkPass.getAsBoolean();
        }
        catch (final XDevException e)
        {
            throw broken(e);
        }
    }

    /**
     * Drives the device until {@code condition} (evaluated under the device's lock) holds; {@code what} names the
     * wait in errors (its {@code toString} runs only then).
     */
    void awaitCondition(final BooleanSupplier condition, final Object what)
    {
        try
        {
            waiter.await(() -> attempt(condition), what);
        }
        catch (final XDevException e)
        {
            throw broken(e);
        }
    }

    /**
     * As {@link #awaitCondition(BooleanSupplier, Object)}, waiting with {@code with}: the waits for the network
     * in a job that spans nodes, which the peers' doorbells do not end.
     */
    void awaitCondition(final BooleanSupplier condition, final Object what, final DeviceWaiter with)
    {
        try
        {
            with.await(() -> attempt(condition), what);
        }
        catch (final XDevException e)
        {
            throw broken(e);
        }
    }

    /** Checks {@code condition}, drives the device once, and checks again; under the device's lock. */
    private synchronized Waiter.Outcome attempt(final BooleanSupplier condition)
    {
        checkUsable();
        if (condition.getAsBoolean())
        {
            return Waiter.Outcome.MET;
        }
        final boolean worked = pass();
        return condition.getAsBoolean() ? Waiter.Outcome.MET :
            worked ? Waiter.Outcome.WORKED : Waiter.Outcome.IDLE;
    }

    /** As {@link #attempt(BooleanSupplier)} for {@code request}'s completion, without a lambda per wait. */
    @Override
    public synchronized Waiter.Outcome attemptCompletion(final ShmRequest request)
    {
        checkUsable();
        if (request.isDone())
        {
            return Waiter.Outcome.MET;
        }
        final boolean worked = pass();
        return request.isDone() ? Waiter.Outcome.MET : worked ? Waiter.Outcome.WORKED : Waiter.Outcome.IDLE;
    }

    /** Writes what is still queued, then marks the device finished: every later call fails. */
    void finish()
    {
        awaitCondition(() -> queues.isFlushed() && protocol.isIdleSending(), "finish (writing queued messages)");
        // Nothing is left to send: the waits that follow (the engine's free of the device's memory) need no pass.
        Waiter.removeProcessProgress(this);
        synchronized (this)
        {
            // Volatile store: any thread of this process that calls the device from now on fails clearly.
            finished = true;
        }
    }

    boolean isFinished()
    {
        return finished;
    }

    /**
     * Throws if the device is broken or finished, or if a rank of the job is known to have died (a wait or the
     * window's death watch of any rank found it): a call that would not wait, such as a send into a dead rank's
     * queue, fails too, and the device is broken from then on.
     */
    void checkUsable()
    {
        // Volatile loads: a failure or finish on another thread of this process is seen here.
        final XDevException error = broken;
        if (error != null)
        {
            // A copy for this caller's stack, keeping the cause: mpi.rma finds a dead rank's PeerDeathException there.
            final XDevException copy = new XDevException(error.getMessage());
            copy.initCause(error.getCause());
            throw copy;
        }
        if (finished)
        {
            throw new XDevException("shm device: rank " + ownRank + " has already finished (MPI.Finalize)");
        }
        try
        {
            // One load of the window's record: the cost of learning of a death without waiting.
            window.checkProcesses("a call of the shm device");
        }
        catch (final PeerDeathException e)
        {
            throw broken(DeviceWaiter.deathError(e, comm));
        }
    }

    @Override
    public void await(final ShmRequest request)
    {
        if (!request.isDone())
        {
            // The request is its own attempt and names itself in errors: a wait makes no object of its own here.
            try
            {
                waiter.await(request, request);
            }
            catch (final XDevException e)
            {
                throw broken(e);
            }
        }
    }

    @Override
    public String toString()
    {
        return "the shm device of rank " + ownRank;
    }

    @Override
    public void progressOnce()
    {
        pass();
    }

    @Override
    public synchronized void forget(final ShmRequest request)
    {
        completions.forget(request);
    }

    /** The first request completed and not yet taken, or null (under the lock). */
    ShmRequest takeCompleted()
    {
        return completions.takeFirst();
    }

    private XDevException broken(final XDevException error)
    {
        if (broken == null)
        {
            // Volatile store: other threads of this process fail with this error from now on.
            broken = error;
        }
        return error;
    }
}
