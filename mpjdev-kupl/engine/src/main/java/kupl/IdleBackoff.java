package kupl;

import java.util.concurrent.locks.LockSupport;

/**
 * The engine's way of waiting ({@link BackoffWaiter}: spin, then yield, then park) for a caller
 * that polls a condition of its own, such as a queue that may receive a message: call
 * {@link #reset()} when a wait starts or work was found, and {@link #idle()} after each poll that
 * found nothing. With the settings of a {@link KuplConfig}, so that {@code KUPL_SHM_WAIT_SPINS}
 * and {@code KUPL_SHM_WAIT_YIELD_US} tune it as they tune fences.
 *
 * <p>An idle waiter costs no core: after the spin budget (none when the processes outnumber the
 * cores) and the yield period it parks, with periods doubling from 20 us to 1 ms. Used by one
 * thread at a time.
 */
public final class IdleBackoff
{
    private final int spins;
    private final long yieldNs;
    private final long livenessIntervalNs;
    private int spun;
    private long startNs;
    private long parkNs;
    private long nextCheckNs;

    /**
     * @param processes how many processes wait on each other (to decide whether spinning helps).
     */
    public IdleBackoff(final KuplConfig config, final int processes)
    {
        if (processes < 1)
        {
            throw new IllegalArgumentException("processes=" + processes + " must be at least 1");
        }
        this.spins = config.waitSpins() == KuplConfig.AUTO_SPINS ?
            BackoffWaiter.autoSpins(processes, Runtime.getRuntime().availableProcessors()) : config.waitSpins();
        this.yieldNs = config.waitYieldNs();
        this.livenessIntervalNs = config.livenessIntervalNs();
        reset();
    }

    /** Starts a new wait: the next {@link #idle()} spins again. */
    public void reset()
    {
        spun = 0;
        startNs = 0;
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
        if (spun < spins)
        {
            spun++;
            Thread.onSpinWait();
            return false;
        }
        final long nowNs = System.nanoTime();
        if (startNs == 0)
        {
            startNs = nowNs;
            parkNs = BackoffWaiter.MIN_PARK_NS;
            nextCheckNs = nowNs + livenessIntervalNs;
        }
        if (nowNs - startNs < yieldNs)
        {
            Thread.yield();
        }
        else
        {
            LockSupport.parkNanos(this, parkNs);
            parkNs = Math.min(parkNs << 1, BackoffWaiter.MAX_PARK_NS);
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
        return spun >= spins && startNs != 0 && System.nanoTime() - startNs >= yieldNs;
    }

    /** Nanoseconds since spinning ended in this wait, 0 while still spinning. */
    public long waitedNs()
    {
        return startNs == 0 ? 0 : System.nanoTime() - startNs;
    }
}
