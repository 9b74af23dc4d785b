package kupl;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * How a process waits for a flag word to reach a value: spin, then yield, then park.
 *
 * <ul>
 *   <li><b>Spinning</b> ({@code Thread.onSpinWait}) answers in a cache-line transfer (about
 *   100-300 ns here) but only helps while every waiting process has a core of its own: with
 *   more processes than cores a spinner keeps the process it waits for off the CPU until the
 *   scheduler's 4 ms tick. So the spin budget is zero when the processes outnumber the cores
 *   ({@code KUPL_SHM_WAIT_SPINS=auto}).</li>
 *   <li><b>Yielding</b> costs about 0.2 us and lets a descheduled peer run; it goes on for
 *   {@code KUPL_SHM_WAIT_YIELD_US}.</li>
 *   <li><b>Parking</b> costs 50-200 us per wake-up (timer slack), so it only follows a long
 *   wait, with periods doubling up to 1 ms.</li>
 * </ul>
 *
 * While yielding or parking it checks every {@code KUPL_SHM_LIVENESS_MS} that the processes it
 * waits for are alive, and, in a fence, that none has freed the window instead of entering it
 * ({@link FreeBarrier}). A waiter belongs to one window and is used by one thread at a time.
 */
final class BackoffWaiter
{
    static final long MIN_PARK_NS = 20_000;
    static final long MAX_PARK_NS = 1_000_000;
    static final int AUTO_SPINS_PER_WAIT = 1_000;
    private static final long NO_SHORTCUT = -1;

    private final SharedWords words;
    private final PeerLiveness liveness;
    private final int spins;
    private final long yieldNs;
    private final long livenessIntervalNs;

    BackoffWaiter(final SharedWords words, final PeerLiveness liveness, final KuplConfig config, final int processes)
    {
        this.words = words;
        this.liveness = liveness;
        this.spins = config.waitSpins() == KuplConfig.AUTO_SPINS ?
            autoSpins(processes, Runtime.getRuntime().availableProcessors()) : config.waitSpins();
        this.yieldNs = config.waitYieldNs();
        this.livenessIntervalNs = config.livenessIntervalNs();
    }

    /**
     * Spin budget for {@code processes} on {@code cores}: none when oversubscribed; otherwise
     * about 50 us (an {@code onSpinWait} takes about 50 ns on the machines measured), enough
     * for peers that arrive a little late, short enough not to burn a core on a peer that was
     * descheduled.
     */
    static int autoSpins(final int processes, final int cores)
    {
        return processes <= cores ? AUTO_SPINS_PER_WAIT : 0;
    }

    int spins()
    {
        return spins;
    }

    /**
     * Returns once the word at {@code offset} is at least {@code target} (acquire: what its
     * writer did before raising it is visible afterwards).
     *
     * @param peer rank whose death would make the wait endless, or {@link PeerLiveness#ANY_RANK}.
     * @param what what is being waited in, for the error message.
     * @throws PeerDeathException if that process died.
     */
    void awaitAtLeast(final long offset, final long target, final int peer, final Object what)
    {
        if (words.getLongAcquire(offset) < target && !spin(offset, target))
        {
            slowWait(offset, target, NO_SHORTCUT, 0, peer, what);
        }
    }

    /**
     * As {@link #awaitAtLeast}, but once spinning is over also returns when the word at
     * {@code shortcutOffset} reaches {@code shortcutTarget}.
     *
     * @return true if it returned because of the shortcut word.
     */
    boolean awaitAtLeastOrShortcut(final long offset, final long target, final long shortcutOffset,
        final long shortcutTarget, final int peer, final Object what)
    {
        if (words.getLongAcquire(offset) >= target || spin(offset, target))
        {
            return false;
        }
        if (words.getLongAcquire(shortcutOffset) >= shortcutTarget)
        {
            // Spare this process a pass of the scheduler: it may already know everyone has arrived.
            return true;
        }
        return slowWait(offset, target, shortcutOffset, shortcutTarget, peer, what);
    }

    /**
     * Returns once {@code condition} holds: spins, then yields, then parks, checking that every
     * process is alive at the liveness interval.
     */
    void awaitCondition(final BooleanSupplier condition, final Object what)
    {
        for (int i = spins; i >= 0; i--)
        {
            if (condition.getAsBoolean())
            {
                return;
            }
            Thread.onSpinWait();
        }
        final Pause pause = new Pause();
        while (!condition.getAsBoolean())
        {
            pause.pause();
            if (pause.checkDue())
            {
                checkLiveness(PeerLiveness.ANY_RANK, what, pause.waitedNs());
            }
        }
    }

    private boolean spin(final long offset, final long target)
    {
        final SharedWords words = this.words;
        for (int i = spins; i > 0; i--)
        {
            Thread.onSpinWait();
            if (words.getLongAcquire(offset) >= target)
            {
                return true;
            }
        }
        return false;
    }

    private boolean slowWait(final long offset, final long target, final long shortcutOffset, final long shortcutTarget,
        final int peer, final Object what)
    {
        final Pause pause = new Pause();
        while (true)
        {
            pause.pause();
            if (words.getLongAcquire(offset) >= target)
            {
                return false;
            }
            if (shortcutOffset != NO_SHORTCUT && words.getLongAcquire(shortcutOffset) >= shortcutTarget)
            {
                return true;
            }
            if (pause.checkDue())
            {
                checkLiveness(peer, what, pause.waitedNs());
                if (what instanceof Fence fence)
                {
                    FreeBarrier.checkFenceCanComplete(words, fence.epoch(), liveness.ownRank(), what);
                }
            }
        }
    }

    /** The slow phase of one wait: yields while the yield time lasts, then parks for doubling periods. */
    private final class Pause
    {
        private final long startNs = System.nanoTime();
        private long nextCheckNs = startNs + livenessIntervalNs;
        private long parkNs = MIN_PARK_NS;
        private long nowNs = startNs;

        /** Pauses once; a park may return early or spuriously, so callers re-read what they wait for. */
        void pause()
        {
            nowNs = System.nanoTime();
            if (nowNs - startNs < yieldNs)
            {
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(BackoffWaiter.this, parkNs);
                parkNs = Math.min(parkNs << 1, MAX_PARK_NS);
            }
        }

        /** Whether a liveness check is due (then the next one is scheduled). */
        boolean checkDue()
        {
            if (nowNs - nextCheckNs < 0)
            {
                return false;
            }
            nextCheckNs = nowNs + livenessIntervalNs;
            return true;
        }

        long waitedNs()
        {
            return nowNs - startNs;
        }
    }

    /**
     * Throws if the wait can never end because a rank of the window is dead. The first
     * process to find a death records the rank in the control object, and every process
     * names that rank from then on: otherwise a process waiting for a survivor that has since
     * given up (in rd, a partner that was itself waiting for the dead rank) would find that
     * survivor gone and blame it instead of the rank that really died.
     */
    private void checkLiveness(final int peer, final Object what, final long waitedNs)
    {
        final long recorded = words.getLongAcquire(ControlDescriptor.DEAD_RANK_OFFSET);
        if (recorded != 0)
        {
            throw liveness.foundDeadByAnother((int)(recorded - 1), String.valueOf(what), waitedNs);
        }
        try
        {
            liveness.check(peer, String.valueOf(what), waitedNs);
        }
        catch (final PeerDeathException e)
        {
            final long witness = words.compareAndExchangeLong(ControlDescriptor.DEAD_RANK_OFFSET, 0, e.deadRank() + 1L);
            if (witness != 0 && witness - 1 != e.deadRank())
            {
                throw liveness.foundDeadByAnother((int)(witness - 1), String.valueOf(what), waitedNs);
            }
            throw e;
        }
    }
}
