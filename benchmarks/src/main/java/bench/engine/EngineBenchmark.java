package bench.engine;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import bench.harness.CommandLine;
import bench.harness.Jobs;
import bench.harness.MpjMulticore;
import bench.harness.Progress;
import bench.harness.ReportOptions;
import bench.harness.Samples;
import bench.harness.Stat;
import bench.harness.UsageException;
import bench.report.Chart;
import bench.report.Ratio;
import bench.report.ReportRun;
import bench.report.Table;
import bench.report.Target;
import bench.report.Text;
import mpjrun.process.EngineJob;
import mpjrun.process.RankJvmDefaults;

/**
 * Measures the KUPL engine against MPJ Express in one run and prints one Markdown table per
 * part, each figure beside its reference and its target:
 * <ol>
 *   <li><b>Fence latency</b>, ns per fence, 2, 4 and 8 processes, algorithms {@code linear}
 *   ({@code KUPL_SHM_FENCE_ALGORITHM=1}) and {@code rd} ({@code =2}); reference: MPJ Express's
 *   {@code MPI.COMM_WORLD.Barrier()} in multicore mode with as many ranks
 *   ({@link FenceRank}, {@link MpjBarrierRank}).</li>
 *   <li><b>Alloc+free</b> of a window of 0 B, 4 KiB, 1 MiB and 64 MiB per process, 2 processes,
 *   {@code posix} and {@code sls}; reference: the page reservation alone ({@link AllocRank}).</li>
 *   <li><b>Copy bandwidth</b> from a neighbour's 64 MiB segment into one's own, 2 processes;
 *   reference: the same copy between two private off-heap segments ({@link CopyRank}).</li>
 * </ol>
 *
 * <p>Each configuration runs as its own job ({@code mpjrun.process.EngineJob}: one JVM per process;
 * MPJ Express: one JVM holding every rank), so none inherits another's state. A figure is the
 * median over {@link Settings#repetitions()} repetitions (minimum and maximum beside it); a
 * fence repetition counts as long as its slowest process. All settings are below; flags:
 * <pre>
 * --quick           smoke run: same rows, tiny repetitions (figures are not meaningful)
 * --mpj-home DIR    where to build the MPJ_HOME for MPJ Express (default: target/mpj-home)
 * --only PARTS      some of fence,alloc,copy (comma-separated); default all
 * --report DIR      also write DIR/engine.md and its charts (bench.harness.ReportOptions); --notes FILE
 * </pre>
 * Charts: each fence against MPJ Express's Barrier, alloc+free against the pages alone, the shared copy against
 * the private one, and every figure that has a target against it. Run it with {@code bin/bench engine}.
 */
public final class EngineBenchmark
{
    private static final Progress PROGRESS = new Progress("[bench] ");

    /**
     * How long and how often each part measures.
     *
     * @param warmupMs           how long fences (barriers) run untimed before a repetition is sized
     *                           (from 100 of them, then from one unmeasured repetition).
     * @param repetitions        measured repetitions per configuration (a median needs at least 5).
     * @param repetitionTargetNs how long one repetition of fences (barriers) should last.
     * @param allocWarmupPairs   unmeasured alloc+free pairs per size.
     * @param copyWarmup         unmeasured copies (the first one is reported apart: page faults).
     */
    public record Settings(int warmupMs, int repetitions, long repetitionTargetNs, int allocWarmupPairs,
        int copyWarmup)
    {
    }

    /** About 2 s per fence configuration: 1 s of warm-up, then 1 + 7 repetitions of ~100 ms. */
    public static final Settings FULL = new Settings(1_000, 7, 100_000_000L, 3, 2);
    /** Every row, in a few seconds: only shows that everything runs. */
    public static final Settings QUICK = new Settings(10, 5, 2_000_000L, 1, 1);

    /** Processes of each fence configuration (ranks for MPJ Express). */
    public static final int[] FENCE_PROCESSES = {2, 4, 8};
    /** Fence targets in ns, by the index of {@link #FENCE_PROCESSES}. */
    public static final long[] FENCE_TARGET_NS = {300, 4_000, 12_000};
    /** Window sizes per process of the alloc+free part; 0 measures everything but the pages. */
    public static final long[] ALLOC_SIZES_BYTES = {0, 4L << 10, 1L << 20, 64L << 20};
    /** Target for 64 MiB: alloc+free within this plus the time of the page reservation alone. */
    public static final long ALLOC_64_MIB_TARGET_NS = 5_000_000L;
    /** Segment size of the copy part. */
    public static final long COPY_BYTES = 64L << 20;
    /** Copy target, GB/s (10^9 bytes per second). */
    public static final double COPY_TARGET_GB_PER_S = 8.0;
    /** Processes of the alloc+free and copy parts. */
    public static final int PAIR = 2;
    /** A job that takes longer is killed and the run fails. */
    public static final Duration JOB_TIMEOUT = Duration.ofMinutes(2);
    /**
     * What the ranks' JVMs are started with: the engine's processes (EngineJob) get the project's rank JVM
     * defaults, as every launcher gives them; MPJ Express's one multicore JVM runs as its users run it.
     */
    static final String RANK_JVMS = "ranks' JVMs: the defaults of mpjrun.process.RankJvmDefaults (" +
        String.join(" ", RankJvmDefaults.defaults(4, Runtime.getRuntime().availableProcessors())) +
        " for 4 ranks), MPJ Express's multicore JVM with the JDK's own";

    private static final String[] SHM_TYPES = {"posix", "sls"};
    private static final String[][] FENCE_ALGORITHMS = {{"linear", "1"}, {"rd", "2"}};

    /** The parts {@code --only} chooses from. */
    static final List<String> PARTS = List.of("fence", "alloc", "copy");

    private final Settings settings;
    private final Path mpjHome;
    private final List<String> parts;
    private final ReportRun report;
    /** Every figure that has a target, against it, for the last chart. */
    private final List<Ratio> targets = new ArrayList<>();

    private EngineBenchmark(final Settings settings, final Path mpjHome, final List<String> parts,
        final ReportRun report)
    {
        this.settings = settings;
        this.mpjHome = mpjHome;
        this.parts = parts;
        this.report = report;
    }

    public static void main(final String[] args) throws Exception
    {
        CommandLine.main(args, commandLine ->
        {
            run(commandLine, System.out);
            return 0;
        });
    }

    /**
     * Runs the benchmark with {@code args} (see the class comment), printing the tables to {@code out}.
     *
     * @throws UsageException if an argument is not understood.
     */
    public static void run(final String[] args, final PrintStream out) throws Exception
    {
        final EngineOptions options = EngineOptions.parse(args);
        final Settings settings = options.settings;
        final boolean quick = settings == QUICK;
        final ReportRun report = ReportRun.start("engine", "KUPL engine benchmark" +
            (quick ? " (--quick: smoke run, figures not meaningful)" : ""), options.report, out, facts(settings));
        if (quick)
        {
            report.note("Run with --quick: every row, tiny repetitions; the figures are not meaningful.");
        }
        new EngineBenchmark(settings, options.mpjHome, options.parts, report).run();
    }

    private void run() throws Exception
    {
        if (parts.contains("fence"))
        {
            fencePart();
        }
        if (parts.contains("alloc"))
        {
            allocPart();
        }
        if (parts.contains("copy"))
        {
            copyPart();
        }
        report.add(Text.heading(2, "Against the targets"));
        report.add(new Chart("targets", "Engine figures against their targets",
            "figure / target (for GB/s, target / figure): at most 1 meets the target", targets));
        report.finish();
    }

    /** What the stamp does not say: the ranks' JVMs, the settings and the KUPL_* variables every job inherits. */
    private static List<String> facts(final Settings settings)
    {
        final Map<String, String> kupl = new TreeMap<>(System.getenv());
        kupl.keySet().removeIf(name -> !name.startsWith("KUPL_"));
        return List.of(RANK_JVMS, "settings: " + settings,
            "KUPL_* variables inherited by every job: " + (kupl.isEmpty() ? "none (defaults)" :
            kupl.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "))));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Part 1 and its reference: fence latency against MPJ Express's Barrier.
    // ---------------------------------------------------------------------------------------------------------------

    private void fencePart() throws Exception
    {
        final List<String> args = List.of(Integer.toString(settings.warmupMs()),
            Integer.toString(settings.repetitions()), Long.toString(settings.repetitionTargetNs()));
        final String mpjProblem = MpjMulticore.prepare(mpjHome);
        final List<String> footnotes = new ArrayList<>();
        if (mpjProblem != null)
        {
            footnotes.add("MPJ Express Barrier not measured: " + mpjProblem);
        }

        final Table table = new Table("processes", "linear, ns/fence", "rd, ns/fence", "MPJ Express Barrier, ns",
            "target", "met: linear / rd", "ops per repetition: linear / rd / MPJ");
        final List<Ratio> againstBarrier = new ArrayList<>();
        for (int index = 0; index < FENCE_PROCESSES.length; index++)
        {
            final int processes = FENCE_PROCESSES[index];
            final Stat[] fences = new Stat[FENCE_ALGORITHMS.length];
            for (int a = 0; a < FENCE_ALGORITHMS.length; a++)
            {
                PROGRESS.say("fence, " + FENCE_ALGORITHMS[a][0] + ", " + processes + " processes");
                final List<String> outputs = Jobs.runLocalJob(FenceRank.class, processes,
                    Map.of("KUPL_SHM_FENCE_ALGORITHM", FENCE_ALGORITHMS[a][1]), args, JOB_TIMEOUT);
                fences[a] = Stat.overRanks(Samples.parse(String.join("\n", outputs), "fence"), processes);
            }
            Stat barrier = null;
            if (mpjProblem == null)
            {
                PROGRESS.say("MPJ Express Barrier, " + processes + " ranks");
                try
                {
                    final String output = MpjMulticore.run(mpjHome, processes, Jobs.codeLocation(),
                        MpjBarrierRank.class.getName(), List.of(), args, JOB_TIMEOUT);
                    barrier = Stat.overRanks(Samples.parse(output, "barrier"), processes);
                }
                catch (final IllegalStateException e)
                {
                    footnotes.add("MPJ Express Barrier, " + processes + " ranks, failed: " + e.getMessage());
                }
            }
            final long targetNs = FENCE_TARGET_NS[index];
            final Ratio[] met = new Ratio[FENCE_ALGORITHMS.length];
            for (int a = 0; a < FENCE_ALGORITHMS.length; a++)
            {
                final String label = FENCE_ALGORITHMS[a][0] + " fence, " + processes + " processes";
                met[a] = Ratio.of(label, fences[a].median(), targetNs, "ns").against(Target.atMost(1));
                targets.add(met[a]);
                againstBarrier.add(Ratio.of(label, fences[a].median(), barrier == null ? Double.NaN :
                    barrier.median(), "ns"));
            }
            table.row(
                Integer.toString(processes),
                fences[0].format("%,.0f"),
                fences[1].format("%,.0f"),
                barrier == null ? "n/a" : barrier.format("%,.0f"),
                "<= " + formatNs(targetNs),
                met[0].metText() + " / " + met[1].metText(),
                fences[0].ops() + " / " + fences[1].ops() + " / " + (barrier == null ? "n/a" : barrier.ops()));
        }
        report.add(Text.heading(2, "Fence latency (reference: MPJ Express Barrier, multicore mode)"));
        report.add(table);
        report.add(new Text("Median over " + settings.repetitions() + " repetitions (min-max); a repetition counts " +
            "as long as its slowest process. After " + settings.warmupMs() + " ms of untimed ones, a repetition " +
            "is sized to last about " + settings.repetitionTargetNs() / 1_000_000 + " ms from a timed run, then " +
            "again from one unmeasured repetition. Engine: one JVM per process; MPJ Express: one JVM, one thread " +
            "per rank."));
        footnotes.forEach(note -> report.add(new Text(note)));
        report.add(new Chart("fence", "Engine fence against MPJ Express's Barrier (multicore)",
            "fence time / Barrier time (below 1: the fence is faster)", againstBarrier));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Part 2: alloc+free against the page reservation alone.
    // ---------------------------------------------------------------------------------------------------------------

    private void allocPart() throws Exception
    {
        final String sizes = Arrays.stream(ALLOC_SIZES_BYTES).mapToObj(Long::toString)
            .collect(Collectors.joining(","));
        final Table table = new Table("KUPL_SHM_TYPE", "window per process", "alloc+free on rank 0, ms",
            "slowest process, ms", "minus size-0 window, ms", "pages alone: reserve + release, ms (bytes)",
            "alloc+free minus pages, ms", "target");
        final List<Ratio> againstPages = new ArrayList<>();
        for (final String type : SHM_TYPES)
        {
            PROGRESS.say("alloc+free, " + type + ", " + PAIR + " processes");
            final List<String> args = List.of(sizes, Integer.toString(settings.allocWarmupPairs()),
                Integer.toString(settings.repetitions()));
            final String output = String.join("\n",
                Jobs.runLocalJob(AllocRank.class, PAIR, Map.of("KUPL_SHM_TYPE", type), args, JOB_TIMEOUT));
            final Stat empty = Stat.ofRank(Samples.parse(output, "alloc-0"), 0);
            for (final long sizeBytes : ALLOC_SIZES_BYTES)
            {
                final List<Samples.Line> pairLines = Samples.parse(output, "alloc-" + sizeBytes);
                final Stat rank0 = Stat.ofRank(pairLines, 0);
                final Stat slowest = Stat.overRanks(pairLines, PAIR);
                final List<Samples.Line> reserveLines = Samples.parse(output, "reserve-" + sizeBytes);
                String pages = "";
                String overhead = "";
                String target = "";
                if (!reserveLines.isEmpty())
                {
                    final Stat reserve = Stat.of(reserveLines);
                    final Stat release = Stat.of(Samples.parse(output, "release-" + sizeBytes));
                    final double pagesNs = reserve.median() + release.median();
                    pages = formatMs(reserve.median()) + " + " + formatMs(release.median()) + " (" +
                        formatBytes(reserve.ops()) + ")";
                    overhead = formatMs(rank0.median() - pagesNs);
                    againstPages.add(Ratio.of(type + ", " + formatBytes(sizeBytes), rank0.median() / 1e6,
                        pagesNs / 1e6, "ms"));
                    if (sizeBytes == (64L << 20))
                    {
                        final double limitNs = ALLOC_64_MIB_TARGET_NS + pagesNs;
                        final Ratio met = Ratio.of("alloc+free, " + type + ", " + formatBytes(sizeBytes),
                            rank0.median() / 1e6, limitNs / 1e6, "ms").against(Target.atMost(1));
                        targets.add(met);
                        target = "<= 5 ms + pages = " + formatMs(limitNs) + ": " + met.metText();
                    }
                }
                table.row(
                    type,
                    formatBytes(sizeBytes),
                    rank0.format("%,.3f", 1e-6),
                    formatMs(slowest.median()),
                    sizeBytes == 0 ? "" : formatMs(rank0.median() - empty.median()),
                    pages,
                    overhead,
                    target);
            }
        }
        report.add(Text.heading(2, "Window alloc+free, " + PAIR + " processes (reference: the pages alone)"));
        report.add(table);
        report.add(new Text("alloc+free: from before allocate to after close, both processes started together by " +
            "an out-of-band barrier; median over " + settings.repetitions() + " pairs (min-max) after " +
            settings.allocWarmupPairs() + " unmeasured; slowest process: the larger of the two per pair. " +
            "Pages alone: open(O_TMPFILE) + fallocate (reserve), then close (release: frees the pages) in the " +
            "same tmpfs, each process at once reserving what it reserves for that window (posix: its own segment; " +
            "sls: rank 0 the whole object, as costly as the engine's per-process parts of one file, which tmpfs " +
            "serialises), timed on rank 0. In a window, whichever process unmaps an " +
            "object last pays its release. Few warm-up pairs: allocation is rare in applications, so its code " +
            "runs cold, as here."));
        report.add(new Chart("alloc", "Window alloc+free against the pages alone (rank 0)",
            "alloc+free time / reserve + release time (above 1: the engine's own cost on top)", againstPages));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Part 3: copy bandwidth from a neighbour's segment against a private copy.
    // ---------------------------------------------------------------------------------------------------------------

    private void copyPart() throws Exception
    {
        final Table table = new Table("KUPL_SHM_TYPE", "rank 0's segment -> rank 1's, GB/s",
            "private copy in rank 1, GB/s", "shared / private", "first shared copy (page faults), GB/s", "target");
        final List<Ratio> againstPrivate = new ArrayList<>();
        for (final String type : SHM_TYPES)
        {
            PROGRESS.say("copy, " + type + ", " + PAIR + " processes");
            final String output = Jobs.runLocalJob(CopyRank.class, PAIR, Map.of("KUPL_SHM_TYPE", type),
                List.of(Long.toString(COPY_BYTES), Integer.toString(settings.copyWarmup()),
                    Integer.toString(settings.repetitions())), JOB_TIMEOUT)
                .get(1);
            final Stat shared = Stat.of(Samples.parse(output, "copy-shared"));
            final Stat reference = Stat.of(Samples.parse(output, "copy-private"));
            final Stat first = Stat.of(Samples.parse(output, "copy-first"));
            final Ratio share = Ratio.of(type, shared.median(), reference.median(), "GB/s");
            againstPrivate.add(share);
            final Ratio met = Ratio.ofRatesAsTimes("copy of a neighbour's segment, " + type, shared.median(),
                COPY_TARGET_GB_PER_S, "GB/s").against(Target.atMost(1));
            targets.add(met);
            table.row(
                type,
                shared.format("%.2f"),
                reference.format("%.2f"),
                String.format(Locale.ROOT, "%.0f%%", 100 * share.value()),
                String.format(Locale.ROOT, "%.2f", first.median()),
                ">= " + COPY_TARGET_GB_PER_S + " GB/s: " + met.metText());
        }
        report.add(Text.heading(2, "Copy of a neighbour's " + formatBytes(COPY_BYTES) + " segment, " + PAIR +
            " processes (reference: private off-heap copy)"));
        report.add(table);
        report.add(new Text("MemorySegment.copy on rank 1 after a fence; GB/s = 10^9 bytes copied per second; median " +
            "over " + settings.repetitions() + " copies (min-max) after " + settings.copyWarmup() + " unmeasured. " +
            "Private: two Arena.ofConfined segments of the same size in the same process, same scheme."));
        report.add(new Chart("copy", "Copy bandwidth from a neighbour's segment against a private copy",
            "shared copy's GB/s / private copy's GB/s (below 1: slower than a private copy)", againstPrivate));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Formatting.
    // ---------------------------------------------------------------------------------------------------------------


    private static String formatNs(final long ns)
    {
        return ns < 1_000 ? ns + " ns" : ns / 1_000 + " us";
    }

    private static String formatMs(final double ns)
    {
        return String.format(Locale.ROOT, "%,.3f", ns / 1e6);
    }

    private static String formatBytes(final long bytes)
    {
        if (bytes >= (1L << 20) && bytes % (1L << 20) == 0)
        {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= (1L << 10) && bytes % (1L << 10) == 0)
        {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
