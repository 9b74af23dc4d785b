package bench.rma;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import bench.harness.Progress;
import bench.report.Chart;
import bench.report.Ratio;
import bench.report.ReportRun;
import bench.report.Table;
import bench.report.Target;
import bench.report.Text;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;
import mpjrun.SimulatedCluster;

/**
 * The parts of {@link RmaBenchmark} whose rank programs make their own comparisons: {@code Win.allocate}
 * against {@code Win.allocateShared} ({@link AllocateWindowRank}) and {@code Win.create} against MPJ
 * Express's own messages ({@link CreateWindowRank}), on one node and across two simulated nodes. Each job's
 * rank 0 prints its figures; this remakes the rank's table from them, with a chart of its ratios and their
 * targets.
 */
final class RmaFlavours
{
    private static final Progress PROGRESS = new Progress("bench-rma: ");

    private final ReportRun report;
    private final boolean quick;
    private final Duration jobTimeout;

    RmaFlavours(final ReportRun report, final boolean quick, final Duration jobTimeout)
    {
        this.report = report;
        this.quick = quick;
        this.jobTimeout = jobTimeout;
    }

    /** Win.allocate and Win.create on one node (shm, 2 processes), each against its reference. */
    boolean addOneNode() throws Exception
    {
        PROGRESS.say("shm, 2 processes, " + AllocateWindowRank.class.getName());
        boolean ok = printRankTable("Win.allocate against Win.allocateShared (us per operation; target: allocate <= " +
            RmaBenchmark.ALLOCATE_RATIO_TARGET + "x allocateShared), shm, 2 processes", AllocateWindowRank.class,
            MpjJobs.run(MpjDevice.SHM, otherFlavourJob(AllocateWindowRank.class.getName()), jobTimeout),
            output ->
            {
                final double[][] microseconds = AllocateWindowRank.figures(output);
                return new RankTable(AllocateWindowRank.table(microseconds), new Chart("allocate",
                    "Win.allocate against Win.allocateShared on one node (shm, 2 processes)",
                    "allocate time / allocateShared time (above 1: allocate takes longer)",
                    AllocateWindowRank.ratios(microseconds).stream()
                        .map(ratio -> ratio.against(Target.atMost(RmaBenchmark.ALLOCATE_RATIO_TARGET))).toList()));
            });
        PROGRESS.say("shm, 2 processes, " + CreateWindowRank.class.getName());
        ok &= printRankTable("Win.create over a double[] against the device's ping-pong (us per operation; target: " +
            "put 8 B + flush <= " + RmaBenchmark.CREATE_RATIO_TARGET + "x the 8 B round trip), shm, 2 processes",
            CreateWindowRank.class, MpjJobs.run(MpjDevice.SHM, otherFlavourJob(CreateWindowRank.class.getName()),
            jobTimeout), output -> createWindowTable(output, "create", "Win.create against its references on " +
            "one node (shm, 2 processes)", row -> row == CreateWindowRank.PUT_SMALL ?
            Target.atMost(RmaBenchmark.CREATE_RATIO_TARGET) : null));
        return ok;
    }

    /**
     * Win.create across two simulated nodes (niodev, rank 0 on one node and rank 1 on the other) against
     * MPJ Express's own ping-pong, Barrier and bandwidth in the same job; where network namespaces cannot be
     * made, says why instead.
     */
    boolean addAcrossNodes() throws Exception
    {
        final String title = "Win.create across two simulated nodes against niodev (us per operation; targets: put, " +
            "get and accumulate of 8 B + flush <= " + RmaBenchmark.ACROSS_NODES_LATENCY_TARGET + "x the 8 B round trip, put of " +
            "1 MiB + flush >= " + RmaBenchmark.ACROSS_NODES_BANDWIDTH_TARGET + "x the one-way bandwidth, fence <= " +
            RmaBenchmark.ACROSS_NODES_FENCE_TARGET + "x the Barrier), niodev, 2 processes on 2 nodes";
        final String unavailable = SimulatedCluster.unavailableReason();
        if (unavailable != null)
        {
            report.add(Text.heading(2, title));
            report.add(new Text("Not measured: " + unavailable + "."));
            report.note("Across two simulated nodes not measured: " + unavailable + ".");
            return true;
        }
        PROGRESS.say("niodev, 2 processes on 2 simulated nodes, " + CreateWindowRank.class.getName());
        return printRankTable(title, CreateWindowRank.class, MpjJobs.runOnSimulatedCluster(
            otherFlavourJob(CreateWindowRank.class.getName()), 2, jobTimeout),
            output -> createWindowTable(output, "across-nodes", "Win.create across two simulated nodes against " +
            "niodev's own (2 processes on 2 nodes)", row -> switch (row)
            {
                case CreateWindowRank.PUT_SMALL, CreateWindowRank.GET_SMALL, CreateWindowRank.ACC_SMALL ->
                    Target.atMost(RmaBenchmark.ACROSS_NODES_LATENCY_TARGET);
                case CreateWindowRank.PUT_LARGE -> Target.atLeast(RmaBenchmark.ACROSS_NODES_BANDWIDTH_TARGET);
                case CreateWindowRank.FENCE -> Target.atMost(RmaBenchmark.ACROSS_NODES_FENCE_TARGET);
                default -> null;
            }));
    }

    /** A rank program's table, remade from its figures, and the chart of its ratios. */
    private record RankTable(Table table, Chart chart)
    {
    }

    /** CreateWindowRank's table and a chart of each row against its reference, with {@code targets} by row. */
    private static RankTable createWindowTable(final String output, final String chartName, final String chartTitle,
        final Function<Integer, Target> targets)
    {
        final double[][] microseconds = CreateWindowRank.figures(output);
        final List<Ratio> ratios = new ArrayList<>();
        for (int row = 0; row < CreateWindowRank.ROWS.size(); row++)
        {
            final Ratio ratio = CreateWindowRank.comparison(row, microseconds);
            final Target target = targets.apply(row);
            if (ratio != null)
            {
                ratios.add(target == null ? ratio : ratio.against(target));
            }
        }
        return new RankTable(CreateWindowRank.table(microseconds), new Chart(chartName, chartTitle,
            "time / the reference's time (put 1 MiB: one-way ping-pong time / put time, i.e. the bandwidth ratio; " +
            "above 1 the put is faster)", ratios));
    }

    private JobSpec otherFlavourJob(final String mainClass)
    {
        return new JobSpec(2, MpjJobs.currentClassPath(), List.of(), mainClass, List.of(quick ? "3" : "15"), false);
    }

    /**
     * Adds the table and chart {@code tables} makes from a rank program's output under {@code title}; false (and
     * the job's summary) if the job failed.
     */
    private boolean printRankTable(final String title, final Class<?> program, final JobResult result,
        final Function<String, RankTable> tables)
    {
        if (!result.succeeded())
        {
            PROGRESS.say("the job of " + program.getName() + " failed:\n" + result.summary());
            report.note("The job of " + program.getSimpleName() + " failed (its table is missing): " +
                result.summary().lines().findFirst().orElse(""));
            return false;
        }
        final RankTable made = tables.apply(result.output());
        report.add(Text.heading(2, title));
        report.add(made.table());
        report.add(made.chart());
        return true;
    }
}
