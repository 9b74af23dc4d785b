package bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import bench.apps.KernelRank;
import bench.apps.Kernels;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;

/**
 * The application kernels of {@code bench.apps} (LU, SOR, sparse power iteration, molecular
 * dynamics, ray tracer) run as MPJ Express users run them, on MPJ Express's multicore and
 * niodev devices and on {@code shm} with {@code bin/mpjrun}'s defaults and with other settings
 * of the ranks' JVMs, in one run. Each (kernel, ranks) row runs its columns one after another,
 * so that they see the same phase of a shared machine. Prints two Markdown tables: the median
 * kernel time of the warm repetitions (min-max) with the shm/multicore and shm/niodev ratios,
 * and the first (cold) repetition, which is what the Java Grande benchmarks print.
 *
 * <pre>
 * AppBenchmark [--quick] [--np 2,4] [--only lu,sor,...] [--reps N] [--variants defaults,serial,...]
 *              [--mpj-home DIR] [--no-multicore] [--no-niodev]
 * </pre>
 * Every job is launched through {@link MpjJobs} (multicore and niodev through MPJ Express's own
 * starter, shm through {@code bin/mpjrun}'s Java side in a JVM of its own). A job that fails, or
 * whose kernel's check fails, is reported after the tables and makes {@link #run} return 1.
 */
public final class AppBenchmark
{
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
        // The defaults already use the serial collector (kupl.bootstrap.RankJvmDefaults): these change one more thing.
        new ShmVariant("c1", "shm C1 only", List.of("-XX:TieredStopAtLevel=1")),
        new ShmVariant("one-cpu", "shm 1 CPU", List.of("-XX:ActiveProcessorCount=1")),
        new ShmVariant("fixed-wait", FixedWait.COLUMN, List.of(), true));

    /** The columns of a run without --variants: the last variant only runs when asked for. */
    static final List<ShmVariant> DEFAULT_VARIANTS = VARIANTS.subList(0, 3);

    static final int FULL_REPETITIONS = 5;
    static final int QUICK_REPETITIONS = 2;
    static final Duration FULL_JOB_TIMEOUT = Duration.ofMinutes(5);
    static final Duration QUICK_JOB_TIMEOUT = Duration.ofMinutes(2);

    private static final String USAGE = "usage: AppBenchmark [--quick] [--np 2,4] [--only " +
        String.join(",", Arrays.stream(Kernels.values()).map(Kernels::shortName).toList()) +
        "] [--reps N] [--variants " + String.join(",", VARIANTS.stream().map(ShmVariant::name).toList()) +
        "] [--mpj-home DIR] [--no-multicore] [--no-niodev]";

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

    /** The kernel times one job printed (ms, one a repetition), or why there are none. */
    private record Outcome(double[] kernelMs, String failure)
    {
        double[] warmMs()
        {
            return kernelMs.length > 1 ? Arrays.copyOfRange(kernelMs, 1, kernelMs.length) : kernelMs;
        }
    }

    private final Plan plan;
    private final PrintStream out;

    private AppBenchmark(final Plan plan, final PrintStream out)
    {
        this.plan = plan;
        this.out = out;
    }

    public static void main(final String[] args) throws Exception
    {
        try
        {
            System.exit(run(args, System.out));
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Runs the benchmark with {@code args} (see the class comment), printing the tables to {@code out}.
     *
     * @return 0 if every job ran and every kernel's check passed, 1 otherwise (the failures are printed).
     * @throws IllegalArgumentException with the usage if an argument is not understood.
     */
    public static int run(final String[] args, final PrintStream out) throws Exception
    {
        return new AppBenchmark(parse(args), out).run();
    }

    private static Plan parse(final String[] args)
    {
        boolean quick = false;
        List<Integer> processCounts = List.of(2, 4);
        List<Kernels> kernels = List.of(Kernels.values());
        Integer repetitions = null;
        List<ShmVariant> variants = DEFAULT_VARIANTS;
        Path mpjHome = EngineBenchmark.defaultMpjHome();
        boolean multicore = true;
        boolean niodev = true;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--quick" -> quick = true;
                case "--np" -> processCounts = Arrays.stream(value(args, i++).split(","))
                    .map(count -> positive("--np", count)).toList();
                case "--only" -> kernels = Kernels.parse(value(args, i++));
                case "--reps" -> repetitions = positive("--reps", value(args, i++));
                case "--variants" -> variants = Arrays.stream(value(args, i++).split(",")).map(AppBenchmark::variant)
                    .toList();
                case "--mpj-home" -> mpjHome = Path.of(value(args, i++)).toAbsolutePath();
                case "--no-multicore" -> multicore = false;
                case "--no-niodev" -> niodev = false;
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; " + USAGE);
            }
        }
        return new Plan(quick, processCounts, kernels,
            repetitions != null ? repetitions : quick ? QUICK_REPETITIONS : FULL_REPETITIONS, variants, mpjHome,
            multicore, niodev);
    }

    private static String value(final String[] args, final int option)
    {
        if (option + 1 == args.length)
        {
            throw new IllegalArgumentException(args[option] + " needs a value; " + USAGE);
        }
        return args[option + 1];
    }

    private static int positive(final String option, final String value)
    {
        try
        {
            final int number = Integer.parseInt(value.strip());
            if (number > 0)
            {
                return number;
            }
        }
        catch (final NumberFormatException e)
        {
            // Reported below.
        }
        throw new IllegalArgumentException(option + " " + value + ": each value must be a positive integer; " + USAGE);
    }

    private static ShmVariant variant(final String name)
    {
        return VARIANTS.stream().filter(variant -> variant.name().equals(name.strip())).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("--variants: " + name + " is not one of " +
                VARIANTS.stream().map(ShmVariant::name).toList() + "; " + USAGE));
    }

    private int run() throws Exception
    {
        final long startNs = System.nanoTime();
        out.println("# Application benchmarks" + (plan.quick() ? " (--quick: smoke run, figures not meaningful)" : ""));
        out.println();
        out.println("- date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        out.println("- machine: " + Runtime.getRuntime().availableProcessors() + " cores; JVM " +
            System.getProperty("java.runtime.version") + "; load average at the start: " + Machine.loadAverage());
        out.println("- " + plan.repetitions() + " repetitions of each kernel in each job; multicore and niodev " +
            "with MPJ Express's defaults; shm columns: " + String.join("; ", plan.variants().stream()
            .map(v -> v.column() + " = " + v.describe()).toList()));
        out.println();

        final Map<String, Map<String, Outcome>> outcomes = new LinkedHashMap<>();
        final List<String> failures = new ArrayList<>();
        for (final Kernels kernel : plan.kernels())
        {
            for (final int processes : plan.processCounts())
            {
                final Map<String, Outcome> row = new LinkedHashMap<>();
                for (final String column : plan.columns())
                {
                    progress(kernel.shortName() + ", " + processes + " ranks, " + column);
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

        printWarmTable(outcomes);
        out.println();
        printFirstRunTable(outcomes);
        out.println();
        out.println("Kernel seconds as rank 0 times them between two barriers (setup and the check excluded). " +
            "Warm: median of repetitions 2.." + plan.repetitions() + " of one job (min-max); first: repetition 1 " +
            "of the same job, one sample, JIT compilation included. Ratios: median of shm with bin/mpjrun's " +
            "defaults over the other device's (below 1: shm is faster).");
        if (!failures.isEmpty())
        {
            out.println();
            out.println("FAILED (" + failures.size() + "):");
            failures.forEach(failure -> out.println("\n- " + failure));
        }
        out.printf(Locale.ROOT, "%nRun time: %.1f s; load average at the end: %s%n",
            (System.nanoTime() - startNs) / 1e9, Machine.loadAverage());
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
        final JobSpec spec = new JobSpec(processes, List.of(EngineBenchmark.codeLocation().toString()), jvmArgs,
            KernelRank.class.getName(), List.of(kernel.shortName(), Integer.toString(size),
            Integer.toString(plan.repetitions())), false);
        final JobResult result;
        try
        {
            result = MpjJobs.run(device, spec, plan.jobTimeout(), plan.mpjHome(), environment);
        }
        catch (final Exception e)
        {
            return new Outcome(new double[0], "could not run: " + e);
        }
        final String metric = KernelRank.metric(kernel, size);
        final List<Samples.Line> lines = Samples.parse(result.output(), metric);
        final boolean checked = result.output().lines()
            .anyMatch(line -> line.startsWith(KernelRank.CHECK_PREFIX + metric.substring(KernelRank.METRIC_PREFIX
                .length()) + " passed"));
        if (!result.succeeded() || lines.size() != 1 || !checked)
        {
            return new Outcome(lines.size() == 1 ? lines.getFirst().values() : new double[0],
                result.summary() + (checked ? "" : "; no passed check") + "\n" + indent(result.output()));
        }
        return new Outcome(lines.getFirst().values(), null);
    }

    private static String indent(final String output)
    {
        return output.lines().map(line -> "    " + line).reduce((a, b) -> a + "\n" + b).orElse("    (no output)");
    }

    private void printWarmTable(final Map<String, Map<String, Outcome>> outcomes)
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
        out.println("Warm kernel seconds, median (min-max):");
        out.println();
        out.println("| kernel | ranks | " + String.join(" | ", columns) +
            ratios.stream().map(other -> " | shm/" + other).reduce("", String::concat) + " |");
        out.println("|---|---|" + "---|".repeat(columns.size() + ratios.size()));
        for (final Kernels kernel : plan.kernels())
        {
            for (final int processes : plan.processCounts())
            {
                final Map<String, Outcome> row = outcomes.get(rowKey(kernel, processes));
                final StringBuilder line = new StringBuilder("| " + kernel.describe(plan.size(kernel)) + " | " +
                    processes + " |");
                for (final String column : columns)
                {
                    line.append(' ').append(warmCell(row.get(column))).append(" |");
                }
                for (final String other : ratios)
                {
                    line.append(' ').append(ratio(row.get(shm), row.get(other))).append(" |");
                }
                out.println(line);
            }
        }
    }

    private void printFirstRunTable(final Map<String, Map<String, Outcome>> outcomes)
    {
        final List<String> columns = plan.columns();
        out.println("First (cold) run, seconds:");
        out.println();
        out.println("| kernel | ranks | " + String.join(" | ", columns) + " |");
        out.println("|---|---|" + "---|".repeat(columns.size()));
        for (final Kernels kernel : plan.kernels())
        {
            for (final int processes : plan.processCounts())
            {
                final Map<String, Outcome> row = outcomes.get(rowKey(kernel, processes));
                final StringBuilder line = new StringBuilder("| " + kernel.describe(plan.size(kernel)) + " | " +
                    processes + " |");
                for (final String column : columns)
                {
                    final Outcome outcome = row.get(column);
                    line.append(' ').append(outcome.kernelMs().length == 0 ? "n/a" :
                        String.format(Locale.ROOT, "%.3f", outcome.kernelMs()[0] / 1e3))
                        .append(outcome.failure() == null ? "" : " FAILED").append(" |");
                }
                out.println(line);
            }
        }
    }

    private static String warmCell(final Outcome outcome)
    {
        if (outcome.kernelMs().length == 0)
        {
            return "FAILED";
        }
        final double[] warm = outcome.warmMs();
        return String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", Samples.median(warm) / 1e3, Samples.min(warm) / 1e3,
            Samples.max(warm) / 1e3) + (outcome.failure() == null ? "" : " FAILED");
    }

    private static String ratio(final Outcome shm, final Outcome other)
    {
        if (shm.kernelMs().length == 0 || other.kernelMs().length == 0)
        {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2f", Samples.median(shm.warmMs()) / Samples.median(other.warmMs()));
    }

    private static void progress(final String what)
    {
        System.err.println("[bench-apps] " + what);
    }
}
