package kupl;

import java.lang.invoke.VarHandle;

/**
 * {@code KUPL_SHM_FENCE_ALGORITHM=2}: recursive doubling over the steps of a
 * {@link RecursiveDoublingSchedule}. A signal is a release store of the epoch into the
 * partner's flag; a wait is an acquire load of one's own flag until it reaches the epoch.
 * After log2(P) rounds every process has (transitively) heard from every other, so the
 * release/acquire chain makes all pre-fence writes visible to all. No shared hot spot.
 *
 * <p><b>More processes than cores.</b> Then waiters yield instead of spinning, and every
 * round costs one pass of the scheduler over the run queue: log2(N) passes where the linear
 * fence needs about two (the fence rows of {@code bench.engine.EngineBenchmark}, {@code bin/bench-engine},
 * with 4 and 8 processes on 2 cores show the difference). So in that case each process also adds itself to the
 * window's arrival counter on entry, and a waiter that finds it at {@code epoch * ranks}
 * leaves at once: every process has entered the fence, and its sequentially consistent add
 * came after its pre-fence writes. Signals it skips are harmless, since flags hold epochs
 * that only grow. With a core per process the counter is not touched.
 */
final class RecursiveDoublingFence implements Fence
{
    private final RecursiveDoublingSchedule schedule;
    private final SharedWords words;
    private final Waiter waiter;
    private final WaitGuard guard;
    private final int ranks;
    private final boolean countArrivals;
    private long epoch;

    /**
     * @param countArrivals use the arrival counter too; every process of the window must pass
     *                      the same value, or the counter would reach a fence's total early.
     */
    RecursiveDoublingFence(final RecursiveDoublingSchedule schedule, final int ranks, final boolean countArrivals,
        final SharedWords words, final Waiter waiter, final FreeBarrier freeBarrier)
    {
        this.schedule = schedule;
        this.ranks = ranks;
        this.countArrivals = countArrivals;
        this.words = words;
        this.waiter = waiter;
        this.guard = (what, waitedNs) -> freeBarrier.checkFenceCanComplete(epoch, what);
    }

    @Override
    public void await()
    {
        final long epoch = ++this.epoch;
        final RecursiveDoublingSchedule schedule = this.schedule;
        // Orders this process's pre-fence loads and stores before its first signal (or add).
        VarHandle.fullFence();
        // Volatile add: sequentially consistent, so the last adder reads every earlier add and the
        // pre-fence writes that preceded it; the waiters' shortcut loads pair with it too.
        if (countArrivals && words.getAndAddLong(ControlDescriptor.ARRIVALS_OFFSET, 1) + 1 == epoch * ranks)
        {
            // The last to arrive: everyone is in the fence, and their adds made their writes visible.
            return;
        }
        for (int step = 0, steps = schedule.stepCount(); step < steps; step++)
        {
            if (!schedule.isWait(step))
            {
                // Release: publishes what this process wrote and what it learnt in earlier rounds
                // (acquired from its own flags) to the partner's acquire load of this flag.
                words.putLongRelease(schedule.flagOffset(step), epoch);
            }
            else if (!countArrivals)
            {
                // Any dead rank blocks the fence, also one this process only waits for through its
                // partner (which stays alive, waiting), so the liveness check covers every rank.
                waiter.awaitAtLeast(words, schedule.flagOffset(step), epoch, Liveness.ANY_RANK, guard, this);
            }
            else if (awaitFlagOrEveryArrival(schedule.flagOffset(step), epoch))
            {
                return;
            }
        }
    }

    /**
     * Waits for the flag at {@code offset} to reach {@code epoch}, or for every process to have
     * entered the fence (the arrival counter at {@code epoch * ranks}).
     *
     * @return true if every process has entered: the fence is complete.
     */
    private boolean awaitFlagOrEveryArrival(final long offset, final long epoch)
    {
        final long everyArrival = epoch * ranks;
        // Acquire loads of both words: pair with the partner's release of the flag and with the
        // volatile adds of the counter, whose writers' pre-fence writes are then visible.
        if (words.getLongAcquire(offset) < epoch)
        {
            waiter.await(() -> words.getLongAcquire(offset) >= epoch ||
                words.getLongAcquire(ControlDescriptor.ARRIVALS_OFFSET) >= everyArrival,
                Liveness.ANY_RANK, guard, this);
        }
        return words.getLongAcquire(ControlDescriptor.ARRIVALS_OFFSET) >= everyArrival;
    }

    @Override
    public long epoch()
    {
        return epoch;
    }

    @Override
    public String toString()
    {
        return "rd fence #" + epoch;
    }
}
