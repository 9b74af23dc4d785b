package kupl;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The last step of {@link BackoffIdle}: how a thread that has spun and yielded long enough
 * lets time pass. {@link #timed()} parks for the given period; a {@link Doorbell}'s
 * {@link Doorbell#asParker()} sleeps until a peer rings it, so that the sleeper wakes at once
 * when there is something for it.
 *
 * <p>A park may return early or for no reason at all ({@link LockSupport}'s rule): the caller
 * always re-checks what it waits for afterwards.
 */
@FunctionalInterface
public interface Parker
{
    /**
     * Lets at most {@code maxNs} pass.
     *
     * @param blocker what the thread waits in, for thread dumps ({@link LockSupport#getBlocker}).
     * @param maxNs   the longest the thread may sleep.
     * @param ready   re-checked by a parker that can be woken, after it has announced that it
     *                will sleep and before it sleeps, so that a wake-up given in between is not
     *                lost; true means "do not sleep". A timed parker does not call it. The
     *                caller counts a true answer as the result of its own check.
     */
    void park(Object blocker, long maxNs, BooleanSupplier ready);

    /** Parks for the period ({@link LockSupport#parkNanos(Object, long)}); never calls {@code ready}. */
    static Parker timed()
    {
        return (blocker, maxNs, ready) -> LockSupport.parkNanos(blocker, maxNs);
    }
}
