package mpi.rma.internal.message;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The lock of one process's memory in a window reached by messages: shared and exclusive
 * holders, granted strictly in the order requested (a waiting exclusive request holds back the
 * shared ones behind it, so no writer starves). Remote origins ask through the target agent and
 * are told of their grant by a message; this process's own thread waits here
 * ({@link #acquireLocal}). Thread-safe: the agent and the user thread both call it.
 */
public final class PassiveLockQueue
{
    private record Request(int origin, boolean exclusive)
    {
    }

    private final int ownRank;
    private final ArrayDeque<Request> waiting = new ArrayDeque<>();
    private int sharedHolders;
    private boolean exclusiveHeld;
    private boolean ownGranted;
    /** What stopped the agent, which alone could grant this process's own thread the lock; null while it serves. */
    private RuntimeException agentFailure;

    PassiveLockQueue(final int ownRank)
    {
        this.ownRank = ownRank;
    }

    /**
     * Queues {@code origin}'s request; returns the origins granted by it (the origin itself
     * when nothing conflicts and nobody waits before it), to be told.
     */
    synchronized List<Integer> request(final int origin, final boolean exclusive)
    {
        waiting.addLast(new Request(origin, exclusive));
        return grant();
    }

    /** Releases a shared or exclusive hold; returns the remote origins granted in turn, to be told. */
    synchronized List<Integer> release(final boolean exclusive)
    {
        if (exclusive)
        {
            exclusiveHeld = false;
        }
        else
        {
            sharedHolders--;
        }
        return grant();
    }

    /**
     * Takes the lock for this process's own thread, waiting behind earlier requests.
     *
     * @throws RuntimeException what stopped the agent ({@link #agentStopped}), if the lock is not granted by then:
     *                          the origins ahead of this one can no longer release it through the agent.
     */
    synchronized void acquireLocal(final boolean exclusive) throws InterruptedException
    {
        ownGranted = false;
        request(ownRank, exclusive);
        while (!ownGranted)
        {
            if (agentFailure != null)
            {
                throw agentFailure;
            }
            wait();
        }
    }

    /**
     * The agent stopped on {@code failure} (a dead process, most often): a wait of {@link #acquireLocal}, now or
     * later, fails with it instead of waiting for a release that cannot come.
     */
    synchronized void agentStopped(final RuntimeException failure)
    {
        agentFailure = failure;
        notifyAll();
    }

    /** Grants the requests at the head of the queue that the holders allow; notifies this process's own. */
    private List<Integer> grant()
    {
        final List<Integer> granted = new ArrayList<>(1);
        while (!waiting.isEmpty() && !exclusiveHeld)
        {
            final Request head = waiting.peekFirst();
            if (head.exclusive && sharedHolders > 0)
            {
                break;
            }
            waiting.removeFirst();
            if (head.exclusive)
            {
                exclusiveHeld = true;
            }
            else
            {
                sharedHolders++;
            }
            if (head.origin == ownRank)
            {
                ownGranted = true;
                notifyAll();
            }
            else
            {
                granted.add(head.origin);
            }
        }
        return granted;
    }
}
