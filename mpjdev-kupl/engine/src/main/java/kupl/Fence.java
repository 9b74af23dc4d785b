package kupl;

/**
 * One fence algorithm ({@code kupl_fence_ops_t}): returns when every process of the window
 * has entered the same fence. Memory consistency: everything a process wrote before its
 * fence is visible to every process after its fence (a full barrier).
 *
 * <p>Epochs count fences from 1 and only grow; each implementation keeps its own count.
 * Implementations allocate nothing per call: partners and flag offsets are fixed when the
 * window is built.
 */
interface Fence
{
    /** Waits for all processes of the window. */
    void await();

    /** Number of fences this process has completed. */
    long epoch();

    /**
     * A fence of {@code algorithm} for {@code rank} over the control object {@code words}.
     *
     * @param oversubscribed the processes outnumber the cores; the same on every process.
     * @param freeBarrier    the window's free, which tells a waiting fence that a process left early.
     */
    static Fence create(final FenceAlgorithm algorithm, final int rank, final ControlDescriptor layout,
        final SharedWords words, final Waiter waiter, final boolean oversubscribed, final FreeBarrier freeBarrier)
    {
        return switch (algorithm)
        {
            case LINEAR -> new LinearFence(layout.ranks(), words, waiter, freeBarrier);
            case RD -> new RecursiveDoublingFence(RecursiveDoublingSchedule.forRank(rank, layout), layout.ranks(),
                oversubscribed, words, waiter, freeBarrier);
        };
    }
}
