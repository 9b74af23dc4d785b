package bench.apps;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import bench.harness.CommandLine;
import bench.harness.FixedWait;
import bench.harness.Jobs;
import bench.harness.Progress;
import bench.harness.ReportOptions;
import bench.harness.Samples;
import bench.harness.Stat;
import bench.report.Chart;
import bench.report.Ratio;
import bench.report.ReportRun;
import bench.report.Table;
import bench.report.Text;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;

/**
 * The application kernels of {@code bench.apps} (LU, SOR, sparse power iteration, molecular
 * dynamics, ray tracer) run as MPJ Express users run them, on MPJ Express's multicore and
 * niodev devices and on {@code shm} with {@code bin/mpjrun}'s defaults and with other settings
 * of the ranks' JVMs, in one run. Each (kernel, ranks) row runs its columns one after another,
 * so that they see the same phase of a shared machine. Prints three Markdown tables: the median
 * kernel time of the warm repetitions (min-max) with the shm/multicore and shm/niodev ratios, the share
 * of the warm time spent in the kernel's MPI calls per column,
 * and the first (cold) repetition, which is what the Java Grande benchmarks print.
 *
 * <pre>
 * AppBenchmark [--quick] [--np 2,4] [--only lu,sor,...] [--reps N] [--variants defaults,serial,...]
 *              [--mpj-home DIR] [--no-multicore] [--no-niodev] [--report DIR] [--notes FILE]
 * </pre>
 * With {@code --report DIR} it also writes {@code DIR/apps.md} and charts of the warm ratios, shm against
 * multicore and against niodev ({@link bench.harness.ReportOptions}).
 * Every job is launched through {@link MpjJobs} (multicore and niodev through MPJ Express's own
 * starter, shm through {@code bin/mpjrun}'s Java side in a JVM of its own). A job that fails, or
 * whose kernel's check fails, is reported after the tables and makes {@link #run} return 1.
 */
public final class AppBenchmark
{
    private static final Progress PROGRESS = new Progress("[bench-apps] ");

    /**
     * One way of starting the shm ranks' JVMs: its name on the command line, its column, its options,
     * and whether its ranks wait as before {@code auto} adapted ({@link FixedWait}).
     */
    record ShmVariant(String name, String column, List<String> jvmArgs, boolean fixedWait)
    {
        ShmVariant(final String name, final String column, final List<String> jvmArgs)
        {
            this(name, column, jvmArgs, false);
        }

        String describe()
        {
            return fixedWait ? FixedWait.describe() : jvmArgs.isEmpty() ? "bin/mpjrun's defaults" :
                "-jvmargs \"" + String.join(" ", jvmArgs) + "\"";
        }
    }

    /** The shm columns: bin/mpjrun's defaults first (the one the ratios compare), then candidate settings. */
    static final List<ShmVariant> VARIANTS = List.of(
        new ShmVariant("defaults", "shm", List.of()),
        // The point-to-point path of before: MPJ Express packs each array into its buffer (shm-device.md).
        new ShmVariant("packed", "shm packed", List.of("-Dkupl.p2p=off")),
        // The defaults already use the serial collector (mpjrun.process.RankJvmDefaults): these change one more thing.
        new ShmVariant("c1", "shm C1 only", List.of("-XX:TieredStopAtLevel=1")),
        new ShmVariant("one-cpu", "shm 1 CPU", List.of("-XX:ActiveProcessorCount=1")),
        new ShmVariant("fixed-wait", FixedWait.COLUMN, List.of(), true));

    /** The columns of a run without --variants: the last variant only runs when asked for. */
    static final List<ShmVariant> DEFAULT_VARIANTS = VARIANTS.subList(0, 4);

    public static final int FULL_REPETITIONS = 5;
    public static final int QUICK_REPETITIONS = 2;
    static final Duration FULL_JOB_TIMEOUT = Duration.ofMinutes(5);
    static final Duration QUICK_JOB_TIMEOUT = Duration.ofMinutes(2);

    /** What one run measures, from the command line. */
    private record Plan(boolean quick, List<Integer> processCounts, List<Kernels> kernels, int repetitions,
        List<ShmVariant> variants, Path mpjHome, boolean multicore, boolean niodev)
    {
        Duration jobTimeout()
        {
            return quick ? QUICK_JOB_TIMEOUT : FULL_JOB_TIMEOUT;
        }

        int size(final Kernels kernel)
        {
            return quick ? kernel.quickSize() : kernel.fullSize();
        }

        /** Column names in table order. */
        List<String> columns()
        {
            final List<String> columns = new ArrayList<>();
            if (multicore)
            {
                columns.add("multicore");
            }
            if (niodev)
            {
                columns.add("niodev");
            }
            variants.forEach(variant -> columns.add(variant.column()));
            return columns;
        }
    }

    /**
     * The kernel times one job printed (ms, one a repetition), the time in the kernel's MPI calls (ms, the mean
     * over ranks, one a repetition; empty if not printed), or why there are none.
     */
    private record Outcome(double[] kernelMs, double[] communicationMs, String failure)
    {
        double[] warmMs()
        {
            return warm(kernelMs);
        }

        /** The median share of the warm repetitions' time spent in MPI calls; NaN without figures. */
        double communicationShare()
        {
            return kernelMs.length == 0 || communicationMs.length != kernelMs.length ? Double.NaN :
                Stat.median(warm(communicationMs)) / Stat.median(warmMs());
        }

        private static double[] warm(final double[] ms)
        {
            return ms.length > 1 ? Arrays.copyOfRange(ms, 1, ms.length) : ms;
        }
    }

    private final Plan plan;
    private final ReportRun report;

    private AppBenchmark(final Plan plan, final ReportRun report)
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
     * @return 0 if every job ran and every kernel's check passed, 1 otherwise (the failures are printed).
     * @throws IllegalArgumentException with the usage if an argument is not understood.
     */
    public static int run(final String[] args, final PrintStream out) throws Exception
    {
        final AppOptions options = AppOptions.parse(args);
        final Plan plan = new Plan(options.quick, options.processCounts, options.kernels, options.repetitions(),
            options.variants, options.mpjHome, options.multicore, options.niodev);
        final ReportRun report = ReportRun.start("apps", "Application benchmarks" +
            (plan.quick() ? " (--quick: smoke run, figures not meaningful)" : ""), options.report, out, List.of(
            plan.repetitions() + " repetitions of each kernel in each job; multicore and niodev with MPJ Express's " +
            "defaults; shm columns: " + String.join("; ", plan.variants().stream()
            .map(v -> v.column() + " = " + v.describe()).toList())));
        if (plan.quick())
        {
            report.note("Run with --quick: tiny problem sizes; the figures are not meaningful.");
        }
        return new AppBenchmark(plan, report).run();
    }

    private int run() throws Exception
    {
        final Map<String, Map<String, Outcome>> outcomes = new LinkedHashMap<>();
        final List<String> failures = new ArrayList<>();
        for (final Kernels kernel : plan.kernels())
        {
            for (final int processes : plan.processCounts())
            {
                final Map<String, Outcome> row = new LinkedHashMap<>();
                for (final String column : plan.columns())
                {
                    PROGRESS.say(kernel.shortName() + ", " + processes + " ranks, " + column);
                    final Outcome outcome = runJob(kernel, processes, column);
                    row.put(column, outcome);
                    if (outcome.failure() != null)
                    {
                        failures.add(kernel.describe(plan.size(kernel)) + ", " + processes + " ranks, " + column +
                            ": " + outcome.failure());
                    }
                }
                outcomes.put(rowKey(kernel, processes), row);
            }
        }

        addWarmTable(outcomes);
        addCommunicationTable(outcomes);
        addFirstRunTable(outcomes);
        report.add(new Text("Kernel seconds as rank 0 times them between two barriers (setup and the check " +
            "excluded). Warm: median of repetitions 2.." + plan.repetitions() + " of one job (min-max); first: " +
            "repetition 1 of the same job, one sample, JIT compilation included. Ratios: median of shm with " +
            "bin/mpjrun's defaults over the other device's (below 1: shm is faster)."));
        if (!failures.isEmpty())
        {
            report.add(new Text("FAILED (" + failures.size() + "):"));
            failures.forEach(failure -> report.add(new Text("- " + failure)));
            report.note(failures.size() + " jobs failed or failed their check (listed after the tables); their cells " +
                "say FAILED.");
        }
        report.finish();
        return failures.isEmpty() ? 0 : 1;
    }

    private static String rowKey(final Kernels kernel, final int processes)
    {
        return kernel.name() + "/" + processes;
    }

    private Outcome runJob(final Kernels kernel, final int processes, final String column)
    {
        final MpjDevice device = column.equals("multicore") ? MpjDevice.MULTICORE :
            column.equals("niodev") ? MpjDevice.NIODEV : MpjDevice.SHM;
        final ShmVariant variant = device != MpjDevice.SHM ? null : plan.variants().stream()
            .filter(v -> v.column().equals(column)).findFirst().orElseThrow();
        final List<String> jvmArgs = variant == null ? List.of() : variant.jvmArgs();
        final Map<String, String> environment = variant != null && variant.fixedWait() ?
            FixedWait.environment(processes) : Map.of();
        final int size = plan.size(kernel);
        final JobSpec spec = new JobSpec(processes, List.of(Jobs.codeLocation().toString()), jvmArgs,
            KernelRank.class.getName(), List.of(kernel.shortName(), Integer.toString(size),
            Integer.toString(plan.repetitions())), false);
        final JobResult result;
        try
        {
            result = MpjJobs.run(device, spec, plan.jobTimeout(), plan.mpjHome(), environment);
        }
        catch (final Exception e)
        {
            return new Outcome(new double[0], new double[0], "could not run: " + e);
        }
        final String metric = KernelRank.metric(kernel, size);
        final List<Samples.Line> lines = Samples.parse(result.output(), metric);
        final List<Samples.Line> communication = Samples.parse(result.output(),
            KernelRank.COMMUNICATION_PREFIX + metric.substring(KernelRank.METRIC_PREFIX.length()));
        final double[] communicationMs = communication.size() == 1 ? communication.getFirst().values() :
            new double[0];
        final boolean checked = result.output().lines()
            .anyMatch(line -> line.startsWith(KernelRank.CHECK_PREFIX + metric.substring(KernelRank.METRIC_PREFIX
                .length()) + " passed"));
        if (!result.succeeded() || lines.size() != 1 || !checked)
        {
            return new Outcome(lines.size() == 1 ? lines.getFirst().values() : new double[0], communicationMs,
                result.summary() + (checked ? "" : "; no passed check") + "\n" + indent(result.output()));
        }
        return new Outcome(lines.getFirst().values(), communicationMs, null);
    }

    private static String indent(final String output)
    {
        return output.lines().map(line -> "    " + line).reduce((a, b) -> a + "\n" + b).orElse("    (no output)");
    }

    private void addWarmTable(final Map<String, Map<String, Outcome>> outcomes)
    {
        final List<String> columns = plan.columns();
        final String shm = plan.variants().isEmpty() ? null : plan.variants().getFirst().column();
        final List<String> ratios = new ArrayList<>();
        if (shm != null && plan.variants().getFirst().jvmArgs().isEmpty() && !plan.variants().getFirst().fixedWait())
        {
            if (plan.multicore())
            {
                ratios.add("multicore");
            }
            if (plan.niodev())
            {
                ratios.add("niodev");
            }
        }
        final List<String> header = new ArrayList<>(List.of("kernel", "ranks"));
        header.addAll(columns);
        ratios.forEach(other -> header.add("shm/" + other));
        final Table table = new Table(header);
        final Map<String, List<Ratio>> bars = new LinkedHashMap<>();
        ratios.forEach(other -> bars.put(other, new ArrayList<>()));
        for (final Kernels kernel : plan.kernels())
        {
            for (final int processes : plan.processCounts())
            {
                final Map<String, Outcome> row = outcomes.get(rowKey(kernel, processes));
                final List<String> cells = new ArrayList<>(List.of(kernel.describe(plan.size(kernel)),
                    Integer.toString(processes)));
                for (final String column : columns)
                {
                    cells.add(warmCell(row.get(column)));
                }
                for (final String other : ratios)
                {
                    final Ratio ratio = ratio(kernel.describe(plan.size(kernel)) + ", " + processes + " ranks",
                        row.get(shm), row.get(other));
                    bars.get(other).add(ratio);
                    cells.add(ratio.isMeasured() ? String.format(Locale.ROOT, "%.2f", ratio.value()) : "n/a");
                }
                table.row(cells);
            }
        }
        report.add(new Text("Warm kernel seconds, median (min-max):"));
        report.add(table);
        for (final Map.Entry<String, List<Ratio>> chart : bars.entrySet())
        {
            report.add(new Chart(chart.getKey(), "Warm kernel time on shm against " + chart.getKey(),
                "shm seconds / " + chart.getKey() + " seconds, medians of the warm repetitions (below 1: shm is " +
                "faster)", chart.getValue()));
        }
    }

    /** Per kernel and column, the share of the warm kernel time that its ranks spend in MPI calls. */
    private void addCommunicationTable(final Map<String, Map<String, Outcome>> outcomes)
    {
        final List<String> columns = plan.columns();
        final List<String> header = new ArrayList<>(List.of("kernel", "ranks"));
        header.addAll(columns);
        final Table table = new Table(header);
        for (final Kernels kernel : plan.kernels())
        {
            for (final int processes : plan.processCounts())
            {
                final Map<String, Outcome> row = outcomes.get(rowKey(kernel, processes));
                final List<String> cells = new ArrayList<>(List.of(kernel.describe(plan.size(kernel)),
                    Integer.toString(processes)));
                for (final String column : columns)
                {
                    final Outcome outcome = row.get(column);
                    final double share = outcome.communicationShare();
                    cells.add(Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.0f%% (%.3f s)",
                        100 * share, Stat.median(outcome.warmMs()) * share / 1e3));
                }
                table.row(cells);
            }
        }
        report.add(new Text("Communication: share of the warm kernel time in the kernel's own MPI calls (the time " +
            "each rank spends in them, waiting for its peers included, averaged over the ranks; median of the warm " +
            "repetitions over the median kernel time), with those seconds:"));
        report.add(table);
    }

    private void addFirstRunTable(final Map<String, Map<String, Outcome>> outcomes)
    {
        final List<String> columns = plan.columns();
        final List<String> header = new ArrayList<>(List.of("kernel", "ranks"));
        header.addAll(columns);
        final Table table = new Table(header);
        for (final Kernels kernel : plan.kernels())
        {
            for (final int processes : plan.processCounts())
            {
                final Map<String, Outcome> row = outcomes.get(rowKey(kernel, processes));
                final List<String> cells = new ArrayList<>(List.of(kernel.describe(plan.size(kernel)),
                    Integer.toString(processes)));
                for (final String column : columns)
                {
                    final Outcome outcome = row.get(column);
                    cells.add((outcome.kernelMs().length == 0 ? "n/a" :
                        String.format(Locale.ROOT, "%.3f", outcome.kernelMs()[0] / 1e3)) +
                        (outcome.failure() == null ? "" : " FAILED"));
                }
                table.row(cells);
            }
        }
        report.add(new Text("First (cold) run, seconds:"));
        report.add(table);
    }

    private static String warmCell(final Outcome outcome)
    {
        if (outcome.kernelMs().length == 0)
        {
            return "FAILED";
        }
        final double[] warm = outcome.warmMs();
        return String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", Stat.median(warm) / 1e3, Stat.min(warm) / 1e3,
            Stat.max(warm) / 1e3) + (outcome.failure() == null ? "" : " FAILED");
    }

    /** shm's median warm seconds over the other column's; not a number where either has no figures. */
    private static Ratio ratio(final String label, final Outcome shm, final Outcome other)
    {
        final double shmS = shm.kernelMs().length == 0 ? Double.NaN : Stat.median(shm.warmMs()) / 1e3;
        final double otherS = other.kernelMs().length == 0 ? Double.NaN : Stat.median(other.warmMs()) / 1e3;
        return Ratio.of(label, shmS, otherS, "s");
    }
}
