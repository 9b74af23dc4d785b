package kupl;

/**
 * The engine's idle strategy ({@link BackoffIdle}) for a caller that runs its own polling loop
 * and liveness checks: {@link #reset()} when a wait starts or work was found, {@link #idle()}
 * after each poll that found nothing. New code waits through a {@link Waiter}, which runs that
 * loop, the liveness check and a doorbell ({@link Doorbell#asParker()}) itself; this class keeps
 * the shape the shm device was written against.
 *
 * <p>Unlike a {@link Waiter}'s waits, each timed park here gives the interrupt status back at
 * once (a poll loop has no end of wait at which to restore it). Used by one thread at a time.
 */
public final class IdleBackoff
{
    private final BackoffIdle backoff;
    private final long livenessIntervalNs;
    private boolean timing;
    private long startNs;
    private long nextCheckNs;

    /**
     * @param processes how many processes wait on each other (to decide whether spinning helps).
     * @throws IllegalArgumentException if {@code processes} is below 1.
     */
    public IdleBackoff(final KuplConfig config, final int processes)
    {
        this.backoff = new BackoffIdle(BackoffIdle.Settings.fromConfig(config, processes));
        this.livenessIntervalNs = config.livenessIntervalNs();
    }

    /** Starts a new wait: the next {@link #idle()} spins again. */
    public void reset()
    {
        backoff.reset();
        timing = false;
    }

    /**
     * Lets time pass after a poll that found nothing: a spin while the spin budget lasts, then a
     * yield, then a park.
     *
     * @return true when it is time for the caller's liveness check (every
     *         {@code KUPL_SHM_LIVENESS_MS} once spinning is over).
     */
    public boolean idle()
    {
        backoff.idle();
        backoff.restoreInterrupt();
        if (backoff.state() == BackoffIdle.State.SPINNING)
        {
            return false;
        }
        final long nowNs = System.nanoTime();
        if (!timing)
        {
            timing = true;
            startNs = nowNs;
            nextCheckNs = nowNs + livenessIntervalNs;
            return false;
        }
        if (nowNs - nextCheckNs >= 0)
        {
            nextCheckNs = nowNs + livenessIntervalNs;
            return true;
        }
        return false;
    }

    /**
     * Whether spinning and yielding are over in this wait: a caller that can sleep until it is
     * woken ({@link Doorbell}) should do so now instead of calling {@link #idle()}, which parks
     * for fixed periods.
     */
    public boolean isTimeToSleep()
    {
        return backoff.state() == BackoffIdle.State.PARKING;
    }

    /** Nanoseconds since spinning ended in this wait, 0 while still spinning. */
    public long waitedNs()
    {
        return timing ? System.nanoTime() - startNs : 0;
    }
}
