package bench.device;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import bench.engine.EngineBenchmark;
import bench.engine.FenceRank;
import bench.harness.CommandLine;
import bench.harness.Jobs;
import bench.harness.MpjMulticore;
import bench.harness.Progress;
import bench.harness.Samples;
import bench.harness.Stat;
import bench.report.Chart;
import bench.report.Ratio;
import bench.report.ReportOptions;
import bench.report.ReportRun;
import bench.report.Table;
import bench.report.Target;
import bench.report.Text;
import kupl.bootstrap.RankJvmDefaults;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;
import mpjrun.ShmJob;

/**
 * The {@code shm} device against MPJ Express's multicore mode (smpdev: ranks are threads of one
 * JVM) and niodev (one JVM per rank over loopback TCP, with a daemon of the job's own), in one
 * run, with the same program ({@link DeviceRank}) on each: ping-pong half round
 * trip for 8 B, 1 KiB, 64 KiB and 1 MiB, bandwidth for 1 MiB and 16 MiB messages, Barrier and
 * Allreduce of 8 doubles on 2 and 4 processes, Bcast of 1 MiB to 3 receivers; and a ping-pong written as
 * users write one ({@link PlainPingPong}: {@code Send} and {@code Recv} of a {@code byte[]}, warmed up in
 * batches with a {@code Bcast} between them) for 8 B, 1 KiB and 64 KiB. Prints one Markdown table.
 *
 * <p>In the same run, two references: the engine's own fence ({@link FenceRank} through
 * {@code kupl.bootstrap.LocalJob}, {@code KUPL_SHM_FENCE_ALGORITHM} as inherited, else its default) on the
 * process counts of the Barrier and Allreduce rows, which shared-memory collectives should come close to; and
 * Open MPI's C library ({@link OpenMpiC}: our osu-style C programs, the same loop as {@link DeviceRank}), where
 * {@code mpicc} is installed.
 *
 * <pre>
 * DeviceBenchmark [--quick] [--mpj-home DIR] [--only PART,...] [--no-multicore] [--no-niodev] [--no-openmpi]
 *                 [--report DIR] [--notes FILE]
 * </pre>
 * where a part is a {@link DeviceRank} part ({@code pingpong:8}, {@code bandwidth:1048576},
 * {@code barrier}, {@code allreduce}, {@code bcast:1048576}) or a plain ping-pong's ({@code plain:8}); a plain
 * row is held against Open MPI's C ping-pong of the same size. With {@code --report DIR} it also writes
 * {@code DIR/device.md} and its charts ({@link bench.report.ReportOptions}): shm against the engine's fence,
 * against Open MPI's C, against multicore and niodev, and against its targets, each as time ratios.
 */
public final class DeviceBenchmark
{
    private static final Progress PROGRESS = new Progress("[bench-device] ");

    /** How long each part (and the engine's fence) is warmed up, in ms, and measured. */
    record Settings(int warmupMs, int repetitions, long repetitionTargetNs)
    {
    }

    static final Settings FULL = new Settings(2_000, 7, 100_000_000L);
    static final Settings QUICK = new Settings(20, 2, 2_000_000L);
    /** Barrier and Allreduce on shared memory should take at most this many times the engine's fence. */
    static final double FENCE_RATIO_TARGET = 1.5;
    static final Duration JOB_TIMEOUT = Duration.ofMinutes(3);
    /**
     * No options of the benchmark's own: the shm ranks get the launcher's defaults (kupl.bootstrap.RankJvmDefaults)
     * as every shm job does, MPJ Express's JVMs the JDK's own, as their users run them.
     */
    static final List<String> JVM_ARGS = List.of();

    private static final double NONE = DeviceRow.NONE;
    /**
     * Point-to-point targets as time ratios to Open MPI's C library in the same run: a half round trip of 8 B
     * within 1.5x, 1 KiB within 2x, 64 KiB at or below it; bandwidth at or above it and the multicore device.
     * The plain rows ({@link PlainPingPong}, warmed up as a user's program is) are held to the same.
     */
    static final List<DeviceRow> ROWS = List.of(
        new DeviceRow("ping-pong half round trip, 8 B", "pingpong:8", 2, "us", 1e-3, 2_000, 1.5, NONE),
        new DeviceRow("ping-pong half round trip, 1 KiB", "pingpong:1024", 2, "us", 1e-3, NONE, 2, NONE),
        new DeviceRow("ping-pong half round trip, 64 KiB", "pingpong:65536", 2, "us", 1e-3, NONE, 1, NONE),
        new DeviceRow("ping-pong half round trip, 1 MiB", "pingpong:1048576", 2, "us", 1e-3, NONE, NONE, NONE),
        new DeviceRow("plain ping-pong (Send/Recv of byte[]) half round trip, 8 B", "plain:8", 2, "us", 1e-3, NONE,
            1.5, NONE),
        new DeviceRow("plain ping-pong half round trip, 1 KiB", "plain:1024", 2, "us", 1e-3, NONE, 2, NONE),
        new DeviceRow("plain ping-pong half round trip, 64 KiB", "plain:65536", 2, "us", 1e-3, NONE, 1, NONE),
        new DeviceRow("bandwidth, 1 MiB messages", "bandwidth:1048576", 2, "GB/s", 1, 4, 1, 1),
        new DeviceRow("bandwidth, 16 MiB messages", "bandwidth:16777216", 2, "GB/s", 1, NONE, 1, 1),
        new DeviceRow("Barrier, 2 processes", "barrier", 2, "us", 1e-3, 5_000, NONE, NONE),
        new DeviceRow("Allreduce 8 doubles, 2 processes", "allreduce", 2, "us", 1e-3, NONE, NONE, NONE),
        new DeviceRow("Barrier, 4 processes", "barrier", 4, "us", 1e-3, 20_000, NONE, NONE),
        new DeviceRow("Allreduce 8 doubles, 4 processes", "allreduce", 4, "us", 1e-3, NONE, NONE, NONE),
        new DeviceRow("Bcast 1 MiB to 3 receivers, per receiver", "bcast:1048576", 4, "GB/s", 1, 4, NONE, NONE));

    private final Settings settings;
    private final Path mpjHome;
    private final List<DeviceRow> rows;
    private final boolean multicore;
    private final boolean niodev;
    private final boolean openMpi;
    private final ReportOptions options;
    private final PrintStream out;

    private DeviceBenchmark(final Settings settings, final Path mpjHome, final List<DeviceRow> rows,
        final boolean multicore, final boolean niodev, final boolean openMpi, final ReportOptions options,
        final PrintStream out)
    {
        this.settings = settings;
        this.mpjHome = mpjHome;
        this.rows = rows;
        this.multicore = multicore;
        this.niodev = niodev;
        this.openMpi = openMpi;
        this.options = options;
        this.out = out;
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
     * Runs the benchmark with {@code args} (see the class comment), printing the table to {@code out}.
     *
     * @throws bench.harness.UsageException with the usage if an argument is not understood.
     */
    public static void run(final String[] args, final PrintStream out) throws Exception
    {
        final DeviceOptions options = DeviceOptions.parse(args);
        new DeviceBenchmark(options.settings, options.mpjHome, options.rows, options.multicore, options.niodev,
            options.openMpi, options.report, out).run();
    }

    private void run() throws Exception
    {
        final List<String> notes = new ArrayList<>();
        final OpenMpiC c = openMpi ? prepareOpenMpi(notes) : null;
        final boolean quick = settings == QUICK;
        final ReportRun report = ReportRun.start("device", "shm device benchmark" +
            (quick ? " (--quick: smoke run, figures not meaningful)" : ""), options, out, List.of(
            "ranks' JVMs: shm's with the launcher's defaults (" +
            String.join(" ", RankJvmDefaults.defaults(2, Runtime.getRuntime().availableProcessors())) +
            " for 2 ranks), MPJ Express's with the JDK's own", "settings: " + settings,
            "Open MPI C: " + (c == null ? (openMpi ? "not measured (see below)" : "--no-openmpi") :
            c.version() + ", mpirun " + c.runOptions())));
        if (quick)
        {
            report.note("Run with --quick: every row, tiny repetitions; the figures are not meaningful.");
        }

        final Map<String, List<DeviceRow>> rowsByJob = new LinkedHashMap<>();
        for (final DeviceRow row : rows)
        {
            rowsByJob.computeIfAbsent(jobKey(row), key -> new ArrayList<>()).add(row);
        }
        final String mpjProblem = MpjMulticore.prepare(mpjHome);
        final Map<String, String> shmOutputs = new LinkedHashMap<>();
        final Map<String, String> multicoreOutputs = new LinkedHashMap<>();
        final Map<String, String> niodevOutputs = new LinkedHashMap<>();
        final Map<String, String> fenceOutputs = new LinkedHashMap<>();
        final Map<String, String> cOutputs = new LinkedHashMap<>();
        final List<String> loop = List.of(Integer.toString(settings.warmupMs()),
            Integer.toString(settings.repetitions()), Long.toString(settings.repetitionTargetNs()));
        // Each floor is measured right after the shm job of its rows: how fast the two CPUs hand lines to each
        // other changes with where the host puts them, over minutes.
        ShortMessageFloor shortFloor = null;
        LargeMessageFloor largeFloor = null;
        for (final Map.Entry<String, List<DeviceRow>> job : rowsByJob.entrySet())
        {
            final String key = job.getKey();
            final DeviceRow first = job.getValue().getFirst();
            final int processes = first.processes();
            final String program = program(first).getName();
            final List<String> args = new ArrayList<>();
            if (first.isPlain())
            {
                args.add(Integer.toString(settings.warmupMs()));
                job.getValue().forEach(row -> args.add(Integer.toString(row.plainBytes())));
            }
            else
            {
                args.addAll(loop);
                job.getValue().forEach(row -> args.add(row.part()));
            }
            final String what = (first.isPlain() ? "plain ping-pong, " : "") + processes + " processes";
            PROGRESS.say("shm, " + what);
            shmOutputs.put(key, runShm(program, processes, args, notes));
            if (shortFloor == null && ShortMessageFloor.appliesTo(job.getValue()))
            {
                PROGRESS.say("line model: the floor of the 8-byte rows");
                shortFloor = ShortMessageFloor.measure(loop, notes);
            }
            if (largeFloor == null && LargeMessageFloor.appliesTo(job.getValue()))
            {
                PROGRESS.say("ring model: the floor of the bandwidth rows");
                largeFloor = LargeMessageFloor.measure(rows, loop, notes);
            }
            if (job.getValue().stream().anyMatch(DeviceRow::againstFence))
            {
                PROGRESS.say("engine fence, " + processes + " processes");
                fenceOutputs.put(key, runFence(processes, notes));
            }
            if (c != null)
            {
                for (final DeviceRow row : job.getValue())
                {
                    final String cKey = processes + " " + row.cPart();
                    if (!cOutputs.containsKey(cKey))
                    {
                        PROGRESS.say("Open MPI C, " + row.cPart() + ", " + processes + " ranks");
                        cOutputs.put(cKey, runC(c, row.cPart(), processes, loop, notes));
                    }
                }
            }
            if (niodev)
            {
                PROGRESS.say("niodev, " + what);
                niodevOutputs.put(key, runNiodev(program, processes, args, notes));
            }
            if (!multicore)
            {
                continue;
            }
            if (mpjProblem == null)
            {
                PROGRESS.say("multicore, " + what);
                try
                {
                    multicoreOutputs.put(key, MpjMulticore.run(mpjHome, processes, Jobs.codeLocation(),
                        program, JVM_ARGS, args, JOB_TIMEOUT));
                }
                catch (final IllegalStateException e)
                {
                    notes.add("multicore, " + what + ", failed: " + e.getMessage());
                }
            }
            else
            {
                notes.add("multicore not measured: " + mpjProblem);
            }
        }

        final String cMissing = openMpi ? "not installed" : "not measured";
        final Table table = new Table("measurement", "shm", "multicore (smpdev)", "niodev", "engine fence",
            "shm / fence", "Open MPI C", "shm / C", "target", "met");
        final List<Ratio> againstFence = new ArrayList<>();
        final List<Ratio> againstC = new ArrayList<>();
        final List<Ratio> againstMulticore = new ArrayList<>();
        final List<Ratio> againstNiodev = new ArrayList<>();
        final List<Ratio> againstTargets = new ArrayList<>();
        final Map<DeviceRow, Stat> shmStats = new LinkedHashMap<>();
        final Map<DeviceRow, Stat> cStats = new LinkedHashMap<>();
        final Map<DeviceRow, Stat> compiling = new LinkedHashMap<>();
        for (final DeviceRow row : rows)
        {
            final String key = jobKey(row);
            final Stat shm = stat(shmOutputs.get(key), row, row.part());
            final Stat multicore = stat(multicoreOutputs.get(key), row, row.part());
            final Stat tcp = stat(niodevOutputs.get(key), row, row.part());
            final Stat fence = row.againstFence() ? fenceStat(fenceOutputs.get(key), row.processes()) : null;
            final Stat inC = stat(cOutputs.get(row.processes() + " " + row.cPart()), row, row.cPart());
            shmStats.put(row, shm);
            cStats.put(row, inC);
            if (row.isPlain())
            {
                compiling.put(row, stat(shmOutputs.get(key), row, PlainPingPong.COMPILING + row.plainBytes()));
            }
            final Ratio fenceRatio = row.ratio(shm, fence).against(Target.atMost(FENCE_RATIO_TARGET));
            final Ratio cRatio = row.ratio(shm, inC);
            final Ratio multicoreRatio = row.ratio(shm, multicore);
            againstC.add(cRatio);
            againstMulticore.add(multicoreRatio);
            againstNiodev.add(row.ratio(shm, tcp));
            final List<String> met = new ArrayList<>();
            final List<String> targets = new ArrayList<>(row.targetTexts());
            final List<Ratio> goals = new ArrayList<>();
            if (row.hasTarget())
            {
                goals.add(row.againstTarget(shm));
            }
            if (!Double.isNaN(row.cTarget()))
            {
                goals.add(relabel(cRatio, row.label() + " (vs C)").against(Target.atMost(row.cTarget())));
            }
            if (!Double.isNaN(row.multicoreTarget()))
            {
                goals.add(relabel(multicoreRatio, row.label() + " (vs multicore)")
                    .against(Target.atMost(row.multicoreTarget())));
            }
            for (final Ratio goal : goals)
            {
                againstTargets.add(goal);
                if (goal.isMeasured())
                {
                    met.add(goal.metText());
                }
            }
            if (row.againstFence())
            {
                againstFence.add(fenceRatio);
                targets.add("<= " + FENCE_RATIO_TARGET + "x fence");
                if (fenceRatio.isMeasured())
                {
                    met.add(fenceRatio.metText());
                }
            }
            table.row(row.label() + ", " + row.unit(),
                row.figure(shm),
                row.figure(multicore),
                row.figure(tcp),
                !row.againstFence() ? "" : row.figure(fence),
                fenceRatio.textIfMeasured(),
                inC != null ? row.figure(inC) : c == null ? cMissing : "n/a",
                cRatio.textIfMeasured(),
                String.join("; ", targets), String.join(" / ", met));
        }
        report.add(table);
        report.add(new Text("Median over " + settings.repetitions() + " repetitions (min-max), each sized to last " +
            "about " + settings.repetitionTargetNs() / 1_000_000 + " ms; a collective repetition counts as long as " +
            "its slowest rank. Bandwidth: messages sent back to back with blocking Send, one acknowledgement at the " +
            "end. shm: one JVM per rank (mpjrun.ShmJob); multicore: one JVM, one thread per rank; niodev: one JVM " +
            "per rank over loopback TCP (mpjrun.MpjJobs, with a daemon of its own). Engine fence: kupl's raw " +
            "fence on a one-word window, one JVM per process (kupl.bootstrap.LocalJob), after " +
            settings.warmupMs() + " ms of warm-up. Open MPI C: our C programs (benchmarks/src/main/c, " +
            "mpicc -O2), the same loop, sizing and units as the Java ranks, blocking MPI_Send/MPI_Recv. " +
            "Plain ping-pong: bench.device.PlainPingPong, Send/Recv of a byte[] warmed up for " + settings.warmupMs() +
            " ms in batches of 1,000 round trips with a Bcast between them, then " + PlainPingPong.TIMED_BATCHES +
            " batches of about 100 ms (median, min-max), held against Open MPI C's ping-pong of the same size. " +
            "Ratios compare times (for GB/s rows, the inverse of the rates): above 1 means shm takes longer."));
        if (shortFloor != null)
        {
            report.add(shortFloor.table(rows, shmStats, cStats, compiling));
            report.add(ShortMessageFloor.explanation());
        }
        if (largeFloor != null)
        {
            report.add(largeFloor.table(rows, shmStats, cStats));
            report.add(LargeMessageFloor.explanation());
        }
        notes.forEach(note -> report.add(new Text(note)));
        notes.forEach(note -> report.note(note.lines().findFirst().orElse(note)));
        final String timeRatio = " (for GB/s rows, the inverse of the rates; above 1: shm takes longer)";
        addChart(report, new Chart("fence", "Barrier and Allreduce on shm against the engine's fence",
            "shm time / fence time" + timeRatio, againstFence));
        addChart(report, new Chart("targets", "shm against its targets",
            "shm time / target time" + timeRatio + ": at most 1 meets the target", againstTargets));
        addChart(report, new Chart("openmpi", "shm against Open MPI's C library",
            "shm time / Open MPI C time" + timeRatio, againstC));
        addChart(report, new Chart("multicore", "shm against MPJ Express multicore (smpdev)",
            "shm time / multicore time" + timeRatio, againstMulticore));
        addChart(report, new Chart("niodev", "shm against MPJ Express niodev (loopback TCP)",
            "shm time / niodev time" + timeRatio, againstNiodev));
        report.finish();
    }

    /** Adds {@code chart} unless none of its bars could be measured (a reference that was not run). */
    private static void addChart(final ReportRun report, final Chart chart)
    {
        if (chart.bars().stream().anyMatch(Ratio::isMeasured) || chart.bars().stream().anyMatch(Ratio::hasTarget))
        {
            report.add(chart);
        }
    }

    /** Open MPI with its programs compiled, or null with a note saying why not. */
    private static OpenMpiC prepareOpenMpi(final List<String> notes)
    {
        final StringBuilder whyNot = new StringBuilder();
        final OpenMpiC c = OpenMpiC.forModule(Jobs.codeLocation(), whyNot).orElse(null);
        if (c == null)
        {
            notes.add("Open MPI C not measured: " + whyNot);
            return null;
        }
        try
        {
            PROGRESS.say("Open MPI C: compiling with mpicc");
            c.compile();
            return c;
        }
        catch (final Exception e)
        {
            notes.add("Open MPI C not measured: " + e.getMessage());
            return null;
        }
    }

    private static String runC(final OpenMpiC c, final String part, final int processes, final List<String> loop,
        final List<String> notes)
    {
        try
        {
            return c.run(part, processes, loop, JOB_TIMEOUT);
        }
        catch (final Exception e)
        {
            notes.add("Open MPI C, " + part + ", " + processes + " ranks, failed: " + e.getMessage());
            return null;
        }
    }

    /** The engine's fence on {@code processes} JVMs, as bench-engine measures it; null (and a note) on failure. */
    private String runFence(final int processes, final List<String> notes)
    {
        try
        {
            return String.join("\n", Jobs.runLocalJob(FenceRank.class, processes, Map.of(),
                List.of(Integer.toString(settings.warmupMs()), Integer.toString(settings.repetitions()),
                    Long.toString(settings.repetitionTargetNs())), EngineBenchmark.JOB_TIMEOUT));
        }
        catch (final Exception e)
        {
            notes.add("engine fence, " + processes + " processes, failed: " + e.getMessage());
            return null;
        }
    }

    private static Stat fenceStat(final String output, final int processes)
    {
        if (output == null)
        {
            return null;
        }
        final List<Samples.Line> lines = Samples.parse(output, "fence");
        return lines.isEmpty() ? null : Stat.overRanks(lines, processes);
    }

    /** The rows one job measures: the same program on as many processes. */
    private static String jobKey(final DeviceRow row)
    {
        return program(row).getSimpleName() + " " + row.processes();
    }

    private static Class<?> program(final DeviceRow row)
    {
        return row.isPlain() ? PlainPingPong.class : DeviceRank.class;
    }

    private static Ratio relabel(final Ratio ratio, final String label)
    {
        return new Ratio(label, ratio.measured(), ratio.reference(), ratio.unit(), ratio.value(), ratio.target());
    }

    private String runShm(final String program, final int processes, final List<String> args,
        final List<String> notes)
    {
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(output, true, StandardCharsets.UTF_8);
        final int status = ShmJob.run(new JobSpec(processes, List.of(Jobs.codeLocation().toString()),
            JVM_ARGS, program, args, false), stream, stream);
        final String text = output.toString(StandardCharsets.UTF_8);
        if (status != 0)
        {
            notes.add("shm, " + processes + " processes, exited with " + status + ":\n" + text);
        }
        return text;
    }

    private String runNiodev(final String program, final int processes, final List<String> args,
        final List<String> notes)
    {
        if (!MpjJobs.isAvailable(MpjDevice.NIODEV))
        {
            notes.add("niodev not measured: MPJ Express is not installed");
            return null;
        }
        try
        {
            final JobResult result = MpjJobs.run(MpjDevice.NIODEV, new JobSpec(processes,
                List.of(Jobs.codeLocation().toString()), JVM_ARGS, program, args, false), JOB_TIMEOUT,
                mpjHome);
            if (!result.succeeded())
            {
                notes.add("niodev, " + processes + " ranks: " + (result.timedOut() ? "timed out" :
                    "failed") + "; what it measured is shown:\n" + result.output());
            }
            return result.output();
        }
        catch (final Exception e)
        {
            notes.add("niodev, " + processes + " ranks, failed: " + e);
            return null;
        }
    }

    /** The row's figure from a job's {@code output}, where its lines are those of {@code part}. */
    private static Stat stat(final String output, final DeviceRow row, final String part)
    {
        if (output == null)
        {
            return null;
        }
        final List<Samples.Line> lines = Samples.parse(output, part);
        if (lines.isEmpty())
        {
            return null;
        }
        final boolean pair = row.isPlain() || DeviceRank.isPointToPoint(row.part());
        return Stat.overRanks(lines, pair ? 1 : row.processes());
    }
}
