package kupl;

import java.lang.invoke.VarHandle;

/**
 * {@code KUPL_SHM_FENCE_ALGORITHM=1}: a central counter. Every process adds one to the
 * arrival counter; the one that brings it to {@code epoch * ranks} is the last to arrive and
 * publishes {@code epoch} in the release word, which the others wait for. Both words only
 * grow, so nothing is reset between consecutive fences. O(1) flag writes per process, but
 * every process hits the same two cache lines.
 */
final class LinearFence implements Fence
{
    private final int ranks;
    private final SharedWords words;
    private final Waiter waiter;
    private final WaitGuard guard;
    private long epoch;

    LinearFence(final int ranks, final SharedWords words, final Waiter waiter, final FreeBarrier freeBarrier)
    {
        this.ranks = ranks;
        this.words = words;
        this.waiter = waiter;
        this.guard = (what, waitedNs) -> freeBarrier.checkFenceCanComplete(epoch, what);
    }

    @Override
    public void await()
    {
        final long epoch = ++this.epoch;
        // Order this process's earlier loads and stores before its arrival (a full barrier).
        VarHandle.fullFence();
        // Volatile add (sequentially consistent): the last arriver's add reads every earlier add,
        // and with them the pre-fence writes of every process, which it then releases below.
        final long arrivals = words.getAndAddLong(ControlDescriptor.ARRIVALS_OFFSET, 1) + 1;
        if (arrivals == epoch * ranks)
        {
            // Release: publishes every process's pre-fence writes (they precede their adds) to the
            // waiters' acquire loads of this word in awaitAtLeast.
            words.putLongRelease(ControlDescriptor.LINEAR_RELEASE_OFFSET, epoch);
        }
        else
        {
            waiter.awaitAtLeast(words, ControlDescriptor.LINEAR_RELEASE_OFFSET, epoch, Liveness.ANY_RANK, guard, this);
        }
    }

    @Override
    public long epoch()
    {
        return epoch;
    }

    @Override
    public String toString()
    {
        return "linear fence #" + epoch;
    }
}
