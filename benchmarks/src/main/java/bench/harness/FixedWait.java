package bench.harness;

import java.util.Map;

import kupl.BackoffIdle;

/**
 * The waiting of the engine before {@code auto} learned ({@code kupl.SpinBudget}): the whole spin
 * allowance while the ranks do not outnumber the cores (none when they do) and 2 ms of yielding at
 * every wait, given as explicit settings, which are used whole. A benchmark column with this
 * environment runs the earlier policy beside the current one in the same run.
 */
public final class FixedWait
{
    /** The column's name in the benchmarks' tables. */
    public static final String COLUMN = "shm fixed wait";

    private FixedWait()
    {
    }

    /** The job environment that fixes the waiting of {@code processes} ranks on this machine. */
    public static Map<String, String> environment(final int processes)
    {
        return Map.of(
            "KUPL_SHM_WAIT_SPINS", Integer.toString(BackoffIdle.Settings.autoSpins(processes,
                Runtime.getRuntime().availableProcessors())),
            "KUPL_SHM_WAIT_YIELD_US", Long.toString(BackoffIdle.Settings.AUTO_YIELD_NS / 1_000));
    }

    /** How the column is made, for the tables' legends. */
    public static String describe()
    {
        return "KUPL_SHM_WAIT_SPINS=" + BackoffIdle.Settings.AUTO_SPINS + " (0 when ranks outnumber cores) " +
            "KUPL_SHM_WAIT_YIELD_US=" + BackoffIdle.Settings.AUTO_YIELD_NS / 1_000 + ", the waiting before it adapted";
    }
}
