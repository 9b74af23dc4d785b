package kupl;

import java.lang.invoke.VarHandle;

/**
 * Synchronises this process with one other ({@code kupl_shm_peer_fence}): each raises its
 * word in the other's row to the number of peer fences the two have started, then waits for
 * the other's word in its own row to reach the same number. Counts only grow.
 */
final class PeerFence
{
    private final int rank;
    private final ControlDescriptor layout;
    private final SharedWords words;
    private final BackoffWaiter waiter;
    private final long[] counts;

    PeerFence(final int rank, final ControlDescriptor layout, final SharedWords words, final BackoffWaiter waiter)
    {
        this.rank = rank;
        this.layout = layout;
        this.words = words;
        this.waiter = waiter;
        this.counts = new long[layout.ranks()];
    }

    void await(final int peer)
    {
        final long count = ++counts[peer];
        VarHandle.fullFence();
        words.putLongRelease(layout.peerFlagOffset(peer, rank), count);
        waiter.awaitAtLeast(layout.peerFlagOffset(rank, peer), count, peer, this);
    }

    @Override
    public String toString()
    {
        return "peer fence of rank " + rank;
    }
}
