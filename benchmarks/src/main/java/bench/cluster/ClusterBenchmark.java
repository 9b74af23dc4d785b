package bench.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import bench.apps.AppBenchmark;
import bench.apps.KernelRank;
import bench.apps.Kernels;
import bench.cluster.ClusterTable.Column;
import bench.device.DeviceRank;
import bench.harness.CommandLine;
import bench.harness.Jobs;
import bench.harness.Progress;
import bench.report.Chart;
import bench.report.Ratio;
import bench.report.ReportRun;
import bench.report.Text;
import mpjrun.ClusterDevice;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import mpjrun.SimulatedCluster;

/**
 * Jobs that span nodes, on a {@link SimulatedCluster} of 2 nodes: 2 nodes x 2 ranks and 2 nodes x 4 ranks in one
 * run, one column per device ({@code niodev}, {@code hybdev}, and the cluster-mode {@code shm} device: shared
 * memory within each node, niodev between), all on the same cluster, started once, each job run by the cluster
 * itself ({@link SimulatedCluster#run}, which knows how each {@link ClusterDevice} starts). Where no cluster can
 * be made, every cluster column says why and the targets that need it read "not measured: <why>"; no figure is
 * made up. A reference column, {@code -dev shm}
 * with a node's ranks on one node (no cluster), stands beside the rows within a node.
 *
 * <p>Rows, one table per shape; each figure the median over repetitions (min-max):
 * <ul>
 *   <li>ping-pong half round trip, 8 B and 1 MiB, within a node (ranks 0 and 1) and across nodes (rank 0 and
 *   the first rank of node 2), and bandwidth of 1 MiB messages sent back to back within and across
 *   ({@link DeviceRank}'s {@code pingpong:B:0-b} and {@code bandwidth:B:0-b} parts, timed by rank 0);</li>
 *   <li>Barrier, Allreduce (sum) of 8 doubles and of 1 MiB (131072 doubles), Bcast of 1 MiB from rank 0, on
 *   every rank of the job (each repetition as long as its slowest rank);</li>
 *   <li>the five kernels of {@code bench.apps} ({@link KernelRank}: LU, SOR, sparse, MD, ray tracer) on every
 *   rank, seconds per run as rank 0 times it between two barriers, the first (cold) run left out.</li>
 * </ul>
 * Targets of the shm column (a time ratio of at most the bound meets one): within-node rows at most 1.5x
 * {@code -dev shm} on one node; Barrier and Allreduce at most 1/3 of niodev's time and at most hybdev's; every
 * kernel at most niodev's and hybdev's time.
 *
 * <pre>
 * ClusterBenchmark [--quick] [--devices niodev,hybdev,shm] [--only ROW,...] [--mpj-home DIR] [--report DIR]
 *                  [--notes FILE]
 * </pre>
 * {@code --only} takes {@link #ROWS}' options ({@code pingpong-8b}, {@code barrier}, {@code lu}, ...; {@code apps}
 * for every kernel). Where no network namespace can be made (not root) every cluster column says why
 * ({@link SimulatedCluster#unavailableReason()}). {@code --report DIR} also writes {@code DIR/cluster.md} and its
 * charts, shm against each target, where shm was measured. A job that fails is reported after the tables and
 * makes {@link #run} return 1.
 */
public final class ClusterBenchmark
{
    private static final Progress PROGRESS = new Progress("[bench-cluster] ");

    /** How long each part is warmed up and measured, and how often each kernel runs in its job. */
    record Settings(int warmupMs, int repetitions, long repetitionTargetNs, int kernelRepetitions,
        Duration jobTimeout)
    {
    }

    static final Settings FULL = new Settings(1_500, 7, 50_000_000L, AppBenchmark.FULL_REPETITIONS,
        Duration.ofMinutes(5));
    static final Settings QUICK = new Settings(20, 2, 2_000_000L, AppBenchmark.QUICK_REPETITIONS,
        Duration.ofMinutes(2));
    /** The jobs of a run, each on every device; every shape here has 2 nodes, so one cluster serves them all. */
    static final List<ClusterShape> SHAPES = List.of(new ClusterShape(2, 2), new ClusterShape(2, 4));
    /** A device column left out with {@code --devices}. */
    static final String NOT_SELECTED = "not selected (--devices)";
    static final String APPS = "apps";

    private static final int MIB = 1 << 20;
    static final List<ClusterRow> ROWS = rows();
    /** What one run measures, from the command line. */
    record Plan(boolean quick, List<String> devices, List<ClusterRow> rows, Path mpjHome)
    {
        Settings settings()
        {
            return quick ? QUICK : FULL;
        }
    }

    private final Plan plan;
    private final ReportRun report;
    private final List<String> failures = new ArrayList<>();
    private final Map<Integer, SimulatedCluster> clusters = new HashMap<>();
    private String clusterRefusal;

    private ClusterBenchmark(final Plan plan, final ReportRun report)
    {
        this.plan = plan;
        this.report = report;
    }

    public static void main(final String[] args) throws Exception
    {
        CommandLine.main(args, commandLine -> run(commandLine, System.out));
    }

    /**
     * Runs the benchmark with {@code args} (see the class comment), printing the tables to {@code out}.
     *
     * @return 0 if every job that ran succeeded, 1 otherwise (the failures are printed).
     * @throws IllegalArgumentException with the usage if an argument is not understood.
     */
    public static int run(final String[] args, final PrintStream out) throws Exception
    {
        final ClusterOptions options = ClusterOptions.parse(args);
        final Plan plan = options.plan();
        final Settings settings = plan.settings();
        final ReportRun report = ReportRun.start("cluster", "Jobs across simulated nodes" +
            (plan.quick() ? " (--quick: smoke run, figures not meaningful)" : ""), options.report, out, List.of(
            "jobs: " + String.join(", ", SHAPES.stream().map(ClusterShape::label).toList()) + ", ranks in blocks " +
            "(node 1 first), all on one simulated cluster of 2 nodes (mpjrun.SimulatedCluster: a network namespace, " +
            "veth pair, host name and MPJ Express daemon per node)",
            "devices: " + String.join(", ", plan.devices()) + " (shm: the cluster-mode device, shared memory within " +
            "each node and niodev between); reference: -dev shm with a node's ranks on one node (mpjrun.MpjJobs, " +
            "bin/mpjrun's defaults for the ranks' JVMs); MPJ Express's JVMs with the JDK's defaults",
            "settings: " + settings.warmupMs() + " ms warm-up per part, " + settings.repetitions() +
            " repetitions of about " + settings.repetitionTargetNs() / 1_000_000 + " ms; kernels at " +
            (plan.quick() ? "quick" : "full") + " sizes, " + settings.kernelRepetitions() + " runs per job"));
        if (plan.quick())
        {
            report.note("Run with --quick: tiny repetitions and problem sizes; the figures are not meaningful.");
        }
        return new ClusterBenchmark(plan, report).run();
    }

    /** Every row, in table order. */
    static List<ClusterRow> rows()
    {
        final List<ClusterRow> rows = new ArrayList<>();
        for (final ClusterRow.Scope scope : List.of(ClusterRow.Scope.WITHIN_NODE, ClusterRow.Scope.ACROSS_NODES))
        {
            final ClusterRow.Goal goal = scope == ClusterRow.Scope.WITHIN_NODE ? ClusterRow.Goal.WITHIN_NODE :
                ClusterRow.Goal.NONE;
            rows.add(ClusterRow.pair("pingpong-8b", "ping-pong half round trip 8 B", scope, "pingpong", 8, "us",
                1e-3, goal));
            rows.add(ClusterRow.pair("pingpong-1mib", "ping-pong half round trip 1 MiB", scope, "pingpong", MIB,
                "us", 1e-3, goal));
            rows.add(ClusterRow.pair("bandwidth", "bandwidth, 1 MiB messages", scope, "bandwidth", MIB, "GB/s", 1,
                goal));
        }
        rows.add(ClusterRow.collective("barrier", "Barrier", "barrier", 0, "us", 1e-3, ClusterRow.Goal.COLLECTIVE));
        rows.add(ClusterRow.collective("allreduce-8", "Allreduce 8 doubles", "allreduce", 8, "us", 1e-3,
            ClusterRow.Goal.COLLECTIVE));
        rows.add(ClusterRow.collective("allreduce-1mib", "Allreduce 1 MiB (131072 doubles)", "allreduce",
            MIB / Double.BYTES, "us", 1e-3, ClusterRow.Goal.COLLECTIVE));
        rows.add(ClusterRow.collective("bcast", "Bcast 1 MiB from rank 0, per receiver", "bcast", MIB, "GB/s", 1,
            ClusterRow.Goal.NONE));
        for (final Kernels kernel : Kernels.values())
        {
            rows.add(ClusterRow.kernel(kernel));
        }
        return List.copyOf(rows);
    }

    /** The names {@code --only} takes, in table order. */
    static List<String> options()
    {
        final Set<String> names = new LinkedHashSet<>();
        ROWS.forEach(row -> names.add(row.option()));
        names.add(APPS);
        return List.copyOf(names);
    }

    private int run() throws Exception
    {
        clusterRefusal = SimulatedCluster.unavailableReason();
        final String mpjProblem = MpjHome.unavailableReason();
        if (mpjProblem != null)
        {
            clusterRefusal = mpjProblem;
        }
        final Map<ClusterRow.Goal, List<Ratio>> bars = new LinkedHashMap<>();
        try
        {
            for (final ClusterShape shape : SHAPES)
            {
                final ClusterTable.Results results = measure(shape, mpjProblem);
                report.add(Text.heading(2, shape.label() + " (" + shape.placement() + ")"));
                report.add(ClusterTable.table(results, plan.rows(), plan.quick(), bars));
            }
        }
        finally
        {
            clusters.values().forEach(SimulatedCluster::close);
        }
        final Settings settings = plan.settings();
        report.add(new Text("Median over " + settings.repetitions() + " repetitions (min-max), each sized to last " +
            "about " + settings.repetitionTargetNs() / 1_000_000 + " ms after " + settings.warmupMs() + " ms of " +
            "warm-up (bench.device.DeviceRank, one job per device and shape with every part); a pair's figure is " +
            "rank 0's, " +
            "a collective repetition lasts as long as its slowest rank. Bandwidth: messages sent back to back with " +
            "blocking Send, one acknowledgement at the end. Kernels (bench.apps.KernelRank, one job per device and " +
            "shape with every kernel): rank 0's seconds between two barriers, median of runs 2.." +
            settings.kernelRepetitions() + ". The reference runs the within-node parts alone, with as many ranks " +
            "on one node as a node of the shape holds. Ratios compare times (for GB/s rows, the inverse of the " +
            "rates): at most the bound meets a target; 'faster than' is read as at most 1x."));
        addCharts(bars);
        for (final String device : ClusterOptions.DEVICES)
        {
            if (!plan.devices().contains(device))
            {
                report.note(device + " not measured: " + NOT_SELECTED + ".");
            }
        }
        if (clusterRefusal != null)
        {
            report.note("No cluster column measured: " + clusterRefusal + ".");
        }
        if (!failures.isEmpty())
        {
            report.add(new Text("FAILED (" + failures.size() + "):"));
            failures.forEach(failure -> report.add(new Text("- " + failure)));
            report.note(failures.size() + " jobs failed (listed after the tables); their cells say n/a.");
        }
        report.finish();
        return failures.isEmpty() ? 0 : 1;
    }

    private void addCharts(final Map<ClusterRow.Goal, List<Ratio>> bars)
    {
        final String timeRatio = " (for GB/s rows, the inverse of the rates; above 1: shm takes longer)";
        final Map<ClusterRow.Goal, String[]> charts = new LinkedHashMap<>();
        charts.put(ClusterRow.Goal.WITHIN_NODE, new String[] {"within",
            "shm within a node against -dev shm on one node"});
        charts.put(ClusterRow.Goal.COLLECTIVE, new String[] {"collectives",
            "Barrier and Allreduce on shm against niodev and hybdev"});
        charts.put(ClusterRow.Goal.APPLICATION, new String[] {"apps",
            "Application kernels on shm against niodev and hybdev"});
        charts.forEach((goal, chart) ->
        {
            final List<Ratio> ratios = bars.getOrDefault(goal, List.of());
            if (!ratios.isEmpty())
            {
                report.add(new Chart(chart[0], chart[1], "shm time / reference time" + timeRatio +
                    ": at most the target meets it", ratios));
            }
        });
    }

    /** Runs the reference and every device's two jobs of {@code shape}. */
    private ClusterTable.Results measure(final ClusterShape shape, final String mpjProblem)
    {
        final Settings settings = plan.settings();
        final List<String> loop = List.of(Integer.toString(settings.warmupMs()),
            Integer.toString(settings.repetitions()), Long.toString(settings.repetitionTargetNs()));
        final List<ClusterRow> partRows = plan.rows().stream().filter(row -> !row.isKernel()).toList();
        final List<ClusterRow> kernelRows = plan.rows().stream().filter(ClusterRow::isKernel).toList();
        Column reference = Column.notRun("no row within a node selected");
        final List<String> withinParts = partRows.stream().filter(row -> row.scope() == ClusterRow.Scope.WITHIN_NODE)
            .map(row -> row.part(shape)).toList();
        if (!withinParts.isEmpty())
        {
            reference = mpjProblem != null ? Column.notRun(mpjProblem) :
                runReference(shape, concat(loop, withinParts));
        }
        final Map<String, Column> parts = new LinkedHashMap<>();
        final Map<String, Column> kernels = new LinkedHashMap<>();
        if (!partRows.isEmpty())
        {
            final List<String> args = new ArrayList<>(loop);
            args.add(DeviceRank.HOSTS);
            partRows.stream().map(row -> row.part(shape)).distinct().forEach(args::add);
            for (final String device : ClusterOptions.DEVICES)
            {
                final Column column = runOnCluster(shape, device, "DeviceRank", spec(shape.processes(),
                    DeviceRank.class, args));
                final String misplaced = column.succeeded() ? shape.placementProblem(column.output()) : null;
                if (misplaced != null)
                {
                    failures.add(device + ", " + shape.label() + ": " + misplaced);
                }
                parts.put(device, column);
            }
        }
        if (!kernelRows.isEmpty())
        {
            final List<String> args = List.of(String.join(",", kernelRows.stream().map(ClusterRow::option).toList()),
                plan.quick() ? "quick" : "full", Integer.toString(settings.kernelRepetitions()));
            for (final String device : ClusterOptions.DEVICES)
            {
                kernels.put(device, runOnCluster(shape, device, "kernels", spec(shape.processes(), KernelRank.class,
                    args)));
            }
        }
        return new ClusterTable.Results(shape, parts, kernels, reference);
    }

    private static JobSpec spec(final int processes, final Class<?> main, final List<String> args)
    {
        return new JobSpec(processes, List.of(Jobs.codeLocation().toString()), List.of(), main.getName(),
            args, false);
    }

    private static List<String> concat(final List<String> first, final List<String> second)
    {
        final List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private Column runReference(final ClusterShape shape, final List<String> args)
    {
        PROGRESS.say(ClusterRow.REFERENCE + ", " + shape.ranksPerNode() + " ranks");
        try
        {
            final JobResult result = MpjJobs.run(MpjDevice.SHM, spec(shape.ranksPerNode(), DeviceRank.class, args),
                plan.settings().jobTimeout(), plan.mpjHome());
            noteFailure(result, ClusterRow.REFERENCE + ", " + shape.ranksPerNode() + " ranks");
            return Column.ran(result);
        }
        catch (final IOException | RuntimeException e)
        {
            failures.add(ClusterRow.REFERENCE + ", " + shape.ranksPerNode() + " ranks, could not run: " + e);
            return Column.failedToStart();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + ClusterRow.REFERENCE, e);
        }
    }

    /** One job of {@code shape} on {@code device}, or why it was not run (not selected, not supported, no cluster). */
    private Column runOnCluster(final ClusterShape shape, final String device, final String what,
        final JobSpec spec)
    {
        if (!plan.devices().contains(device))
        {
            return Column.notRun(NOT_SELECTED);
        }
        final SimulatedCluster cluster = cluster(shape.nodes());
        if (cluster == null)
        {
            return Column.notRun(clusterRefusal);
        }
        final String job = device + ", " + shape.label() + ", " + what;
        PROGRESS.say(job);
        try
        {
            // Every column is a ClusterDevice: ClusterOptions takes no other name.
            final JobResult result = cluster.run(spec, plan.settings().jobTimeout(), ClusterDevice.named(device));
            noteFailure(result, job);
            return Column.ran(result);
        }
        catch (final IOException | RuntimeException e)
        {
            failures.add(job + ", could not run: " + e);
            return Column.failedToStart();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + job, e);
        }
    }

    /** The cluster of {@code nodes} nodes, started on first use; null (with {@link #clusterRefusal} set) if none. */
    private SimulatedCluster cluster(final int nodes)
    {
        if (clusterRefusal != null)
        {
            return null;
        }
        SimulatedCluster cluster = clusters.get(nodes);
        if (cluster == null)
        {
            PROGRESS.say("starting a simulated cluster of " + nodes + " nodes");
            try
            {
                cluster = SimulatedCluster.start(nodes, MpjHome.prepare(plan.mpjHome()), Map.of());
                clusters.put(nodes, cluster);
            }
            catch (final IOException | RuntimeException e)
            {
                clusterRefusal = "the simulated cluster did not start: " + e.getMessage();
                failures.add(clusterRefusal);
                return null;
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting a cluster", e);
            }
        }
        return cluster;
    }

    private void noteFailure(final JobResult result, final String job)
    {
        if (!result.succeeded())
        {
            final List<String> lines = result.output().lines().toList();
            failures.add(job + ": " + result.summary() + "; the last lines of its output:\n" + String.join("\n",
                lines.subList(Math.max(0, lines.size() - 30), lines.size()).stream().map(line -> "    " + line)
                    .toList()));
        }
    }
}
