package kupl;

import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The engine's one way to wait for another process: checks a condition, lets time pass with a
 * {@link BackoffIdle} (spin, yield, park) between checks, and at the liveness interval runs
 * the {@link Liveness} check and the caller's {@link WaitGuard}, so that a wait only a dead
 * process could end fails instead of lasting for ever. A death already recorded (by another
 * waiter, or a {@link DeathWatch}) ends a wait at its start, and between the passes of a wait
 * that keeps working, without waiting for the interval. Fences, the free barrier, the locks of
 * {@code mpi.rma} ({@link ShmWin#awaitCondition}) and the shm device wait through it.
 *
 * <p><b>Conditions.</b> A condition is evaluated exactly once per check, and a true answer
 * ends the wait at once, so it may take what it waits for (a lock's compare-and-set). It
 * should read shared memory with acquire or volatile semantics: what the process that made it
 * true did before is then visible after the wait.
 *
 * <p><b>Progress.</b> A caller that must do work while it waits (drain queues, write what is
 * pending) passes an {@link Attempt} instead: {@link Outcome#WORKED} starts the backoff over.
 * Beyond its own work, every wait drives the {@link ProcessProgress} that a transport installed
 * ({@link #installProcessProgress}): after each check that finds the condition false it makes one
 * pass of that work, so that a fence, a lock or a free never blocks the messages of its process (MPI's
 * progress rule). This is the one place where waits and progress meet: a new wait
 * made through a waiter cannot forget it. The only waits that skip it are those of
 * {@link #withProgressInAttempts()}, whose attempts make that same pass themselves.
 *
 * <p><b>Learning.</b> With {@code auto} settings the waits of one waiter share a
 * {@link SpinBudget}: how each ended decides how long the next ones spin and yield.
 *
 * <p>Safe to share between threads: each wait that does not end at its first check gets its own
 * {@link BackoffIdle}, kept per thread and reused by that thread's next wait (a wait on every message of a
 * device makes no object); the budget they share tolerates racing updates.
 */
public final class Waiter
{
    /** What one {@link Attempt} found. */
    public enum Outcome
    {
        /** The condition holds: the wait is over. */
        MET,
        /** Not yet, but work was done (the backoff starts over). */
        WORKED,
        /** Nothing to do: let time pass. */
        IDLE
    }

    /** One check of a wait that also makes progress, such as a device draining its queues. */
    @FunctionalInterface
    public interface Attempt
    {
        /** Checks the condition, does what work there is, and says which. */
        Outcome attempt();
    }

    private final BackoffIdle.Settings idleSettings;
    private final Liveness liveness;
    private final long livenessIntervalNs;
    /** Whether each wait runs the installed {@link ProcessProgress} between its checks. */
    private final boolean runsProcessProgress;
    /** Each thread's wait, reused by its next one (a wait nested in another, rare, makes its own). */
    private final ThreadLocal<Wait> threadWait = new ThreadLocal<>();

    /**
     * @param idleSettings       how to let time pass.
     * @param liveness           which processes to check, and where to record a death.
     * @param livenessIntervalNs how often to check them once spinning is over.
     * @throws IllegalArgumentException if the interval is not positive.
     */
    public Waiter(final BackoffIdle.Settings idleSettings, final Liveness liveness, final long livenessIntervalNs)
    {
        this(idleSettings, liveness, livenessIntervalNs, true);
    }

    private Waiter(final BackoffIdle.Settings idleSettings, final Liveness liveness, final long livenessIntervalNs,
        final boolean runsProcessProgress)
    {
        this.runsProcessProgress = runsProcessProgress;
        this.idleSettings = Objects.requireNonNull(idleSettings, "idleSettings");
        this.liveness = Objects.requireNonNull(liveness, "liveness");
        if (livenessIntervalNs <= 0)
        {
            throw new IllegalArgumentException("livenessIntervalNs=" + livenessIntervalNs + " must be positive");
        }
        this.livenessIntervalNs = livenessIntervalNs;
    }

    /**
     * A waiter with the settings of {@code config} ({@code KUPL_SHM_WAIT_SPINS},
     * {@code KUPL_SHM_WAIT_YIELD_US}, {@code KUPL_SHM_LIVENESS_MS}) for the ranks of
     * {@code liveness}, parking for doubling periods.
     */
    public static Waiter fromConfig(final KuplConfig config, final Liveness liveness)
    {
        return new Waiter(BackoffIdle.Settings.fromConfig(config, liveness.size()), liveness,
            config.livenessIntervalNs());
    }

    /**
     * A copy that parks with {@code parker} for periods from {@code minParkNs} to
     * {@code maxParkNs}, such as a {@link Doorbell#asParker()} that peers ring; its waits learn
     * in a {@link SpinBudget} of their own.
     */
    public Waiter withParker(final Parker parker, final long minParkNs, final long maxParkNs)
    {
        return new Waiter(idleSettings.withParker(parker, minParkNs, maxParkNs), liveness, livenessIntervalNs,
            runsProcessProgress);
    }

    /**
     * A copy for the waits of the progress itself (the device's), whose {@link Attempt}s already make the
     * process's pass, under the same lock as their condition: it does not run the installed
     * {@link ProcessProgress} a second time between checks.
     */
    public Waiter withProgressInAttempts()
    {
        return new Waiter(idleSettings, liveness, livenessIntervalNs, false);
    }

    /**
     * Makes every wait of every waiter of this process drive {@code progress} from now on (see the class
     * comment), until {@link #removeProcessProgress}: a transport calls it once it can move messages. A job
     * has one per process; where several are installed (ranks as threads of one JVM) every wait drives all.
     */
    public static void installProcessProgress(final ProcessProgress progress)
    {
        InstalledProgress.install(progress);
    }

    /** Stops driving {@code progress} in waits, if it is the one installed (a transport that has finished). */
    public static void removeProcessProgress(final ProcessProgress progress)
    {
        InstalledProgress.remove(progress);
    }

    /** The liveness check it runs. */
    public Liveness liveness()
    {
        return liveness;
    }

    /** The settings of its idle strategy. */
    public BackoffIdle.Settings idleSettings()
    {
        return idleSettings;
    }

    /**
     * Returns once {@code condition} holds, checking meanwhile that every other rank is alive.
     *
     * @param what names the wait in error messages (its {@code toString} runs only on failure).
     * @throws PeerDeathException if a rank died meanwhile.
     */
    public void await(final BooleanSupplier condition, final Object what)
    {
        await(condition, Liveness.ANY_RANK, WaitGuard.NONE, what);
    }

    /**
     * Returns once {@code condition} holds, checking meanwhile that {@code peer} (or every
     * other rank) is alive and that {@code guard} does not throw.
     *
     * @param peer the rank that will make the condition true, or {@link Liveness#ANY_RANK}.
     * @throws PeerDeathException if that rank died meanwhile.
     * @throws KuplException      what {@code guard} throws.
     */
    public void await(final BooleanSupplier condition, final int peer, final WaitGuard guard, final Object what)
    {
        Objects.requireNonNull(condition, "condition");
        if (!condition.getAsBoolean())
        {
            waitOfThisThread().run(null, condition, peer, guard, what);
        }
    }

    /**
     * Returns once {@code attempt} answers {@link Outcome#MET}, checking meanwhile that every
     * other rank is alive; the backoff starts over whenever it answers {@link Outcome#WORKED}.
     *
     * @throws PeerDeathException if a rank died meanwhile.
     */
    public void await(final Attempt attempt, final Object what)
    {
        await(attempt, Liveness.ANY_RANK, WaitGuard.NONE, what);
    }

    /**
     * As {@link #await(Attempt, Object)}, checking {@code peer} (or every other rank) and
     * {@code guard} at the liveness interval.
     */
    public void await(final Attempt attempt, final int peer, final WaitGuard guard, final Object what)
    {
        Objects.requireNonNull(attempt, "attempt");
        waitOfThisThread().run(attempt, null, peer, guard, what);
    }

    private Wait waitOfThisThread()
    {
        final Wait wait = threadWait.get();
        if (wait != null && !wait.running)
        {
            return wait;
        }
        final Wait fresh = new Wait();
        if (wait == null)
        {
            threadWait.set(fresh);
        }
        return fresh;
    }

    /**
     * Returns once the word at {@code offset} is at least {@code target}. Allocates nothing if
     * the word is there at the first check.
     */
    void awaitAtLeast(final SharedWords words, final long offset, final long target, final int peer,
        final WaitGuard guard, final Object what)
    {
        // Acquire: pairs with the release (or volatile add) that raised the word; what its writer
        // did before is visible after the wait. The same holds for the loads of the condition below.
        if (words.getLongAcquire(offset) < target)
        {
            await(() -> words.getLongAcquire(offset) >= target, peer, guard, what);
        }
    }

    /** One wait at a time of one thread: its backoff, what it waits for and what its last check found. */
    private final class Wait implements BooleanSupplier
    {
        private final BackoffIdle idle = new BackoffIdle(idleSettings);
        /** What it checks: an attempt, or else a plain condition (no adapter made for one). */
        private Attempt attempt;
        private BooleanSupplier condition;
        private int peer;
        private WaitGuard guard;
        private Object what;
        private Outcome last;
        /** Whether a wait is using it now. */
        boolean running;

        void run(final Attempt attempt, final BooleanSupplier condition, final int peer, final WaitGuard guard,
            final Object what)
        {
            this.guard = Objects.requireNonNull(guard, "guard");
            if (peer != Liveness.ANY_RANK)
            {
                liveness.identity(peer);
            }
            this.attempt = attempt;
            this.condition = condition;
            this.peer = peer;
            this.what = what;
            this.last = Outcome.IDLE;
            running = true;
            try
            {
                run();
            }
            finally
            {
                // Nothing the wait was given outlives it.
                this.attempt = null;
                this.condition = null;
                this.guard = null;
                this.what = null;
                running = false;
            }
        }

        private void run()
        {
            boolean timing = false;
            long startNs = 0;
            long nextCheckNs = 0;
            // A death already recorded (by a waiter or a DeathWatch of any process) ends the wait at once: one load.
            liveness.checkRecorded(what, 0);
            try
            {
                while (true)
                {
                    if (last == Outcome.IDLE)
                    {
                        last = check();
                    }
                    if (last == Outcome.MET)
                    {
                        return;
                    }
                    if (last == Outcome.WORKED)
                    {
                        // Work that never stops (other ranks' messages) keeps the backoff spinning, short of the
                        // timed check below: the record is read here instead, so a recorded death still ends it.
                        if (liveness.deathRecorded())
                        {
                            liveness.checkRecorded(what, timing ? System.nanoTime() - startNs : 0);
                        }
                        idle.reset();
                        last = Outcome.IDLE;
                        continue;
                    }
                    idle.idle(this);
                    if (idle.state() == BackoffIdle.State.SPINNING)
                    {
                        continue;
                    }
                    // Past spinning: time the wait, and check the processes at the interval.
                    final long nowNs = System.nanoTime();
                    if (!timing)
                    {
                        timing = true;
                        startNs = nowNs;
                        nextCheckNs = nowNs + livenessIntervalNs;
                    }
                    else if (nowNs - nextCheckNs >= 0)
                    {
                        nextCheckNs = nowNs + livenessIntervalNs;
                        try
                        {
                            liveness.check(peer, what, nowNs - startNs);
                        }
                        catch (final PeerDeathException death)
                        {
                            // A peer may make the condition true and then exit while this wait
                            // parks: what it did before it went counts, so look once more.
                            last = attemptOnce();
                            if (last == Outcome.IDLE)
                            {
                                throw death;
                            }
                            continue;
                        }
                        guard.check(what, nowNs - startNs);
                    }
                }
            }
            finally
            {
                idle.reset();
            }
        }

        /**
         * The check a {@link Parker} that can be woken makes after announcing itself; its
         * answer counts as the loop's next check (a condition that takes something must not
         * run twice for one success).
         */
        @Override
        public boolean getAsBoolean()
        {
            last = check();
            return last != Outcome.IDLE;
        }

        /** The caller's attempt, then, if it found nothing to do, one pass of the process's progress. */
        private Outcome check()
        {
            final Outcome outcome = attemptOnce();
            if (outcome != Outcome.IDLE || !runsProcessProgress)
            {
                return outcome;
            }
            final ProcessProgress progress = InstalledProgress.current();
            try
            {
                return progress.makeProgress() ? Outcome.WORKED : Outcome.IDLE;
            }
            catch (final RuntimeException e)
            {
                // The engine's waits fail with its own exception; a death behind the transport's stays in the chain.
                throw new KuplException("waiting for " + what + ": the process's messages (" + progress +
                    ") failed: " + e.getMessage(), e);
            }
        }

        private Outcome attemptOnce()
        {
            return attempt != null ? attempt.attempt() : condition.getAsBoolean() ? Outcome.MET : Outcome.IDLE;
        }

        @Override
        public String toString()
        {
            return String.valueOf(what);
        }
    }
}
