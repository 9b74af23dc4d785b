package kupl;

import java.lang.invoke.VarHandle;

/**
 * {@code KUPL_SHM_FENCE_ALGORITHM=2}: recursive doubling over the steps of a
 * {@link RecursiveDoublingSchedule}. A signal is a release store of the epoch into the
 * partner's flag; a wait is an acquire load of one's own flag until it reaches the epoch.
 * After log2(P) rounds every process has (transitively) heard from every other, so the
 * release/acquire chain makes all pre-fence writes visible to all. No shared hot spot.
 */
final class RecursiveDoublingFence implements Fence
{
    private final RecursiveDoublingSchedule schedule;
    private final SharedWords words;
    private final BackoffWaiter waiter;
    private long epoch;

    RecursiveDoublingFence(final RecursiveDoublingSchedule schedule, final SharedWords words,
        final BackoffWaiter waiter)
    {
        this.schedule = schedule;
        this.words = words;
        this.waiter = waiter;
    }

    @Override
    public void await()
    {
        final long epoch = ++this.epoch;
        final RecursiveDoublingSchedule schedule = this.schedule;
        VarHandle.fullFence();
        for (int step = 0, steps = schedule.stepCount(); step < steps; step++)
        {
            if (schedule.isWait(step))
            {
                // Any dead rank blocks the fence, also one this process only waits for through its
                // partner (which stays alive, waiting), so the liveness check covers every rank.
                waiter.awaitAtLeast(schedule.flagOffset(step), epoch, PeerLiveness.ANY_RANK, this);
            }
            else
            {
                words.putLongRelease(schedule.flagOffset(step), epoch);
            }
        }
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
