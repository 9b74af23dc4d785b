package bench.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import bench.apps.Kernels;
import bench.device.DeviceRank;
import bench.harness.Stat;
import bench.report.Ratio;
import bench.report.Target;
import mpjrun.DeviceName;

/**
 * One row of {@link ClusterBenchmark}: what is measured, by which ranks of a {@link ClusterShape}, in which
 * unit (and the scale from the rank's figure to it), and the goal the cluster-mode {@code shm} column is
 * judged against. A row is either a {@link DeviceRank} part ({@code kind} and {@code amount}: bytes, or doubles
 * for Allreduce) or an application kernel of {@code bench.apps}.
 *
 * @param option the name {@code --only} selects it by (a ping-pong's two rows share one).
 * @param what   the measurement in words, without where it runs.
 * @param scope  which ranks take part.
 * @param kind   the {@link DeviceRank} part's first word ({@code pingpong}, {@code barrier}, ...); null for a kernel.
 * @param amount the part's size (bytes; doubles for Allreduce); 0 for none.
 * @param kernel the application kernel, or null for a {@link DeviceRank} part.
 * @param unit   {@code us}, {@code GB/s} or {@code s}.
 * @param scale  from the rank's figure (ns, GB/s, ms) to {@code unit}.
 * @param goal   what the shm column should meet.
 */
record ClusterRow(String option, String what, Scope scope, String kind, int amount, Kernels kernel, String unit,
    double scale, Goal goal)
{
    /** The column of the reference: {@code -dev shm} with a node's ranks on one node, no cluster. */
    static final String REFERENCE = "-dev shm, one node";
    private static final String NIODEV = DeviceName.NIODEV.text();
    private static final String HYBDEV = DeviceName.HYBDEV.text();
    /** The column the goals judge: the cluster-mode shm device. */
    static final String JUDGED = DeviceName.SHM.text();

    /** Which ranks a row's figure comes from. */
    enum Scope
    {
        /** Ranks 0 and 1, both on node 1. */
        WITHIN_NODE,
        /** Rank 0 on node 1 and the first rank of node 2. */
        ACROSS_NODES,
        /** Every rank of the job; the slowest rank's figure counts for each repetition. */
        WHOLE_JOB
    }

    /** shm's figure should be at most {@code bound} times {@code reference}'s column (as times). */
    record Comparison(String reference, double bound)
    {
        Target target()
        {
            return Target.atMost(bound);
        }
    }

    /** The goal of a row, as the comparisons of the shm column it takes. */
    enum Goal
    {
        /** No target. */
        NONE(List.of()),
        /** Within 1.5x of {@code -dev shm} on one node. */
        WITHIN_NODE(List.of(new Comparison(REFERENCE, 1.5))),
        /** At least 3x faster than niodev, and faster than hybdev. */
        COLLECTIVE(List.of(new Comparison(NIODEV, 1 / 3.0), new Comparison(HYBDEV, 1))),
        /** At least as fast as niodev and as hybdev. */
        APPLICATION(List.of(new Comparison(NIODEV, 1), new Comparison(HYBDEV, 1)));

        private final List<Comparison> comparisons;

        Goal(final List<Comparison> comparisons)
        {
            this.comparisons = comparisons;
        }

        List<Comparison> comparisons()
        {
            return comparisons;
        }
    }

    /**
     * A row's target cells and the chart bars behind them.
     *
     * @param target what shm should meet, e.g. {@code "<= 0.333x niodev; <= 1x hybdev"}; empty without a goal.
     * @param ratio  shm's ratio to each reference that was measured, e.g. {@code "0.25x niodev"}.
     * @param met    {@code yes} / {@code NO} per comparison, or {@code not measured: <reason>}.
     * @param bars   one ratio per comparison whose columns both ran (a failed one is a bar that misses).
     */
    record Verdict(String target, String ratio, String met, List<Ratio> bars)
    {
    }

    ClusterRow
    {
        Objects.requireNonNull(option, "option");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(goal, "goal");
        if ((kind == null) == (kernel == null))
        {
            throw new IllegalArgumentException("a row is a DeviceRank part or a kernel: " + kind + ", " + kernel);
        }
    }

    /** A row of two ranks, within a node or across nodes. */
    static ClusterRow pair(final String option, final String what, final Scope scope, final String kind,
        final int bytes, final String unit, final double scale, final Goal goal)
    {
        if (scope == Scope.WHOLE_JOB)
        {
            throw new IllegalArgumentException("a pair's row is within a node or across nodes");
        }
        return new ClusterRow(option, what, scope, kind, bytes, null, unit, scale, goal);
    }

    /** A collective on every rank of the job. */
    static ClusterRow collective(final String option, final String what, final String kind, final int amount,
        final String unit, final double scale, final Goal goal)
    {
        return new ClusterRow(option, what, Scope.WHOLE_JOB, kind, amount, null, unit, scale, goal);
    }

    /** An application kernel on every rank of the job, seconds per run. */
    static ClusterRow kernel(final Kernels kernel)
    {
        return new ClusterRow(kernel.shortName(), kernel.name(), Scope.WHOLE_JOB, null, 0, kernel, "s", 1e-3,
            Goal.APPLICATION);
    }

    boolean isKernel()
    {
        return kernel != null;
    }

    /** Whether a larger figure is better (a rate), rather than a smaller one (a time). */
    boolean isRate()
    {
        return unit.equals("GB/s");
    }

    /** The {@link DeviceRank} part of this row in a job of {@code shape}, e.g. {@code pingpong:8:0-2}. */
    String part(final ClusterShape shape)
    {
        if (isKernel())
        {
            throw new IllegalStateException(what + " is a kernel, not a DeviceRank part");
        }
        return switch (scope)
        {
            case WITHIN_NODE -> new DeviceRank.Pair(0, 1).part(kind, amount);
            case ACROSS_NODES -> new DeviceRank.Pair(0, shape.firstRankOf(2)).part(kind, amount);
            case WHOLE_JOB -> amount == 0 ? kind : kind + ":" + amount;
        };
    }

    /** The kernel's problem size in a run with or without {@code --quick}. */
    int kernelSize(final boolean quick)
    {
        return quick ? kernel.quickSize() : kernel.fullSize();
    }

    /** The row's first cell, e.g. {@code "ping-pong half round trip 8 B, across nodes (ranks 0-2), us"}. */
    String label(final ClusterShape shape, final boolean quick)
    {
        return name(shape, quick) + ", " + unit;
    }

    /** What the row measures and where, without the unit, e.g. {@code "Barrier, 4 ranks"}. */
    String name(final ClusterShape shape, final boolean quick)
    {
        final String where = switch (scope)
        {
            case WITHIN_NODE -> ", within a node (ranks 0-1)";
            case ACROSS_NODES -> ", across nodes (ranks 0-" + shape.firstRankOf(2) + ")";
            case WHOLE_JOB -> isKernel() ? "" : ", " + shape.processes() + " ranks";
        };
        return (isKernel() ? kernel.describe(kernelSize(quick)) : what) + where;
    }

    /**
     * Judges the shm column against the row's goal.
     *
     * @param barLabel how the chart names this row's bars (the shape is added by the caller).
     * @param medians  each column's median in the row's unit; NaN (or absent) where a column ran without a figure.
     * @param notRun   why a column was not run, for each column that was not.
     */
    Verdict verdict(final String barLabel, final Map<String, Double> medians, final Map<String, String> notRun)
    {
        if (goal == Goal.NONE)
        {
            return new Verdict("", "", "", List.of());
        }
        final List<String> targets = new ArrayList<>();
        for (final Comparison comparison : goal.comparisons())
        {
            targets.add(comparison.target().describe() + " " + comparison.reference());
        }
        final String target = String.join("; ", targets);
        if (notRun.containsKey(JUDGED))
        {
            return new Verdict(target, "", "not measured: " + notRun.get(JUDGED), List.of());
        }
        final boolean several = goal.comparisons().size() > 1;
        final List<String> ratios = new ArrayList<>();
        final List<String> met = new ArrayList<>();
        final List<Ratio> bars = new ArrayList<>();
        for (final Comparison comparison : goal.comparisons())
        {
            final String name = several ? comparison.reference() + ": " : "";
            final String why = notRun.get(comparison.reference());
            if (why != null)
            {
                met.add(name + "not measured: " + why);
                continue;
            }
            final double ours = medians.getOrDefault(JUDGED, Double.NaN);
            final double theirs = medians.getOrDefault(comparison.reference(), Double.NaN);
            final String label = barLabel + " against " + comparison.reference();
            final Ratio ratio = (isRate() ? Ratio.ofRatesAsTimes(label, ours, theirs, unit) :
                Ratio.of(label, ours, theirs, unit)).against(comparison.target());
            bars.add(ratio);
            ratios.add(ratio.text() + (several ? " " + comparison.reference() : ""));
            met.add(name + ratio.metText());
        }
        return new Verdict(target, String.join("; ", ratios), String.join("; ", met), bars);
    }

    /** "median (min-max)" as the table prints it: rates and times under 10 with two decimals. */
    String cell(final Stat stat)
    {
        if (stat == null)
        {
            return "n/a";
        }
        final boolean fine = isRate() || isKernel() || stat.median() * scale < 10;
        return stat.format(isKernel() ? "%.3f" : fine ? "%.2f" : "%,.1f", scale);
    }
}
