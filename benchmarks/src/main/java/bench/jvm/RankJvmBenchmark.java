package bench.jvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import bench.apps.LuFactorisation;
import bench.harness.CommandLine;
import bench.harness.Jobs;
import bench.harness.Progress;
import bench.harness.ReportOptions;
import bench.harness.Stat;
import bench.report.Chart;
import bench.report.Ratio;
import bench.report.ReportRun;
import bench.report.Table;
import bench.report.Text;
import kupl.KuplEnv;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import mpjrun.process.RankJvmDefaults;

/**
 * Rank JVM settings measured: each candidate set of options for the shm device's rank JVMs, by turns
 * (round after round, every candidate once per round, so that a change in the machine's load hits every
 * candidate alike), on
 * <ul>
 *   <li>LU's column broadcasts ({@link BcastPattern}, n = 1000) on 2 and 4 ranks, beside MPJ Express's
 *   multicore: microseconds per column, the median of the last half of the sweeps;</li>
 *   <li>a fresh 4-rank job's warm-up ({@link BarrierWarmup}): milliseconds from the launch to the first
 *   {@code Barrier}, the steady cost of a {@code Barrier} (median of the last 10 blocks of 1000) and when
 *   the job settled (from the first block after which none costs more than twice the steady cost, or
 *   the steady cost plus 5 us);</li>
 *   <li>a Hello job's wall time: 4 ranks, {@code MPI.Init}, one {@code Barrier}, {@code MPI.Finalize},
 *   from starting {@code mpjrun} to its end;</li>
 *   <li>a cold kernel, as the Java Grande kernels are run (one run per job, JIT compilation included):
 *   {@code bench.apps.LuFactorisation}, n = 1000, on 4 ranks, its kernel time.</li>
 * </ul>
 * Each cell is the median over the rounds (min-max). Jobs run through the job kit ({@link MpjJobs}), as
 * {@code bin/mpjrun} runs them; a candidate's options are given as {@code -jvmargs}, after the defaults
 * ({@code defaults}) or with the defaults off ({@code KUPL_RANK_JVM_DEFAULTS=off}). Every candidate but
 * {@code aot} and {@code agent} runs with the launcher's AOT cache off ({@code KUPL_RANK_AOT_CACHE=off}); those two
 * run with it on, in a cache directory of this run's own, trained by the first job (its time is printed), and
 * {@code agent} gives the ranks the kupl agent instead of the launcher's woven classes
 * ({@code KUPL_RANK_WOVEN_CLASSES=off}). The Hello job runs on MPJ Express's multicore too.
 *
 * <pre>RankJvmBenchmark [--rounds N] [--only NAME,...] [--quick] [--report DIR] [--notes FILE]</pre>
 * With {@code --report DIR} it also writes {@code DIR/jvm.md} and a chart per figure that MPJ Express's
 * multicore was measured on, each candidate against it ({@link bench.harness.ReportOptions}).
 */
public final class RankJvmBenchmark
{
    private static final Progress PROGRESS = new Progress("[bench-jvm] ");

    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(5);
    private static final int N = 1000;
    private static final int BLOCKS = 60;
    private static final int STEADY_BLOCKS = 10;

    /**
     * A set of rank JVM options: with or without the defaults, the launcher's AOT cache and its woven MPJ Express
     * classes (else the kupl agent in every rank), and options after them.
     */
    record Candidate(String name, boolean defaults, boolean aotCache, boolean woven, List<String> options,
        String meaning)
    {
        Candidate(final String name, final boolean defaults, final boolean aotCache, final List<String> options,
            final String meaning)
        {
            this(name, defaults, aotCache, true, options, meaning);
        }
    }

    static final List<Candidate> CANDIDATES = List.of(
        new Candidate("jdk", false, false, List.of(), "the JDK's own choices, no AOT cache"),
        new Candidate("defaults", true, false, List.of(), "RankJvmDefaults: " +
            String.join(" ", RankJvmDefaults.defaults(4, Runtime.getRuntime().availableProcessors())) +
            ", no AOT cache"),
        new Candidate("c1", true, false, List.of("-XX:TieredStopAtLevel=1"), "defaults + C1 only"),
        new Candidate("c2", true, false, List.of("-XX:-TieredCompilation"), "defaults + C2 only (no tiers)"),
        new Candidate("apc", true, false, List.of("-XX:ActiveProcessorCount=" +
            Math.max(1, Runtime.getRuntime().availableProcessors() / 4)), "defaults + ActiveProcessorCount=cores/4"),
        new Candidate("aot", true, true, List.of(), "defaults + the launcher's AOT cache (bin/mpjrun's defaults)"),
        new Candidate("agent", true, true, false, List.of(), "as aot, but the ranks get the kupl agent, which weaves " +
            "MPJ Express's collectives at each rank's start, instead of the launcher's woven classes " +
            "(KUPL_RANK_WOVEN_CLASSES=off)"));

    private final Path classes;
    private final Path home;
    private final int rounds;
    private final int sweeps;
    private final int blocks;
    /** The launcher's AOT cache directory of this run ({@code XDG_CACHE_HOME}), or null. */
    private Path aotCacheHome;
    private final ReportRun report;

    private RankJvmBenchmark(final int rounds, final boolean quick, final ReportRun report) throws IOException
    {
        this.report = report;
        this.classes = Jobs.codeLocation();
        this.home = MpjHome.prepare(Jobs.defaultMpjHome());
        this.rounds = rounds;
        this.sweeps = quick ? 4 : 20;
        this.blocks = quick ? 12 : BLOCKS;
    }

    public static void main(final String[] args) throws Exception
    {
        CommandLine.main(args, commandLine ->
        {
            run(RankJvmOptions.parse(commandLine));
            return 0;
        });
    }

    private static void run(final RankJvmOptions options) throws Exception
    {
        final int rounds = options.rounds;
        final boolean quick = options.quick;
        final List<Candidate> candidates = options.candidates;
        final List<String> facts = new ArrayList<>();
        facts.add(rounds + " rounds" + (quick ? " (--quick: " + 4 + " sweeps, 12 blocks)" : ""));
        candidates.forEach(c -> facts.add("`" + c.name() + "`: " + c.meaning()));
        final ReportRun report = ReportRun.start("jvm", "Rank JVM settings" +
            (quick ? " (--quick: smoke run, figures not meaningful)" : ""), options.report, System.out, facts);
        if (quick)
        {
            report.note("Run with --quick: few sweeps and blocks; the figures are not meaningful.");
        }
        new RankJvmBenchmark(rounds, quick, report).run(candidates);
        report.finish();
    }

    private void run(final List<Candidate> candidates) throws Exception
    {
        if (candidates.stream().anyMatch(Candidate::aotCache))
        {
            aotCacheHome = Files.createTempDirectory("kupl-rank-aot-");
            // One cache per class path: the woven classes come first on it, the agent's ranks have none.
            for (final Candidate candidate : candidates.stream().filter(Candidate::aotCache).toList())
            {
                trainAotCache(candidate);
            }
        }
        try
        {
            measureAndPrint(candidates);
        }
        finally
        {
            if (aotCacheHome != null)
            {
                try (Stream<Path> files = Files.walk(aotCacheHome))
                {
                    for (final Path file : files.sorted(Comparator.reverseOrder()).toList())
                    {
                        Files.deleteIfExists(file);
                    }
                }
            }
        }
    }

    private void measureAndPrint(final List<Candidate> candidates) throws Exception
    {
        final Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++)
        {
            for (final Candidate candidate : candidates)
            {
                PROGRESS.say("round " + (round + 1) + "/" + rounds + ": " + candidate.name());
                final Map<String, List<Double>> mine = figures.computeIfAbsent(candidate.name(),
                    name -> new LinkedHashMap<>());
                measure(candidate, mine);
            }
            PROGRESS.say("round " + (round + 1) + "/" + rounds + ": multicore");
            final Map<String, List<Double>> reference = figures.computeIfAbsent("multicore",
                k -> new LinkedHashMap<>());
            for (final int ranks : new int[] {2, 4})
            {
                add(reference, "bcast" + ranks, bcastUs(run(MpjDevice.MULTICORE, ranks, List.of(), Map.of(),
                    BcastPattern.class, List.of(Integer.toString(N), Integer.toString(sweeps))).output()));
            }
            add(reference, "lu-cold-ms", luColdMs(run(MpjDevice.MULTICORE, 4, List.of(), Map.of(),
                LuFactorisation.class, List.of(Integer.toString(N), "1")).output()));
            add(reference, "hello-ms", (double)run(MpjDevice.MULTICORE, 4, List.of(), Map.of(), BarrierWarmup.class,
                List.of(Long.toString(System.currentTimeMillis()), "0")).elapsed().toMillis());
        }
        final String[] metrics = {"bcast2", "bcast4", "first-ms", "steady-us", "settled-ms", "settled-barriers",
            "hello-ms", "lu-cold-ms"};
        final Table table = new Table("candidate", "Bcast pattern, 2 ranks, us/column", "4 ranks",
            "launch to first Barrier, ms", "steady Barrier, us", "settled after, ms", "settled after, Barriers",
            "Hello job, ms", "cold LU, 4 ranks, ms");
        for (final Map.Entry<String, Map<String, List<Double>>> row : figures.entrySet())
        {
            final List<String> cells = new ArrayList<>(List.of(row.getKey()));
            for (final String metric : metrics)
            {
                cells.add(cell(row.getValue().get(metric)));
            }
            table.row(cells);
        }
        report.add(table);
        report.add(new Text("Each cell: the median over the rounds (min-max); the candidates by turns, round after " +
            "round."));
        final String[][] charts = {{"bcast2", "bcast-2", "LU's Bcast pattern, 2 ranks"},
            {"bcast4", "bcast-4", "LU's Bcast pattern, 4 ranks"}, {"hello-ms", "hello", "A Hello job, 4 ranks"},
            {"lu-cold-ms", "lu-cold", "A cold LU, n = 1000, 4 ranks"}};
        final Map<String, List<Double>> multicore = figures.get("multicore");
        for (final String[] chart : charts)
        {
            final List<Ratio> bars = new ArrayList<>();
            for (final Candidate candidate : candidates)
            {
                bars.add(Ratio.of(candidate.name(), Stat.median(figures.get(candidate.name()).get(chart[0])),
                    Stat.median(multicore.get(chart[0])), chart[0].endsWith("-ms") ? "ms" : "us"));
            }
            report.add(new Chart(chart[1], chart[2] + ": each candidate on shm against MPJ Express multicore",
                "candidate's time / multicore's time, medians of the rounds (below 1: faster than multicore)", bars));
        }
    }


    private void measure(final Candidate candidate, final Map<String, List<Double>> figures) throws Exception
    {
        final Map<String, String> environment = environment(candidate);
        for (final int ranks : new int[] {2, 4})
        {
            add(figures, "bcast" + ranks, bcastUs(run(MpjDevice.SHM, ranks, candidate.options(), environment,
                BcastPattern.class, List.of(Integer.toString(N), Integer.toString(sweeps))).output()));
        }
        final JobResult warmup = run(MpjDevice.SHM, 4, candidate.options(), environment, BarrierWarmup.class,
            List.of(Long.toString(System.currentTimeMillis()), Integer.toString(blocks)));
        warmUp(warmup.output(), figures);
        final JobResult hello = run(MpjDevice.SHM, 4, candidate.options(), environment, BarrierWarmup.class,
            List.of(Long.toString(System.currentTimeMillis()), "0"));
        add(figures, "hello-ms", (double)hello.elapsed().toMillis());
        add(figures, "lu-cold-ms", luColdMs(run(MpjDevice.SHM, 4, candidate.options(), environment,
            LuFactorisation.class, List.of(Integer.toString(N), "1")).output()));
    }

    /** The launcher's environment for a candidate: which defaults, and which AOT cache. */
    private Map<String, String> environment(final Candidate candidate)
    {
        final Map<String, String> environment = new HashMap<>();
        if (!candidate.defaults())
        {
            environment.put(RankJvmDefaults.SWITCH, "off");
        }
        if (candidate.aotCache())
        {
            environment.put(KuplEnv.KUPL_RANK_AOT_CACHE.name(), "on");
            environment.put("XDG_CACHE_HOME", aotCacheHome.toString());
        }
        else
        {
            environment.put(KuplEnv.KUPL_RANK_AOT_CACHE.name(), "off");
        }
        environment.put(KuplEnv.KUPL_RANK_WOVEN_CLASSES.name(), candidate.woven() ? "on" : "off");
        return environment;
    }

    /** The first job with the launcher's AOT cache on trains it (bin/mpjrun's first job does the same). */
    private void trainAotCache(final Candidate candidate) throws Exception
    {
        PROGRESS.say("training the launcher's AOT cache (the first job with it on)");
        final JobResult hello = run(MpjDevice.SHM, 4, candidate.options(), environment(candidate),
            BarrierWarmup.class, List.of(Long.toString(System.currentTimeMillis()), "0"));
        final String made = hello.output().lines().filter(l -> l.contains("AOT cache made in")).findFirst()
            .orElseThrow(() -> new IllegalStateException("the first job made no AOT cache (is every library entry " +
                "a jar? run through bin/bench):\n" + hello.output()));
        report.add(new Text("- the first job of `" + candidate.name() + "` trained its AOT cache: " +
            made.substring(made.indexOf("AOT cache made")) + ", that job " + hello.elapsed().toMillis() + " ms"));
    }

    private JobResult run(final MpjDevice device, final int ranks, final List<String> options,
        final Map<String, String> environment, final Class<?> main, final List<String> args) throws Exception
    {
        final JobSpec spec = new JobSpec(ranks, List.of(classes.toString()), options, main.getName(), args, false);
        final JobResult result = MpjJobs.run(device, spec, JOB_TIMEOUT, home, environment);
        result.requireSuccess();
        return result;
    }

    /** A kernel's first run, ms, from its summary line ("... on 4 ranks: 0.308 s first run, ..."). */
    static double luColdMs(final String output)
    {
        final String line = line(output, " s first run");
        return 1000 * Double.parseDouble(line.replaceAll(".*: ([0-9.]+) s first run.*", "$1"));
    }

    /** Median of the last half of the sweeps, us per column. */
    static double bcastUs(final String output)
    {
        final double[] sweeps = values(line(output, BcastPattern.PREFIX).split(":")[1]);
        return Stat.median(Arrays.copyOfRange(sweeps, sweeps.length / 2, sweeps.length));
    }

    private static void warmUp(final String output, final Map<String, List<Double>> figures)
    {
        final String line = line(output, BarrierWarmup.PREFIX);
        add(figures, "first-ms", Double.parseDouble(line.replaceAll(".* first-ms=(\\d+) .*", "$1")));
        final String[] blocks = line.split(":")[1].trim().split(" ");
        final double[] us = new double[blocks.length];
        final double[] endMs = new double[blocks.length];
        for (int b = 0; b < blocks.length; b++)
        {
            us[b] = Double.parseDouble(blocks[b].split("@")[0]);
            endMs[b] = Double.parseDouble(blocks[b].split("@")[1]);
        }
        final double steady = Stat.median(Arrays.copyOfRange(us, Math.max(0, us.length - STEADY_BLOCKS), us.length));
        final double bound = Math.max(2 * steady, steady + 5);
        int settled = us.length;
        while (settled > 0 && us[settled - 1] <= bound)
        {
            settled--;
        }
        add(figures, "steady-us", steady);
        // Settled at the end of the last block above the bound (or at the first Barrier).
        add(figures, "settled-ms", settled == 0 ? Double.parseDouble(line.replaceAll(".* first-ms=(\\d+) .*", "$1"))
            : endMs[settled - 1]);
        add(figures, "settled-barriers", (double)settled * BarrierWarmup.BLOCK);
    }

    private static String line(final String output, final String prefix)
    {
        return output.lines().filter(l -> l.contains(prefix)).findFirst()
            .orElseThrow(() -> new IllegalStateException("no '" + prefix + "' line in:\n" + output));
    }

    private static double[] values(final String text)
    {
        return Arrays.stream(text.trim().split("\\s+")).mapToDouble(Double::parseDouble).toArray();
    }

    private static void add(final Map<String, List<Double>> figures, final String metric, final double value)
    {
        figures.computeIfAbsent(metric, k -> new ArrayList<>()).add(value);
    }

    private static String cell(final List<Double> values)
    {
        if (values == null || values.isEmpty())
        {
            return "";
        }
        final double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
        final String number = Stat.median(array) >= 100 ? "%.0f" : "%.1f";
        return String.format(Locale.ROOT, number + " (" + number + "-" + number + ")", Stat.median(array),
            Stat.min(array), Stat.max(array));
    }
}
