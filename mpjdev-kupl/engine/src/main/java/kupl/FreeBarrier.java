package kupl;

import java.lang.invoke.VarHandle;

/**
 * The synchronisation of {@code kupl_shm_win_free}: returns when every process of the window
 * has called free, so that none unmaps while another may still be storing into it.
 *
 * <p>It is kept apart from the fences on purpose. If free were a fence, a process that frees
 * early (say, while unwinding from an exception) would complete the others' current fence,
 * then wait in the comm's out-of-band barrier while they wait in their next fence for it: a
 * hang that no liveness check can see, since every process is alive. Instead the first
 * process to free records how many fences it had completed; a process waiting in a later
 * fence learns from {@link #checkFenceCanComplete} (its fence's {@link WaitGuard}) that this
 * fence can never complete and fails, naming that process, so that it too can free.
 */
final class FreeBarrier
{
    /** Bits of {@link ControlDescriptor#FIRST_FREER_OFFSET} that hold the rank + 1. */
    static final int RANK_BITS = 20;

    private final int rank;
    /** Free arrivals once every process has freed this window: the count only grows, by ranks per window. */
    private final long arrivalsTarget;
    private final SharedWords words;
    private final Waiter waiter;

    /**
     * @param arrivalsTarget free arrivals when every process has freed: the processes times the
     *                       windows that have used this control object ({@link WindowMemory#freeArrivalsTarget}).
     */
    FreeBarrier(final int rank, final long arrivalsTarget, final SharedWords words, final Waiter waiter)
    {
        this.rank = rank;
        this.arrivalsTarget = arrivalsTarget;
        this.words = words;
        this.waiter = waiter;
    }

    /**
     * Arrives and waits until every process has arrived.
     *
     * @param fencesCompleted how many fences this process has completed on the window.
     * @throws PeerDeathException if a process it waits for has died.
     */
    void await(final long fencesCompleted)
    {
        arrive(fencesCompleted);
        awaitEveryone();
    }

    /**
     * Records that this process frees the window, without waiting for the others.
     *
     * @param fencesCompleted how many fences this process has completed on the window.
     */
    void arrive(final long fencesCompleted)
    {
        // Orders this process's last accesses to the segments before its arrival: no process
        // unmaps until every process has arrived, so none can still be storing then.
        VarHandle.fullFence();
        // Volatile compare-and-exchange: only the first freer's count is kept; read by checkFenceCanComplete.
        words.compareAndExchangeLong(ControlDescriptor.FIRST_FREER_OFFSET, 0,
            ((fencesCompleted + 1) << RANK_BITS) | (rank + 1));
        // Volatile add: the waiters' acquire loads of the count see every arrival before it.
        words.getAndAddLong(ControlDescriptor.FREE_ARRIVALS_OFFSET, 1);
    }

    /**
     * Waits until every process has arrived: after it, no process touches the window's memory.
     *
     * @throws PeerDeathException if a process it waits for has died.
     */
    void awaitEveryone()
    {
        waiter.awaitAtLeast(words, ControlDescriptor.FREE_ARRIVALS_OFFSET, arrivalsTarget, Liveness.ANY_RANK,
            WaitGuard.NONE, this);
    }

    /**
     * Throws if a process has freed the window before entering fence {@code epoch}: that fence
     * can then never complete. Fences run it as their {@link WaitGuard}.
     */
    void checkFenceCanComplete(final long epoch, final Object what)
    {
        // Acquire: pairs with the first freer's compare-and-exchange in await (only a plain number is read).
        final long firstFreer = words.getLongAcquire(ControlDescriptor.FIRST_FREER_OFFSET);
        if (firstFreer != 0 && (firstFreer >>> RANK_BITS) - 1 < epoch)
        {
            final long freer = (firstFreer & ((1L << RANK_BITS) - 1)) - 1;
            throw new KuplException("rank " + freer + " freed the window after " + ((firstFreer >>> RANK_BITS) - 1) +
                " fences, so " + what + " of rank " + rank + " can never complete: every process must call fence " +
                "the same number of times before free (did rank " + freer + " leave early, on an exception?)");
        }
    }

    @Override
    public String toString()
    {
        return "free of rank " + rank;
    }
}
