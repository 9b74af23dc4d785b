package bench.jgf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import bench.harness.CommandLine;
import bench.harness.FixedWait;
import bench.harness.Jobs;
import bench.harness.Progress;
import bench.harness.ReportOptions;
import bench.harness.Stat;
import bench.report.Chart;
import bench.report.Ratio;
import bench.report.ReportRun;
import bench.report.Table;
import bench.report.Text;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;

/**
 * MPJ Express's Java Grande Forum MPJ benchmarks, section 2 (LUFact, SOR, SparseMatmult, Crypt),
 * run as a user runs them: the user's copy of MPJ Express's {@code test/jgf_mpj_benchmarks}
 * folder, compiled unchanged against MPJ Express's {@code mpj.jar}, each kernel's
 * {@code JGF<Kernel>BenchSize<X>} program started as a job of its own on {@code -dev shm}
 * ({@code bin/mpjrun}'s defaults), on MPJ Express's multicore and niodev devices (the starter's
 * defaults), and on shm with the waiting of before ({@link FixedWait}), the columns of a row one
 * after another, round after round. Each job runs its kernel once (JGF's programs do), or with
 * {@code --runs N} N times ({@link JgfRepeated}, as a long-running program works), and its rank 0
 * prints the kernel's seconds for each run ({@code Section2:LUFact:Kernel:SizeA  0.57 (s) ...}); a
 * cell is the median of the rounds (min-max), of the first runs and, with several, of each job's
 * median of its later runs.
 *
 * <pre>
 * JgfBenchmark [--quick] [--np 2,4] [--sizes A,B] [--only lufact,sor,sparse,crypt] [--reps N] [--runs N]
 *              [--no-multicore] [--no-niodev] [--no-fixed-wait] [--mpj-home DIR] [--report DIR] [--notes FILE] DIR
 * </pre>
 * DIR is the {@code test/jgf_mpj_benchmarks} folder of a clone of
 * {@code https://github.com/mpjexpress-project/mpjexpress}. A job that fails, or a kernel that
 * prints {@code Validation failed} or no time, is reported after the table and makes {@link #run}
 * return 1. With {@code --report DIR} it also writes {@code DIR/jgf.md} and charts of shm against multicore and
 * niodev ({@link bench.harness.ReportOptions}).
 */
public final class JgfBenchmark
{
    private static final Progress PROGRESS = new Progress("[bench-jgf] ");

    /** The kernels of section 2 this runs: name on the command line, and JGF's name. */
    enum Kernel
    {
        LUFACT("lufact", "LUFact", "lufact"),
        SOR("sor", "SOR", "sor", "sor.SOR#Gtotal"),
        SPARSE("sparse", "SparseMatmult", "sparsematmult", "sparsematmult.SparseMatmult#ytotal"),
        CRYPT("crypt", "Crypt", "crypt");

        private static final String SECTION2 = "jgf_mpj_benchmarks.section2.";

        final String shortName;
        final String jgfName;
        private final String packageName;
        /** The static sums the kernel's validation reads, which a later run in the same JVM must start from 0. */
        private final List<String> sums;

        Kernel(final String shortName, final String jgfName, final String packageName, final String... sums)
        {
            this.shortName = shortName;
            this.jgfName = jgfName;
            this.packageName = packageName;
            this.sums = Arrays.stream(sums).map(sum -> SECTION2 + sum).toList();
        }

        String mainClass(final String size)
        {
            return SECTION2 + "JGF" + jgfName + "BenchSize" + size;
        }

        /** {@link JgfRepeated}'s arguments for {@code runs} runs of size {@code size} in one job. */
        List<String> repeatedArguments(final int runs, final String size)
        {
            final List<String> arguments = new ArrayList<>(List.of(Integer.toString(runs),
                SECTION2 + packageName + ".JGF" + jgfName + "Bench", Integer.toString(size.charAt(0) - 'A'),
                "Section2:" + jgfName + ":Kernel"));
            arguments.addAll(sums);
            return arguments;
        }
    }

    /** One column: its name, the device, and whether the shm ranks wait as before. */
    record Column(String name, MpjDevice device, boolean fixedWait)
    {
    }

    /** What one run measures, from the command line. */
    record Plan(Path sources, List<Integer> processCounts, List<String> sizes, List<Kernel> kernels,
        int repetitions, int runs, List<Column> columns, Path mpjHome)
    {
    }

    /** A cell's kernel seconds: each job's first run, and the median of each job's later runs (if it made any). */
    private record Seconds(List<Double> first, List<Double> later)
    {
        Seconds()
        {
            this(new ArrayList<>(), new ArrayList<>());
        }
    }

    static final Duration JOB_TIMEOUT = Duration.ofMinutes(5);
    static final int FULL_REPETITIONS = 5;
    /** The class that says a folder is a copy of JGF's MPJ benchmarks. */
    static final String MARKER = "section2/JGFLUFactBenchSizeA.java";

    private static final Pattern KERNEL_SECONDS =
        Pattern.compile("^Section2:(\\w+):Kernel:Size([ABC])\\s+([0-9.Ee+-]+) \\(s\\)", Pattern.MULTILINE);

    private final Plan plan;
    private final ReportOptions options;
    private final PrintStream out;

    private JgfBenchmark(final Plan plan, final ReportOptions options, final PrintStream out)
    {
        this.plan = plan;
        this.options = options;
        this.out = out;
    }

    public static void main(final String[] args) throws Exception
    {
        CommandLine.main(args, commandLine -> run(commandLine, System.out));
    }

    /**
     * Compiles and runs the benchmarks in the folder {@code args} name (see the class comment),
     * printing the table to {@code out}.
     *
     * @return 0 if every job ran and validated, 1 otherwise (the failures are printed).
     * @throws IllegalArgumentException with the usage if an argument is not understood, or if the
     *                                  folder is missing or is not a copy of JGF's MPJ benchmarks.
     */
    public static int run(final String[] args, final PrintStream out) throws Exception
    {
        final JgfOptions options = JgfOptions.parse(args);
        return new JgfBenchmark(options.plan(), options.report, out).run();
    }

    private int run() throws Exception
    {
        final Path classes = Files.createTempDirectory("kupl-jgf-");
        try
        {
            compile(plan.sources(), classes);
            return measure(classes);
        }
        finally
        {
            try (Stream<Path> files = Files.walk(classes))
            {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** Compiles JGF's utilities and section 2, unchanged, against MPJ Express's jar. */
    private static void compile(final Path sources, final Path classes) throws IOException
    {
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null)
        {
            throw new IllegalStateException("this Java has no compiler (javax.tools): run bin/bench with a JDK");
        }
        final List<String> files;
        try (Stream<Path> walk = Stream.concat(Files.walk(sources.resolve("jgfutil")),
            Files.walk(sources.resolve("section2"))))
        {
            files = walk.filter(path -> path.toString().endsWith(".java")).map(Path::toString).sorted().toList();
        }
        final List<String> arguments = new ArrayList<>(List.of("-d", classes.toString(), "-cp",
            Path.of(MpjHome.MPJ_LIB, "mpj.jar").toString(), "-encoding", "ISO-8859-1", "-nowarn", "-proc:none",
            "-Xlint:none"));
        arguments.addAll(files);
        PROGRESS.say("compiling " + files.size() + " files of " + sources);
        final ByteArrayOutputStream messages = new ByteArrayOutputStream();
        if (javac.run(null, messages, messages, arguments.toArray(String[]::new)) != 0)
        {
            throw new IllegalStateException("javac could not compile " + sources + " against " + MpjHome.MPJ_LIB +
                "/mpj.jar:\n" + messages.toString(StandardCharsets.UTF_8));
        }
    }

    private int measure(final Path classes) throws IOException
    {
        final ReportRun report = ReportRun.start("jgf", "Java Grande Forum MPJ benchmarks, section 2, as a user " +
            "runs them", options, out, List.of(
            "sources: " + plan.sources() + ", compiled unchanged against " + MpjHome.MPJ_LIB + "/mpj.jar",
            plan.repetitions() + " jobs per cell, " + (plan.runs() == 1 ? "one kernel run each (as JGF's " +
            "programs do)" : plan.runs() + " kernel runs each (bench.jgf.JgfRepeated: MPI initialised once, " +
            "then JGF's JGFrun " + plan.runs() + " times, as a long-running program works)") + ", the " +
            "columns of a row by turns; shm = bin/mpjrun's defaults" +
            (plan.columns().stream().anyMatch(Column::fixedWait) ? "; " + FixedWait.COLUMN + " = " +
            FixedWait.describe() : "") + "; multicore and niodev with MPJ Express's defaults"));

        final Map<String, Map<String, Seconds>> seconds = new LinkedHashMap<>();
        final List<String> failures = new ArrayList<>();
        for (final Kernel kernel : plan.kernels())
        {
            for (final String size : plan.sizes())
            {
                for (final int processes : plan.processCounts())
                {
                    final Map<String, Seconds> row = new LinkedHashMap<>();
                    plan.columns().forEach(column -> row.put(column.name(), new Seconds()));
                    for (int round = 1; round <= plan.repetitions(); round++)
                    {
                        for (final Column column : plan.columns())
                        {
                            PROGRESS.say(kernel.jgfName + " size " + size + ", " + processes + " ranks, " +
                                column.name() + ", job " + round + " of " + plan.repetitions());
                            final String failure = runJob(classes, kernel, size, processes, column,
                                row.get(column.name()));
                            if (failure != null)
                            {
                                failures.add(kernel.jgfName + " size " + size + ", " + processes + " ranks, " +
                                    column.name() + ": " + failure);
                            }
                        }
                    }
                    seconds.put(kernel.jgfName + "|" + size + "|" + processes, row);
                }
            }
        }
        if (plan.runs() > 1)
        {
            addTable(report, seconds, Seconds::later, "Kernel seconds from the second run of each job on (the " +
                "median of runs 2 to " + plan.runs() + " of a job, then the median (min-max) of the jobs):", true);
        }
        addTable(report, seconds, Seconds::first, "Kernel seconds " + (plan.runs() > 1 ? "of each job's first run, " :
            "") + "as each program prints them, median (min-max):", plan.runs() == 1);
        if (!failures.isEmpty())
        {
            report.add(new Text("FAILED (" + failures.size() + "):"));
            failures.forEach(failure -> report.add(new Text("- " + failure)));
            report.note(failures.size() + " jobs failed or did not validate (listed after the table).");
        }
        report.finish();
        return failures.isEmpty() ? 0 : 1;
    }

    /** Runs one job; adds its kernel seconds to {@code seconds}, or returns why there are none. */
    private String runJob(final Path classes, final Kernel kernel, final String size, final int processes,
        final Column column, final Seconds seconds)
    {
        final JobSpec spec = plan.runs() == 1 ?
            new JobSpec(processes, List.of(classes.toString()), List.of(), kernel.mainClass(size), List.of(), false) :
            new JobSpec(processes, List.of(classes.toString(), Jobs.codeLocation().toString()), List.of(),
                JgfRepeated.class.getName(), kernel.repeatedArguments(plan.runs(), size), false);
        final JobResult result;
        try
        {
            result = MpjJobs.run(column.device(), spec, JOB_TIMEOUT, plan.mpjHome(),
                column.fixedWait() ? FixedWait.environment(processes) : Map.of());
        }
        catch (final Exception e)
        {
            return "could not run: " + e;
        }
        final Matcher matcher = KERNEL_SECONDS.matcher(result.output());
        final List<Double> runs = new ArrayList<>();
        while (matcher.find())
        {
            if (matcher.group(1).equals(kernel.jgfName) && matcher.group(2).equals(size))
            {
                runs.add(Double.parseDouble(matcher.group(3)));
            }
        }
        final boolean timed = runs.size() == plan.runs();
        final boolean invalid = result.output().contains("Validation failed");
        if (!result.succeeded() || !timed || invalid)
        {
            return result.summary() + (timed ? "" : "; " + runs.size() + " kernel times printed, not " + plan.runs()) +
                (invalid ? "; Validation failed" : "") +
                "\n" + result.output().lines().map(line -> "    " + line).reduce((a, b) -> a + "\n" + b).orElse("");
        }
        seconds.first().add(runs.getFirst());
        if (runs.size() > 1)
        {
            seconds.later().add(Stat.median(runs.subList(1, runs.size())));
        }
        return null;
    }

    /**
     * A table of {@code which} of the cells' seconds under {@code title}, with shm's ratios to multicore and
     * niodev, and their charts where {@code charts}.
     */
    private void addTable(final ReportRun report, final Map<String, Map<String, Seconds>> seconds,
        final Function<Seconds, List<Double>> which, final String title, final boolean charts)
    {
        final List<String> columns = plan.columns().stream().map(Column::name).toList();
        final List<String> ratios = columns.stream().filter(name -> name.equals("multicore") || name.equals("niodev"))
            .toList();
        final List<String> header = new ArrayList<>(List.of("kernel", "size", "ranks"));
        header.addAll(columns);
        ratios.forEach(other -> header.add("shm/" + other));
        final Table table = new Table(header);
        final Map<String, List<Ratio>> bars = new LinkedHashMap<>();
        ratios.forEach(other -> bars.put(other, new ArrayList<>()));
        for (final Map.Entry<String, Map<String, Seconds>> entry : seconds.entrySet())
        {
            final String[] key = entry.getKey().split("\\|");
            final List<String> cells = new ArrayList<>(List.of(key[0], key[1], key[2]));
            for (final String column : columns)
            {
                cells.add(cell(which.apply(entry.getValue().get(column))));
            }
            for (final String other : ratios)
            {
                final List<Double> shm = which.apply(entry.getValue().get("shm"));
                final List<Double> reference = which.apply(entry.getValue().get(other));
                final Ratio ratio = Ratio.of(key[0] + " size " + key[1] + ", " + key[2] + " ranks",
                    shm.isEmpty() ? Double.NaN : Stat.median(shm),
                    reference.isEmpty() ? Double.NaN : Stat.median(reference), "s");
                bars.get(other).add(ratio);
                cells.add(ratio.isMeasured() ? String.format(Locale.ROOT, "%.2f", ratio.value()) : "n/a");
            }
            table.row(cells);
        }
        report.add(new Text(title));
        report.add(table);
        report.add(new Text("Seconds between the kernel timer's start and stop on rank 0, JIT compilation included. " +
            "Ratios: medians of shm with bin/mpjrun's defaults over the other device's (below 1: shm is faster)."));
        if (!charts)
        {
            return;
        }
        for (final Map.Entry<String, List<Ratio>> chart : bars.entrySet())
        {
            report.add(new Chart(chart.getKey(), "JGF section 2 kernel time on shm against " + chart.getKey(),
                "shm seconds / " + chart.getKey() + " seconds, medians of the jobs (below 1: shm is faster)",
                chart.getValue()));
        }
    }

    private static String cell(final List<Double> values)
    {
        if (values.isEmpty())
        {
            return "FAILED";
        }
        final double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
        return String.format(Locale.ROOT, "%.3f (%.3f-%.3f)", Stat.median(array), Stat.min(array),
            Stat.max(array));
    }

}
