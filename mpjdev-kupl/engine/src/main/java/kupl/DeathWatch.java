package kupl;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Checks, from a daemon thread of this process, at the liveness interval, that the ranks of a
 * {@link Liveness} are alive, and records the first one found dead in its {@link DeadRankRecord}.
 *
 * <p>Waits check liveness themselves ({@link Waiter}), but a process that never waits long never
 * checks: an uncontended lock is taken at once, and an accumulate into a dead rank's segment is a
 * store that succeeds. Such calls read the record instead ({@link Liveness#checkRecorded}, one load), and
 * this watch is what fills it within one interval of a death, whatever the process is doing. The
 * record is shared memory: every process of the window learns of the death from the first watch (or
 * waiter) that finds it.
 *
 * <p>One thread serves every watch of the process, so its cost is one pass over each watched rank's
 * {@code /proc} entry per interval; it never delays the process's calls, which only read the record.
 */
public final class DeathWatch implements AutoCloseable
{
    /** The one thread of the process that runs every watch; made with the first watch, a daemon. */
    private static final class Scheduler
    {
        static final ScheduledThreadPoolExecutor EXECUTOR = create();

        private static ScheduledThreadPoolExecutor create()
        {
            final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task ->
                Thread.ofPlatform().daemon().name("kupl death watch").unstarted(task));
            // A closed watch leaves no task behind: programs that make and free windows in a loop make one each.
            executor.setRemoveOnCancelPolicy(true);
            return executor;
        }
    }

    /** Every watch of the process that is not closed, in the order they started. */
    private static final Set<DeathWatch> ACTIVE = Collections.synchronizedSet(new LinkedHashSet<>());

    private final Liveness liveness;
    /** Guarded by this: the periodic check, set by {@link #start} before the check can run. */
    private ScheduledFuture<?> task;
    /** Guarded by this: once set, the task touches the record no more (its memory may then be unmapped). */
    private boolean closed;

    private DeathWatch(final Liveness liveness)
    {
        this.liveness = liveness;
    }

    /**
     * Starts watching the ranks of {@code liveness} every {@code intervalNs}, until {@link #close()}.
     *
     * @throws IllegalArgumentException if the interval is not positive.
     */
    public static DeathWatch start(final Liveness liveness, final long intervalNs)
    {
        Objects.requireNonNull(liveness, "liveness");
        if (intervalNs <= 0)
        {
            throw new IllegalArgumentException("intervalNs=" + intervalNs + " must be positive");
        }
        final DeathWatch watch = new DeathWatch(liveness);
        // Under the watch's lock, which each check and close() take: the first check sees its task, and a close
        // racing with the start leaves nothing in the set.
        synchronized (watch)
        {
            ACTIVE.add(watch);
            watch.task = Scheduler.EXECUTOR.scheduleWithFixedDelay(watch::check, intervalNs, intervalNs,
                TimeUnit.NANOSECONDS);
        }
        return watch;
    }

    private synchronized void check()
    {
        if (closed)
        {
            return;
        }
        try
        {
            if (liveness.recordAnyDeath(DeathWatch::deathsRecordedElsewhere) >= 0)
            {
                // Recorded for good: nothing more to find (the record stays readable by the process's other watches).
                task.cancel(false);
            }
        }
        catch (final RuntimeException e)
        {
            // A record whose memory went away under a watch its owner forgot to close: the watch has nothing to do.
            ACTIVE.remove(this);
            task.cancel(false);
        }
    }

    /**
     * The deaths the records of this process's other watches name (the device's, the other windows'): shared
     * memory, so they hold the first death any process of the job found, which is the one to name here too.
     * Read on the watches' one thread only, each under its lock, so that none reads memory its owner released.
     */
    private static Set<ProcessIdentity> deathsRecordedElsewhere()
    {
        final List<DeathWatch> watches;
        synchronized (ACTIVE)
        {
            // A copy: each watch's lock is taken below, and close() takes that lock before the set's.
            watches = List.copyOf(ACTIVE);
        }
        final Set<ProcessIdentity> deaths = new LinkedHashSet<>();
        for (final DeathWatch other : watches)
        {
            synchronized (other)
            {
                final ProcessIdentity death = other.closed ? null : other.liveness.recordedDeath();
                if (death != null)
                {
                    deaths.add(death);
                }
            }
        }
        return deaths;
    }

    /**
     * Stops the watch; when it returns, the watch reads and writes the record no more, so its memory may be
     * released. Idempotent.
     */
    @Override
    public synchronized void close()
    {
        closed = true;
        ACTIVE.remove(this);
        task.cancel(false);
    }

    @Override
    public String toString()
    {
        return "DeathWatch[" + liveness + "]";
    }
}
