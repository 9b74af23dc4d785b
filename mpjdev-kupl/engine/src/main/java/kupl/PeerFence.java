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
    private final Waiter waiter;
    private final long[] counts;

    PeerFence(final int rank, final ControlDescriptor layout, final SharedWords words, final Waiter waiter)
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
        // Orders this process's earlier loads and stores before its signal (release alone would
        // let a later load pass it).
        VarHandle.fullFence();
        // Release: publishes this process's writes to the peer's acquire load of this word.
        words.putLongRelease(layout.peerFlagOffset(peer, rank), count);
        // Only the peer can end this wait: its liveness alone is checked; no fence guard applies.
        waiter.awaitAtLeast(words, layout.peerFlagOffset(rank, peer), count, peer, WaitGuard.NONE, this);
    }

    @Override
    public String toString()
    {
        return "peer fence of rank " + rank;
    }
}
