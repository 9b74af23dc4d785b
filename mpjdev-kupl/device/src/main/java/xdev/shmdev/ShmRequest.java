package xdev.shmdev;

import mpjdev.Status;
import xdev.XDevException;

/**
 * A send or receive of the {@link ShmDevice}. There is no progress thread: whoever waits or
 * tests drives the device ({@link RequestDriver}). As in MPJ Express's own devices, the
 * completion handlers run once, in the first {@link #iwait()} after completion
 * ({@code mpi.Request.Test} calls {@code iwait} once {@link #itest()} reports completion).
 */
abstract class ShmRequest extends mpjdev.Request
{
    final RequestDriver driver;
    final Status status;
    /** Volatile: {@link #itest()} and {@code Request.iwaitany} read it without the device's lock. */
    private volatile boolean done;
    private volatile XDevException failure;
    private boolean handlersRun;

    ShmRequest(final RequestDriver driver, final Status status)
    {
        this.driver = driver;
        this.status = status;
    }

    boolean isDone()
    {
        // Volatile load: pairs with the store in markDone, so the status and buffer written before are visible.
        return done;
    }

    /** Marks the request complete; the device then queues it for {@code peek}. Called under the device's lock. */
    void markDone()
    {
        // Volatile store: publishes the status and the received bytes, written before, to any thread that sees done.
        done = true;
    }

    /** Completes the request with an error that its waiter will throw. Called under the device's lock. */
    void markFailed(final XDevException error)
    {
        failure = error;
        // Volatile store after the failure: a thread that sees done sees the failure too.
        done = true;
    }

    /** What is waited for, for error messages. */
    abstract String describe();

    @Override
    public Status iwait()
    {
        driver.await(this);
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
            driver.forget(this);
            complete(status);
        }
        return status;
    }

    @Override
    public Status itest()
    {
        if (!done)
        {
            driver.progressOnce();
        }
        return done ? status : null;
    }

    /** Forgets the request: a completed request that is never waited for is not kept for {@code peek}. */
    @Override
    public void free()
    {
        driver.forget(this);
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
