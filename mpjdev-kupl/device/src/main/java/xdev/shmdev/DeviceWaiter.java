package xdev.shmdev;

import kupl.Doorbell;
import kupl.IdleBackoff;
import kupl.KuplConfig;

/**
 * How a thread of the device waits: it drives the device itself (there is no progress thread),
 * spinning briefly, then yielding, then parking ({@link IdleBackoff}, the engine's settings),
 * and, once that is over, sleeping on this process's {@link Doorbell} until a peer rings it
 * (it wrote to this process or freed room in a queue). While it waits it runs the liveness check
 * every {@code KUPL_SHM_LIVENESS_MS}, which throws instead of letting a dead peer hang it.
 *
 * <p>Its interface is one call, {@link #await}, so that the way of waiting can change here
 * alone. Thread-safe: each thread has its own backoff.
 */
final class DeviceWaiter
{
    /** What one {@link Attempt} found. */
    enum Outcome
    {
        /** The condition holds: the wait is over. */
        MET,
        /** Not yet, but something was read or written: try again at once. */
        WORKED,
        /** Not yet, and nothing moved: idle before trying again. */
        IDLE
    }

    /** Checks the condition, drives the device once, checks again (under the device's lock). */
    @FunctionalInterface
    interface Attempt
    {
        Outcome attempt();
    }

    /** Throws if a rank this process may wait for has died. */
    @FunctionalInterface
    interface LivenessCheck
    {
        /**
         * @param what     what the caller waits in, for the message.
         * @param waitedNs how long it has waited so far.
         */
        void check(String what, long waitedNs);
    }

    private final Doorbell ownBell;
    private final long livenessIntervalNs;
    private final LivenessCheck liveness;
    private final ThreadLocal<IdleBackoff> backoffs;

    /**
     * @param processes how many processes wait on each other (to decide whether spinning helps).
     * @param ownBell   where this process sleeps, rung by its peers.
     */
    DeviceWaiter(final KuplConfig config, final int processes, final Doorbell ownBell, final LivenessCheck liveness)
    {
        this.ownBell = ownBell;
        this.livenessIntervalNs = config.livenessIntervalNs();
        this.liveness = liveness;
        this.backoffs = ThreadLocal.withInitial(() -> new IdleBackoff(config, processes));
    }

    /** Repeats {@code attempt} until it reports {@link Outcome#MET}; {@code what} names the wait in errors. */
    void await(final Attempt attempt, final String what)
    {
        final IdleBackoff backoff = backoffs.get();
        backoff.reset();
        long nextCheckNs = 0;
        while (true)
        {
            final Outcome outcome = attempt.attempt();
            if (outcome == Outcome.MET)
            {
                return;
            }
            if (outcome == Outcome.WORKED)
            {
                backoff.reset();
            }
            else if (!backoff.isTimeToSleep())
            {
                if (backoff.idle())
                {
                    liveness.check(what, backoff.waitedNs());
                }
            }
            else
            {
                if (sleepUntilRung(attempt))
                {
                    return;
                }
                final long nowNs = System.nanoTime();
                if (nowNs - nextCheckNs >= 0)
                {
                    if (nextCheckNs != 0)
                    {
                        liveness.check(what, backoff.waitedNs());
                    }
                    nextCheckNs = nowNs + livenessIntervalNs;
                }
            }
        }
    }

    /**
     * Sleeps until a peer rings this process's bell (or the liveness interval passes), following
     * the doorbell's protocol so that no ring is lost.
     *
     * @return true if the condition held on the last look before sleeping.
     */
    private boolean sleepUntilRung(final Attempt attempt)
    {
        // Acquire load of the count before announcing: a ring after this point makes sleep return at once.
        final int seen = ownBell.ringCount();
        // Full fence: a waker that published after this sees the sleeper and rings; the attempt below sees
        // whatever a waker published before.
        ownBell.enter();
        try
        {
            final Outcome last = attempt.attempt();
            if (last == Outcome.MET)
            {
                return true;
            }
            if (last == Outcome.IDLE)
            {
                ownBell.sleep(seen, livenessIntervalNs);
            }
            return false;
        }
        finally
        {
            ownBell.leave();
        }
    }
}
