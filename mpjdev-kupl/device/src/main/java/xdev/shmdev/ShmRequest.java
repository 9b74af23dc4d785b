package xdev.shmdev;

import kupl.Waiter;
import mpjdev.CompletionHandler;
import mpjdev.Status;
import xdev.XDevException;

/**
 * A send or receive of the {@link ShmDevice}. There is no progress thread: whoever waits or
 * tests drives the device ({@link RequestDriver}). As in MPJ Express's own devices, the
 * completion handlers run once, in the first {@link #iwait()} after completion
 * ({@code mpi.Request.Test} calls {@code iwait} once {@link #itest()} reports completion).
 */
abstract class ShmRequest extends mpjdev.Request implements Waiter.Attempt
{
    final RequestDriver driver;
    final Status status;
    /** Volatile: {@link #itest()} and {@code Request.iwaitany} read it without the device's lock. */
    private volatile boolean done;
    private volatile XDevException failure;
    private boolean handlersRun;
    /** Whether anything was given {@link #addCompletionHandler}: most requests have no handler to run. */
    private boolean hasHandlers;
    /** Its neighbours in the device's list of completed requests ({@link Completions}), under the device's lock. */
    ShmRequest completedBefore;
    ShmRequest completedAfter;
    boolean inCompleted;

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

    /**
     * Makes a request that was waited for, and that the device no longer holds, a new one: a thread's blocking calls
     * reuse theirs ({@link ArrayMessages}). Called before the device sees it again.
     */
    void restart()
    {
        if (!handlersRun || inCompleted || failure != null || hasHandlers)
        {
            throw new IllegalStateException(describe() + " cannot be reused: not waited for, failed or with handlers");
        }
        handlersRun = false;
        // Volatile store, before the device (under its lock) can see the request again.
        done = false;
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

    /** One step of waiting for it (the device's wait needs no object of its own). */
    @Override
    public Waiter.Outcome attempt()
    {
        return driver.attemptCompletion(this);
    }

    @Override
    public void addCompletionHandler(final CompletionHandler handler)
    {
        hasHandlers = true;
        super.addCompletionHandler(handler);
    }

    @Override
    public String toString()
    {
        return describe();
    }

    @Override
    public Status iwait()
    {
        driver.await(this);
        final XDevException error = failure;
        if (error != null)
        {
            // A copy for this caller's stack, keeping the cause: mpi.rma finds a dead rank's PeerDeathException there.
            final XDevException copy = new XDevException(error.getMessage());
            copy.initCause(error.getCause());
            throw copy;
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
            if (hasHandlers)
            {
                // Only then: MPJ Express's complete makes an iterator even for no handler.
                complete(status);
            }
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
