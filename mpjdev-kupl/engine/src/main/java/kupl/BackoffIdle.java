package kupl;

import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * How a thread lets time pass while what it waits for is not there yet: spin, then yield,
 * then park (Agrona's {@code BackoffIdleStrategy}, with the yield phase measured in time).
 *
 * <p><b>Contract.</b> Call {@link #idle()} after each check that found nothing, and
 * {@link #reset()} when work was found or the wait is over. A caller's loop:
 * <pre>{@code
 * try {
 *     while (!done()) {
 *         idle.idle();
 *     }
 * } finally {
 *     idle.reset();
 * }
 * }</pre>
 * The {@link Waiter} runs that loop (with liveness checks); use it rather than this class.
 *
 * <p><b>States.</b>
 * <ul>
 *   <li>{@link State#NOT_IDLE}: after construction and {@link #reset()}.</li>
 *   <li>{@link State#SPINNING}: up to {@link Settings#spins()} calls of {@code Thread.onSpinWait()}.
 *   Spinning answers within a cache-line transfer, but only helps while every waiting process
 *   has a core of its own: with more processes than cores a spinner keeps the process it
 *   waits for off the CPU until the scheduler's tick. So {@code KUPL_SHM_WAIT_SPINS=auto}
 *   spins only while the processes do not outnumber the cores (as {@code Phaser} sizes its
 *   spins from the number of CPUs), and then only as much as recent waits say it pays.</li>
 *   <li>{@link State#YIELDING}: {@code Thread.yield()} for up to {@link Settings#yieldNs()} after
 *   spinning ended ({@code KUPL_SHM_WAIT_YIELD_US}); lets a descheduled peer run.</li>
 *   <li>{@link State#PARKING}: {@link Settings#parker()} for periods doubling from
 *   {@link Settings#minParkNs()} to {@link Settings#maxParkNs()}. A timed park wakes late by
 *   the kernel's timer slack (50 us by default on Linux), so it only follows a long wait;
 *   a doorbell parker wakes as soon as it is rung.</li>
 * </ul>
 * How much of the spin and yield allowances a wait uses is the {@link Settings#budget()}'s
 * choice: all of them with explicit settings, as much as recent waits showed to pay with
 * {@code auto} ({@link SpinBudget}); each wait tells it, at {@link #reset()}, in which state it ended.
 * What each step costs on this machine is measured by {@code bench.engine.EngineBenchmark}
 * ({@code bin/bench-engine}): its fence rows with 4 and 8 processes on 2 cores are waits
 * that yield and park.
 *
 * <p><b>Interrupts.</b> An interrupted thread keeps waiting, as in {@code Phaser}'s
 * uninterruptible waits: a park returns at once while the interrupt status is set, so before
 * parking the status is cleared and remembered, and {@link #reset()} sets it again. The
 * caller sees its interrupt once the wait is over.
 *
 * <p>Used by one thread at a time.
 */
public final class BackoffIdle
{
    /** Where an idle strategy is in its backoff. */
    public enum State
    {
        /** No idle call since the last reset. */
        NOT_IDLE,
        /** Busy-waiting with {@code Thread.onSpinWait()}. */
        SPINNING,
        /** Giving the core away with {@code Thread.yield()}. */
        YIELDING,
        /** Parking through the {@link Parker}, for periods that double up to a cap. */
        PARKING
    }

    /**
     * How long each phase may last, how much of that a wait uses, and how to park.
     *
     * @param spins     the most calls of {@link #idle()} that spin.
     * @param yieldNs   the longest that calls yield once spinning is over.
     * @param minParkNs the first park period.
     * @param maxParkNs the cap of the doubling park periods.
     * @param parker    how to park.
     * @param budget    how much of {@code spins} and {@code yieldNs} a wait uses (shared by the
     *                  waits made with these settings: it learns from them).
     */
    public record Settings(int spins, long yieldNs, long minParkNs, long maxParkNs, Parker parker, SpinBudget budget)
    {
        /** First timed park period: short, since the timer slack adds about as much. */
        public static final long MIN_PARK_NS = 20_000;
        /** Cap of the timed park periods: a waiter that parks is late by at most this much. */
        public static final long MAX_PARK_NS = 1_000_000;
        /**
         * Spins of {@code KUPL_SHM_WAIT_SPINS=auto} while the processes do not outnumber the
         * cores: a few microseconds with the waiter's checks between them, enough for a peer
         * that answers at once. Not more, because fewer processes than cores does not mean a
         * core each: the scheduler may run two spinning ranks on one core for seconds while the
         * other idles (seen at every start here), and then each wait spins its whole allowance
         * before it yields to the peer it waits for. 1,000 spins (about 60 us with the checks)
         * made a 2-rank ping-pong cost 50-100 us per message for its first seconds; 100 spins,
         * 10-20 us, and once the ranks run on two cores 1.1-1.6 us either way.
         */
        public static final int AUTO_SPINS = 100;
        /** The yield allowance of {@code KUPL_SHM_WAIT_YIELD_US=auto}: 2 ms, of which a wait uses what pays. */
        public static final long AUTO_YIELD_NS = 2_000_000;

        /**
         * @throws IllegalArgumentException naming the bad value.
         */
        public Settings
        {
            Objects.requireNonNull(parker, "parker");
            Objects.requireNonNull(budget, "budget");
            if (spins < 0 || yieldNs < 0 || minParkNs <= 0 || maxParkNs < minParkNs)
            {
                throw new IllegalArgumentException("bad idle settings: spins=" + spins + ", yieldNs=" + yieldNs +
                    ", minParkNs=" + minParkNs + ", maxParkNs=" + maxParkNs +
                    " (spins and yieldNs at least 0, 0 < minParkNs <= maxParkNs)");
            }
        }

        /**
         * Settings that always use the whole of {@code spins} and {@code yieldNs} (a
         * {@link SpinBudget#fixed()} budget).
         *
         * @throws IllegalArgumentException naming the bad value.
         */
        public Settings(final int spins, final long yieldNs, final long minParkNs, final long maxParkNs,
            final Parker parker)
        {
            this(spins, yieldNs, minParkNs, maxParkNs, parker, SpinBudget.fixed());
        }

        /**
         * The settings of {@code config} for {@code processes} that wait on each other, with a
         * timed parker ({@code KUPL_SHM_WAIT_SPINS}, {@code KUPL_SHM_WAIT_YIELD_US}); a phase
         * set to {@code auto} gets an adaptive {@link SpinBudget}, an explicit one is used whole.
         *
         * @throws IllegalArgumentException if {@code processes} is below 1.
         */
        public static Settings fromConfig(final KuplConfig config, final int processes)
        {
            Objects.requireNonNull(config, "config");
            if (processes < 1)
            {
                throw new IllegalArgumentException("processes=" + processes + " must be at least 1");
            }
            final boolean autoSpins = config.waitSpins() == KuplConfig.AUTO_SPINS;
            final boolean autoYield = config.waitYieldNs() == KuplConfig.AUTO_YIELD;
            final int spins = autoSpins ? autoSpins(processes, CpuBinding.availableCpus()) :
                config.waitSpins();
            final long yieldNs = autoYield ? AUTO_YIELD_NS : config.waitYieldNs();
            final SpinBudget budget = autoSpins || autoYield ? SpinBudget.adaptive(autoSpins, autoYield) :
                SpinBudget.fixed();
            return new Settings(spins, yieldNs, MIN_PARK_NS, MAX_PARK_NS, Parker.timed(), budget);
        }

        /**
         * Spins of {@code KUPL_SHM_WAIT_SPINS=auto} for {@code processes} on {@code cores}:
         * none when oversubscribed, {@link #AUTO_SPINS} otherwise.
         */
        public static int autoSpins(final int processes, final int cores)
        {
            return processes <= cores ? AUTO_SPINS : 0;
        }

        /**
         * A copy that parks with {@code parker}, for periods from {@code minParkNs} to
         * {@code maxParkNs} (a doorbell that wakes its sleeper may use one long period), with a
         * {@link SpinBudget#fresh()} budget: waits that park differently learn on their own.
         */
        public Settings withParker(final Parker parker, final long minParkNs, final long maxParkNs)
        {
            return new Settings(spins, yieldNs, minParkNs, maxParkNs, parker, budget.fresh());
        }
    }

    private final Settings settings;
    private final LongSupplier clockNs;
    private State state = State.NOT_IDLE;
    private int spun;
    private int spinLimit;
    private long yieldStartNs;
    private long yieldLimitNs;
    private long parkNs;
    private boolean interrupted;

    /** A strategy in state {@link State#NOT_IDLE}, with {@code settings}. */
    public BackoffIdle(final Settings settings)
    {
        this(settings, System::nanoTime);
    }

    /** As {@link #BackoffIdle(Settings)}, reading time from {@code clockNs} (tests drive it by hand). */
    BackoffIdle(final Settings settings, final LongSupplier clockNs)
    {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clockNs = Objects.requireNonNull(clockNs, "clockNs");
    }

    /** Lets time pass after a check that found nothing (a parker that re-checks is told that nothing is ready). */
    public void idle()
    {
        idle(() -> false);
    }

    /**
     * Lets time pass after a check that found nothing.
     *
     * @param ready passed to the {@link Parker} when parking (see {@link Parker#park}).
     */
    public void idle(final BooleanSupplier ready)
    {
        if (state == State.NOT_IDLE)
        {
            state = State.SPINNING;
            spun = 0;
            spinLimit = settings.budget().spins(settings.spins());
        }
        if (state == State.SPINNING)
        {
            if (spun < spinLimit)
            {
                spun++;
                Thread.onSpinWait();
                return;
            }
            state = State.YIELDING;
            yieldStartNs = clockNs.getAsLong();
            yieldLimitNs = settings.budget().yieldNs(settings.yieldNs());
        }
        if (state == State.YIELDING)
        {
            if (clockNs.getAsLong() - yieldStartNs < yieldLimitNs)
            {
                Thread.yield();
                return;
            }
            state = State.PARKING;
            parkNs = settings.minParkNs();
        }
        // A park returns at once while the interrupt status is set: set it aside until reset().
        if (Thread.interrupted())
        {
            interrupted = true;
        }
        settings.parker().park(this, parkNs, ready);
        parkNs = Math.min(parkNs << 1, settings.maxParkNs());
    }

    /**
     * Starts over (the next {@link #idle()} spins again), tells the {@link SpinBudget} how the
     * wait ended, and gives the thread back the interrupt status that parking set aside.
     */
    public void reset()
    {
        final SpinBudget budget = settings.budget();
        if (state != State.NOT_IDLE && budget.adaptive())
        {
            // Only waits past spinning read the clock: a wait that ended while spinning stays cheap.
            budget.waitEnded(state, state == State.SPINNING ? 0 : clockNs.getAsLong() - yieldStartNs);
        }
        state = State.NOT_IDLE;
        restoreInterrupt();
    }

    /** Where the backoff is. */
    public State state()
    {
        return state;
    }

    /** The settings it was made with. */
    public Settings settings()
    {
        return settings;
    }

    /** Sets the interrupt status again if parking cleared it. */
    void restoreInterrupt()
    {
        if (interrupted)
        {
            interrupted = false;
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString()
    {
        return "BackoffIdle[" + state + ", spins " + settings.spins() + ", yield " + settings.yieldNs() / 1_000 +
            " us, park " + settings.minParkNs() / 1_000 + "-" + settings.maxParkNs() / 1_000 + " us, " +
            settings.budget() + "]";
    }
}
