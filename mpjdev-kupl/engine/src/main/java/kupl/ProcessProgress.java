package kupl;

/**
 * Work that a process must go on doing while any of its threads waits, whatever it waits for: MPI's
 * progress rule (MPI-4.1 section 3.5, "Progress"), which requires a pending send to complete once its
 * matching receive is posted, whatever call its process is blocked in. A transport with no thread of its
 * own (the shm device, which moves a large message only when one of its process's threads drives it)
 * installs its work with {@link Waiter#installProcessProgress}; from then on every wait of every
 * {@link Waiter} of the process (fences, flag rounds, locks, frees) runs it between the checks of its
 * condition.
 *
 * <p>Such a wait still parks as it always did, for doubling periods of at most
 * {@link BackoffIdle.Settings#MAX_PARK_NS}, not on the transport's doorbell: a doorbell lives in the
 * transport's shared memory, which the transport frees at its finish, and a sleeper inside that memory
 * would keep the free from completing. Parking comes only after spinning and yielding, through which the
 * pass runs at every check; and every pass that does work starts the backoff over.
 *
 * <p>Implementations are called from any thread that waits, possibly several at once, and must not wait
 * themselves: one pass over what there is to do, then return.
 */
public interface ProcessProgress
{
    /** No work of the process's own: waits check their condition and park for the period. */
    ProcessProgress NONE = new ProcessProgress()
    {
        @Override
        public boolean makeProgress()
        {
            return false;
        }

        @Override
        public String toString()
        {
            return "no process progress";
        }
    };

    /**
     * Does one pass of the process's work without waiting.
     *
     * @return whether anything was done (a waiter then checks its condition again at once).
     * @throws RuntimeException if the work failed for good (the waiter gives up, with this as the cause).
     */
    boolean makeProgress();
}
