package bench.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import bench.apps.KernelRank;
import bench.device.DeviceRank;
import bench.harness.Samples;
import bench.harness.Stat;
import bench.report.Ratio;
import bench.report.Table;
import mpjrun.JobResult;

/**
 * The table of one {@link ClusterShape} of {@link ClusterBenchmark}, built from what its jobs printed: a row per
 * {@link ClusterRow}, a column per device of {@link ClusterOptions#DEVICES}, the reference ({@code -dev shm} on one
 * node, for the rows within a node), and the shm column's target, ratio and verdict ({@link ClusterRow#verdict}).
 */
final class ClusterTable
{
    /**
     * One column's job of one shape: what it printed (null if it could not start) and whether it succeeded, or
     * why it was not run.
     */
    record Column(String output, boolean succeeded, String notRun)
    {
        static Column ran(final JobResult result)
        {
            return new Column(result.output(), result.succeeded(), null);
        }

        static Column failedToStart()
        {
            return new Column(null, false, null);
        }

        static Column notRun(final String why)
        {
            return new Column(null, false, why);
        }
    }

    /** What the jobs of one shape gave: the DeviceRank job and the kernels' job per device, and the reference. */
    record Results(ClusterShape shape, Map<String, Column> parts, Map<String, Column> kernels, Column reference)
    {
    }

    private ClusterTable()
    {
    }

    /**
     * The table of one shape: a row per {@code rows}, a column per device, the reference, and the shm column's
     * target, ratio and verdict; adds each row's bars to {@code bars} by goal.
     */
    static Table table(final Results results, final List<ClusterRow> rows, final boolean quick,
        final Map<ClusterRow.Goal, List<Ratio>> bars)
    {
        final ClusterShape shape = results.shape();
        final List<String> header = new ArrayList<>(List.of("measurement"));
        header.addAll(ClusterOptions.DEVICES);
        header.addAll(List.of(ClusterRow.REFERENCE, "target (shm)", "shm ratio", "met"));
        final Table table = new Table(header);
        for (final ClusterRow row : rows)
        {
            final Map<String, Column> jobs = row.isKernel() ? results.kernels() : results.parts();
            final List<String> cells = new ArrayList<>(List.of(row.label(shape, quick)));
            final Map<String, Double> medians = new HashMap<>();
            final Map<String, String> notRun = new HashMap<>();
            for (final String device : ClusterOptions.DEVICES)
            {
                final Column job = jobs.getOrDefault(device, Column.notRun(ClusterBenchmark.NOT_SELECTED));
                cells.add(cell(row, shape, quick, device, job, medians, notRun));
            }
            cells.add(row.scope() != ClusterRow.Scope.WITHIN_NODE ? "" :
                cell(row, shape, quick, ClusterRow.REFERENCE, results.reference(), medians, notRun));
            final ClusterRow.Verdict verdict = row.verdict(row.name(shape, quick) + " (" + shape.label() + ")",
                medians, notRun);
            bars.computeIfAbsent(row.goal(), goal -> new ArrayList<>()).addAll(verdict.bars());
            cells.addAll(List.of(verdict.target(), verdict.ratio(), verdict.met()));
            table.row(cells);
        }
        return table;
    }

    private static String cell(final ClusterRow row, final ClusterShape shape, final boolean quick,
        final String column, final Column job, final Map<String, Double> medians, final Map<String, String> notRun)
    {
        if (job.notRun() != null)
        {
            notRun.put(column, job.notRun());
            return "not run";
        }
        final Stat stat = stat(row, shape, quick, job.output());
        medians.put(column, stat == null ? Double.NaN : stat.median() * row.scale());
        return row.cell(stat);
    }

    /** The row's figures in {@code output}, or null where it has none (a failed job, a failed check). */
    static Stat stat(final ClusterRow row, final ClusterShape shape, final boolean quick, final String output)
    {
        if (output == null)
        {
            return null;
        }
        if (row.isKernel())
        {
            final String metric = KernelRank.metric(row.kernel(), row.kernelSize(quick));
            final List<Samples.Line> lines = Samples.parse(output, metric);
            final boolean checked = output.lines().anyMatch(line -> line.startsWith(KernelRank.CHECK_PREFIX +
                metric.substring(KernelRank.METRIC_PREFIX.length()) + " passed"));
            if (lines.size() != 1 || !checked)
            {
                return null;
            }
            final double[] runs = lines.getFirst().values();
            return Stat.of(runs.length > 1 ? Arrays.copyOfRange(runs, 1, runs.length) : runs);
        }
        final List<Samples.Line> lines = Samples.parse(output, row.part(shape));
        if (lines.isEmpty())
        {
            return null;
        }
        try
        {
            return Stat.overRanks(lines, row.scope() == ClusterRow.Scope.WHOLE_JOB ? shape.processes() : 1);
        }
        catch (final IllegalStateException e)
        {
            return null;
        }
    }
}
