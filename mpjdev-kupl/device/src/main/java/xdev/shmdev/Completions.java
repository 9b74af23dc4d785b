package xdev.shmdev;

import java.util.Iterator;
import java.util.LinkedHashSet;

import kupl.Doorbell;
import xdev.XDevException;

/**
 * Completes requests: marks them done, keeps them in completion order for {@code peek}
 * ({@code Request.iwaitany}) until they are waited for or freed, and wakes a thread of this
 * process that may sleep waiting for one. Used under the device's lock.
 */
final class Completions
{
    private final LinkedHashSet<ShmRequest> completed = new LinkedHashSet<>();
    private final Doorbell ownBell;

    /** @param ownBell where this process's waiting threads sleep. */
    Completions(final Doorbell ownBell)
    {
        this.ownBell = ownBell;
    }

    void complete(final ShmRequest request)
    {
        request.markDone();
        completed.add(request);
        // After the volatile store of done (markDone): a sleeper woken by the ring sees the request done.
        ownBell.ringIfSleeping();
    }

    /** Completes {@code request} with an error that its waiter throws. */
    void fail(final ShmRequest request, final XDevException error)
    {
        request.markFailed(error);
        completed.add(request);
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
        final Iterator<ShmRequest> first = completed.iterator();
        if (!first.hasNext())
        {
            return null;
        }
        final ShmRequest request = first.next();
        first.remove();
        return request;
    }

    void forget(final ShmRequest request)
    {
        completed.remove(request);
    }
}
