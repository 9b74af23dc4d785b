package kupl;

/**
 * How much of its spin and yield allowance a wait uses before it parks, learned from how the
 * recent waits of the same {@link Waiter} ended (HotSpot's adaptive spinning for monitors, with
 * levels instead of counts).
 *
 * <p><b>Why.</b> Busy waiting (spinning, then yielding) answers within a cache-line transfer,
 * but only pays for a wait that ends before parking and being woken would have cost (tens to
 * hundreds of microseconds). A wait that outlasts it has burnt a core for nothing, and on a
 * machine with more runnable threads than cores it took that core from the process it waits
 * for: two ranks on two busy cores, one computing and one yielding for 2 ms at every wait,
 * run slower than two ranks that sleep at once. Counting cores cannot see that load; how the
 * waits end can.
 *
 * <p><b>State.</b> Two levels, one per phase: the spin level and the yield level, each from
 * {@code 0} (use all of the allowance: {@link BackoffIdle.Settings#spins()} spins,
 * {@link BackoffIdle.Settings#yieldNs()} of yielding) to {@link #OFF} (none); at level
 * {@code k} a wait uses the allowance shifted right by {@code k} (a half, a quarter, ...).
 * Each wait that idled reports the phase it ended in ({@link #waitEnded}):
 * <table>
 *   <caption>Transitions</caption>
 *   <tr><th>ended while</th><th>spin level</th><th>yield level</th><th>why</th></tr>
 *   <tr><td>spinning</td><td>one down</td><td>kept</td><td>spinning paid</td></tr>
 *   <tr><td>yielding or parking, within {@link #SHORT_WAIT_NS} of spinning's end</td><td>one down</td>
 *       <td>one down</td><td>a little more busy waiting would have ended it (or did) without a wake-up</td></tr>
 *   <tr><td>yielding, later</td><td>kept</td><td>one down</td><td>yielding paid</td></tr>
 *   <tr><td>parking, later</td><td>{@link #PENALTY_LEVELS} up</td><td>{@link #PENALTY_LEVELS} up</td>
 *       <td>the busy phase was wasted, and may have slowed the peer</td></tr>
 * </table>
 * Shrinking is faster than growing, so that a mix of short and long waits (a collective that
 * waits on a slow rank between quick barriers) settles on little busy waiting, while a run of
 * short waits (ping-pong, barrier loops on an idle machine) climbs back to the whole allowance
 * within a few waits. A phase whose allowance was set explicitly ({@code KUPL_SHM_WAIT_SPINS=n},
 * {@code KUPL_SHM_WAIT_YIELD_US=n}) is fixed at level 0 and does not learn.
 *
 * <p><b>Threads.</b> Shared by the threads that wait through one {@link Waiter}. Levels are
 * read and written without locks: two waits that end together may lose one update, which only
 * delays the adaptation by one wait.
 */
public final class SpinBudget
{
    /** The level at which a phase is skipped. */
    public static final int OFF = 6;
    /** Levels a wasted busy phase costs; recovery is one level per wait that paid. */
    public static final int PENALTY_LEVELS = 2;
    /**
     * A parked wait that ended within this much of the end of spinning was short: about what
     * parking and being woken cost (a timed park wakes 50 us late; a doorbell's wake-up costs
     * tens of microseconds).
     */
    public static final long SHORT_WAIT_NS = 100_000;

    private final boolean adaptiveSpins;
    private final boolean adaptiveYield;
    private volatile int spinLevel;
    private volatile int yieldLevel;

    private SpinBudget(final boolean adaptiveSpins, final boolean adaptiveYield)
    {
        this.adaptiveSpins = adaptiveSpins;
        this.adaptiveYield = adaptiveYield;
    }

    /** A budget that always uses the whole allowance (explicit settings). */
    public static SpinBudget fixed()
    {
        return new SpinBudget(false, false);
    }

    /**
     * A budget that learns the phases marked adaptive and uses the whole allowance of the others;
     * the adaptive ones start at level 0 (a fresh job spins as before until its waits say otherwise).
     */
    public static SpinBudget adaptive(final boolean spins, final boolean yield)
    {
        return new SpinBudget(spins, yield);
    }

    /** A budget of the same kind, at level 0: for a waiter that parks differently and learns on its own. */
    public SpinBudget fresh()
    {
        return new SpinBudget(adaptiveSpins, adaptiveYield);
    }

    /** Whether it learns at all. */
    public boolean adaptive()
    {
        return adaptiveSpins || adaptiveYield;
    }

    /** Spins the next wait makes, of an allowance of {@code maxSpins}. */
    public int spins(final int maxSpins)
    {
        final int level = spinLevel;
        return level >= OFF ? 0 : maxSpins >> level;
    }

    /** Nanoseconds the next wait yields, of an allowance of {@code maxYieldNs}. */
    public long yieldNs(final long maxYieldNs)
    {
        final int level = yieldLevel;
        return level >= OFF ? 0 : maxYieldNs >> level;
    }

    /** The spin level: 0 (all of the allowance) to {@link #OFF}. */
    public int spinLevel()
    {
        return spinLevel;
    }

    /** The yield level: 0 (all of the allowance) to {@link #OFF}. */
    public int yieldLevel()
    {
        return yieldLevel;
    }

    /**
     * Learns from one wait (one backoff, from its first idle call to its reset).
     *
     * @param endedIn        the state it was in when it ended: {@link BackoffIdle.State#SPINNING},
     *                       {@link BackoffIdle.State#YIELDING} or {@link BackoffIdle.State#PARKING}
     *                       ({@link BackoffIdle.State#NOT_IDLE}, a wait that never idled, teaches nothing).
     * @param pastSpinningNs for yielding and parking: how long it lasted after spinning ended.
     */
    public void waitEnded(final BackoffIdle.State endedIn, final long pastSpinningNs)
    {
        switch (endedIn)
        {
            case NOT_IDLE -> { }
            case SPINNING -> moveSpinLevel(-1);
            case YIELDING, PARKING ->
            {
                if (pastSpinningNs < SHORT_WAIT_NS)
                {
                    moveSpinLevel(-1);
                    moveYieldLevel(-1);
                }
                else if (endedIn == BackoffIdle.State.YIELDING)
                {
                    moveYieldLevel(-1);
                }
                else
                {
                    moveSpinLevel(PENALTY_LEVELS);
                    moveYieldLevel(PENALTY_LEVELS);
                }
            }
        }
    }

    // Written only when the level changes: the common case (a quick wait at level 0) stores nothing.
    private void moveSpinLevel(final int step)
    {
        final int level = spinLevel;
        final int moved = adaptiveSpins ? Math.clamp(level + step, 0, OFF) : level;
        if (moved != level)
        {
            spinLevel = moved;
        }
    }

    private void moveYieldLevel(final int step)
    {
        final int level = yieldLevel;
        final int moved = adaptiveYield ? Math.clamp(level + step, 0, OFF) : level;
        if (moved != level)
        {
            yieldLevel = moved;
        }
    }

    @Override
    public String toString()
    {
        return "SpinBudget[spin level " + (adaptiveSpins ? spinLevel : "fixed") + ", yield level " +
            (adaptiveYield ? yieldLevel : "fixed") + " of " + OFF + "]";
    }
}
