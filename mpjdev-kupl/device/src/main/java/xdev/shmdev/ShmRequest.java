package xdev.shmdev;

import mpjdev.Status;
import xdev.XDevException;

/**
 * A send or receive of the {@link ShmDevice}. There is no progress thread: whoever waits or
 * tests drives the device. As in MPJ Express's own devices, the completion handlers run once,
 * in the first {@link #iwait()} after completion ({@code mpi.Request.Test} calls {@code iwait}
 * once {@link #itest()} reports completion).
 */
abstract class ShmRequest extends mpjdev.Request
{
    final ShmDevice device;
    final Status status;
    private volatile boolean done;
    private volatile XDevException failure;
    private boolean handlersRun;

    ShmRequest(final ShmDevice device, final Status status)
    {
        this.device = device;
        this.status = status;
    }

    boolean isDone()
    {
        return done;
    }

    /** Marks the request complete; the device then queues it for {@code peek}. Called under the device's lock. */
    void markDone()
    {
        done = true;
    }

    /** Completes the request with an error that its waiter will throw. Called under the device's lock. */
    void markFailed(final XDevException error)
    {
        failure = error;
        done = true;
    }

    /** What is waited for, for error messages. */
    abstract String describe();

    @Override
    public Status iwait()
    {
        device.await(this);
        final XDevException error = failure;
        if (error != null)
        {
            throw new XDevException(error.getMessage());
        }
        final boolean runHandlers;
        synchronized (this)
        {
            runHandlers = !handlersRun;
            handlersRun = true;
        }
        if (runHandlers)
        {
            device.forgetCompleted(this);
            complete(status);
        }
        return status;
    }

    @Override
    public Status itest()
    {
        if (!done)
        {
            device.progressOnce();
        }
        return done ? status : null;
    }

    /** Forgets the request: a completed request that is never waited for is not kept for {@code peek}. */
    @Override
    public void free()
    {
        device.forgetCompleted(this);
    }

    @Override
    public boolean isnull()
    {
        return false;
    }

    @Override
    public boolean cancel()
    {
        // As niodev: a message on its way cannot be taken back.
        return false;
    }
}
