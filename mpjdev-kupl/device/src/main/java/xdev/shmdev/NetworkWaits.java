package xdev.shmdev;

import java.util.function.BooleanSupplier;

import kupl.Parker;

/**
 * How a thread of {@link ClusterShmDevice} waits for what the network brings: as the node's device waits
 * (spins, yields, then sleeps, driving both paths between checks and checking that the node's other ranks
 * are alive), though it spins and yields far less, and its sleep ends also when niodev completes the
 * request it waits for, which rings no
 * doorbell: it sleeps on that request's monitor, which niodev notifies, for at most a millisecond, so
 * that this node's ranks are answered meanwhile. A wait with no network request yet (a receive from any
 * rank, a probe) sleeps on its doorbell for at most {@value #UNMATCHED_PARK_NS} ns between looks at the
 * network.
 */
final class NetworkWaits
{
    /**
     * Spins and yield time before sleeping: few, since a message from another node takes tens of microseconds
     * and niodev's own thread, which brings it, needs the core.
     */
    private static final int SPINS = 50;
    private static final long YIELD_NS = 20_000;
    /** Shortest sleep once spinning and yielding are over. */
    private static final long MIN_PARK_NS = 20_000;
    /** Longest: how long this node's ranks may wait for an answer while this one waits for the network. */
    private static final long MAX_PARK_NS = 1_000_000;
    /** Longest sleep of a wait with no network request: how late it may see a message from another node. */
    private static final long UNMATCHED_PARK_NS = 50_000;

    private final Progress progress;
    private final DeviceWaiter waiter;
    private final ThreadLocal<CrossNodeRequest> waitingFor = new ThreadLocal<>();

    NetworkWaits(final ShmDevice node)
    {
        this.progress = node.progress();
        this.waiter = node.waiterWith(SPINS, YIELD_NS,
            bell -> (blocker, maxNs, ready) -> park(bell, blocker, maxNs, ready), MIN_PARK_NS, MAX_PARK_NS);
    }

    /** Drives both paths until {@code request} is done; fails naming a rank that died. */
    void await(final CrossNodeRequest request)
    {
        if (request.isDone())
        {
            return;
        }
        waitingFor.set(request);
        try
        {
            progress.awaitCondition(request::isDone, request, waiter);
        }
        finally
        {
            waitingFor.remove();
        }
    }

    /** Drives both paths until {@code condition} (checked under the device's lock) holds. */
    void await(final BooleanSupplier condition, final String what)
    {
        progress.awaitCondition(condition, what, waiter);
    }

    /** One pass over both paths, for a test. */
    void passOnce()
    {
        progress.progressOnce();
    }

    private void park(final Parker bell, final Object blocker, final long maxNs, final BooleanSupplier ready)
    {
        final CrossNodeRequest request = waitingFor.get();
        // Read at each sleep: a receive from any rank may have moved to the network since the last one.
        final mpjdev.Request onNetwork = request == null ? null : request.network();
        if (onNetwork == null)
        {
            bell.park(blocker, Math.min(maxNs, UNMATCHED_PARK_NS), ready);
            return;
        }
        // niodev's completion notifies the request under its monitor, and itest reads its state under the same
        // monitor: a completion between the check and the wait cannot be missed. Only niodev's monitor is held,
        // never the device's lock, so no thread waits for the two in the other order.
        synchronized (onNetwork)
        {
            if (onNetwork.itest() == null)
            {
                try
                {
                    onNetwork.wait(Math.max(1, maxNs / 1_000_000));
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
