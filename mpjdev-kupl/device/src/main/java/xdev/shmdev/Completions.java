package xdev.shmdev;

import kupl.Doorbell;
import xdev.XDevException;

/**
 * Completes requests: marks them done, keeps them in completion order for {@code peek}
 * ({@code Request.iwaitany}) until they are waited for or freed, and wakes a thread of this
 * process that may sleep waiting for one. Used under the device's lock.
 *
 * <p>The order is a list threaded through the requests themselves ({@link ShmRequest#completedBefore},
 * {@link ShmRequest#completedAfter}): completing, taking and forgetting a request make no object, and forgetting
 * one in the middle (a {@code Wait} on one of many {@code Isend}s) costs the same as the first.
 */
final class Completions
{
    private final Doorbell ownBell;
    private ShmRequest first;
    private ShmRequest last;

    /** @param ownBell where this process's waiting threads sleep. */
    Completions(final Doorbell ownBell)
    {
        this.ownBell = ownBell;
    }

    void complete(final ShmRequest request)
    {
        request.markDone();
        append(request);
        // After the volatile store of done (markDone): a sleeper woken by the ring sees the request done.
        ownBell.ringIfSleeping();
    }

    /** Completes {@code request} with an error that its waiter throws. */
    void fail(final ShmRequest request, final XDevException error)
    {
        request.markFailed(error);
        append(request);
        ownBell.ringIfSleeping();
    }

    /** Completes {@code send} if it is not yet done and its protocol has finished. */
    void completeIfFinished(final SendRequest send)
    {
        if (!send.isDone() && send.isFinished())
        {
            complete(send);
        }
    }

    /** The request completed first among those not yet taken, waited for or freed; null if none. */
    ShmRequest takeFirst()
    {
        final ShmRequest request = first;
        if (request != null)
        {
            forget(request);
        }
        return request;
    }

    void forget(final ShmRequest request)
    {
        if (!request.inCompleted)
        {
            return;
        }
        final ShmRequest before = request.completedBefore;
        final ShmRequest after = request.completedAfter;
        if (before == null)
        {
            first = after;
        }
        else
        {
            before.completedAfter = after;
        }
        if (after == null)
        {
            last = before;
        }
        else
        {
            after.completedBefore = before;
        }
        request.completedBefore = null;
        request.completedAfter = null;
        request.inCompleted = false;
    }

    private void append(final ShmRequest request)
    {
        if (request.inCompleted)
        {
            return;
        }
        request.inCompleted = true;
        request.completedBefore = last;
        request.completedAfter = null;
        if (last == null)
        {
            first = request;
        }
        else
        {
            last.completedAfter = request;
        }
        last = request;
    }
}
