package mpi.rma.internal.sync;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.ProcessFailures;
import mpi.rma.internal.message.TargetAgent;

/**
 * The completes that other processes' {@code Win.complete} sent to this process by messages, as
 * its {@link TargetAgent} takes them: counted per origin under this object's monitor, which the
 * window's user thread waits on in {@code Win.waitFor}. The agent takes a COMPLETE only after every
 * earlier request of that origin (one stream per pair, in order), so a count that has reached a post
 * means that origin's puts and accumulates of the epoch are applied, and the monitor makes them
 * visible to the waiter.
 */
public final class PscwCompletions
{
    private final long[] counts;
    /** What stopped the agent: no complete can arrive any more. */
    private RuntimeException agentFailure;

    public PscwCompletions(final int ranks)
    {
        this.counts = new long[ranks];
    }

    /** The agent took a COMPLETE from {@code origin}. */
    public synchronized void arrived(final int origin)
    {
        counts[origin]++;
        notifyAll();
    }

    /** The agent stopped serving because of {@code failure} (a process died, or the device failed). */
    public synchronized void agentStopped(final RuntimeException failure)
    {
        agentFailure = failure;
        notifyAll();
    }

    /** Whether {@code origin} has sent {@code expected} completes; throws if none can come any more. */
    synchronized boolean reached(final String call, final int origin, final long expected)
    {
        if (counts[origin] >= expected)
        {
            return true;
        }
        if (agentFailure != null)
        {
            throw ProcessFailures.classify(call, "this process's RMA agent, which takes the win.complete of rank " +
                origin + ",", agentFailure);
        }
        return false;
    }

    /** Returns once {@code origin} has sent {@code expected} completes. */
    synchronized void await(final String call, final int origin, final long expected)
    {
        while (!reached(call, origin, expected))
        {
            try
            {
                // Woken by arrived or agentStopped; a spurious wake-up re-checks.
                wait();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new RmaException(ErrorClass.ERR_OTHER, call + ": interrupted while waiting for the " +
                    "win.complete of rank " + origin, e);
            }
        }
    }
}
