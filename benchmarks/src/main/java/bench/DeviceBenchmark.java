package bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoublePredicate;

import kupl.bootstrap.RankJvmDefaults;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import mpjrun.ShmJob;

/**
 * The {@code shm} device against MPJ Express's multicore mode (smpdev: ranks are threads of one
 * JVM) and niodev (one JVM per rank over loopback TCP, with a daemon of the job's own), in one
 * run, with the same program ({@link DeviceRank}) on each: ping-pong half round
 * trip for 8 B, 1 KiB, 64 KiB and 1 MiB, bandwidth for 1 MiB and 16 MiB messages, Barrier and
 * Allreduce of 8 doubles on 2 and 4 processes, Bcast of 1 MiB to 3 receivers. Prints one Markdown table.
 *
 * <p>In the same run, two references: the engine's own fence ({@link FenceRank} through
 * {@code kupl.bootstrap.LocalJob}, {@code KUPL_SHM_FENCE_ALGORITHM} as inherited, else its default) on the
 * process counts of the Barrier and Allreduce rows, which shared-memory collectives should come close to; and
 * Open MPI's C library ({@link OpenMpiC}: our osu-style C programs, the same loop as {@link DeviceRank}), where
 * {@code mpicc} is installed.
 *
 * <pre>
 * DeviceBenchmark [--quick] [--mpj-home DIR] [--only PART,...] [--no-multicore] [--no-niodev] [--no-openmpi]
 * </pre>
 * where a part is a {@link DeviceRank} part ({@code pingpong:8}, {@code bandwidth:1048576},
 * {@code barrier}, {@code allreduce}, {@code bcast:1048576}).
 */
public final class DeviceBenchmark
{
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

    /**
     * One row: a part of {@link DeviceRank}, on how many processes, its unit and target, and whether it is
     * compared with the engine's fence on as many processes.
     */
    private record Row(String label, String part, int processes, String unit, double scale, String target,
        DoublePredicate met, boolean againstFence)
    {
        Row(final String label, final String part, final int processes, final String unit, final double scale,
            final String target, final DoublePredicate met)
        {
            this(label, part, processes, unit, scale, target, met, part.equals("barrier") || part.equals("allreduce"));
        }

        /** Whether a larger figure is better (a rate), rather than a smaller one (a time). */
        boolean isRate()
        {
            return unit.equals("GB/s");
        }
    }

    private static final List<Row> ROWS = List.of(
        new Row("ping-pong half round trip, 8 B", "pingpong:8", 2, "us", 1e-3, "< 2 us", v -> v < 2_000),
        new Row("ping-pong half round trip, 1 KiB", "pingpong:1024", 2, "us", 1e-3, "", null),
        new Row("ping-pong half round trip, 64 KiB", "pingpong:65536", 2, "us", 1e-3, "", null),
        new Row("ping-pong half round trip, 1 MiB", "pingpong:1048576", 2, "us", 1e-3, "", null),
        new Row("bandwidth, 1 MiB messages", "bandwidth:1048576", 2, "GB/s", 1, ">= 4 GB/s", v -> v >= 4),
        new Row("bandwidth, 16 MiB messages", "bandwidth:16777216", 2, "GB/s", 1, "", null),
        new Row("Barrier, 2 processes", "barrier", 2, "us", 1e-3, "<= 5 us", v -> v <= 5_000),
        new Row("Allreduce 8 doubles, 2 processes", "allreduce", 2, "us", 1e-3, "", null),
        new Row("Barrier, 4 processes", "barrier", 4, "us", 1e-3, "<= 20 us", v -> v <= 20_000),
        new Row("Allreduce 8 doubles, 4 processes", "allreduce", 4, "us", 1e-3, "", null),
        new Row("Bcast 1 MiB to 3 receivers, per receiver", "bcast:1048576", 4, "GB/s", 1, ">= 4 GB/s", v -> v >= 4));

    private final Settings settings;
    private final Path mpjHome;
    private final List<Row> rows;
    private final boolean multicore;
    private final boolean niodev;
    private final boolean openMpi;
    private final PrintStream out;

    private DeviceBenchmark(final Settings settings, final Path mpjHome, final List<Row> rows, final boolean multicore,
        final boolean niodev, final boolean openMpi, final PrintStream out)
    {
        this.settings = settings;
        this.mpjHome = mpjHome;
        this.rows = rows;
        this.multicore = multicore;
        this.niodev = niodev;
        this.openMpi = openMpi;
        this.out = out;
    }

    public static void main(final String[] args) throws Exception
    {
        try
        {
            run(args, System.out);
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Runs the benchmark with {@code args} (see the class comment), printing the table to {@code out}.
     *
     * @throws IllegalArgumentException with the usage if an argument is not understood.
     */
    public static void run(final String[] args, final PrintStream out) throws Exception
    {
        Settings settings = FULL;
        Path mpjHome = EngineBenchmark.defaultMpjHome();
        List<Row> rows = ROWS;
        boolean multicore = true;
        boolean niodev = true;
        boolean openMpi = true;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--quick" -> settings = QUICK;
                case "--mpj-home" ->
                {
                    if (i + 1 == args.length)
                    {
                        throw usage("--mpj-home needs a directory");
                    }
                    mpjHome = Path.of(args[++i]).toAbsolutePath();
                }
                case "--only" ->
                {
                    if (i + 1 == args.length)
                    {
                        throw usage("--only needs parts");
                    }
                    final List<String> parts = List.of(args[++i].split(","));
                    final List<String> known = ROWS.stream().map(Row::part).distinct().toList();
                    for (final String part : parts)
                    {
                        if (!known.contains(part))
                        {
                            throw usage("--only names " + part + ", which is no part of " + known);
                        }
                    }
                    rows = ROWS.stream().filter(row -> parts.contains(row.part())).toList();
                }
                case "--no-multicore" -> multicore = false;
                case "--no-niodev" -> niodev = false;
                case "--no-openmpi" -> openMpi = false;
                default -> throw usage("unknown argument " + args[i]);
            }
        }
        new DeviceBenchmark(settings, mpjHome, rows, multicore, niodev, openMpi, out).run();
    }

    private static IllegalArgumentException usage(final String problem)
    {
        return new IllegalArgumentException(problem +
            "; usage: DeviceBenchmark [--quick] [--mpj-home DIR] [--only PART,...] [--no-multicore] [--no-niodev] " +
            "[--no-openmpi]");
    }

    private void run() throws Exception
    {
        final long startNs = System.nanoTime();
        out.println("# shm device benchmark" +
            (settings == QUICK ? " (--quick: smoke run, figures not meaningful)" : ""));
        out.println();
        out.println("- date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        out.println("- machine: " + Runtime.getRuntime().availableProcessors() + " cores; JVM " +
            System.getProperty("java.runtime.version") + ", shm ranks' JVMs with the launcher's defaults (" +
            String.join(" ", RankJvmDefaults.defaults(2, Runtime.getRuntime().availableProcessors())) +
            " for 2 ranks), MPJ Express's with the JDK's own");
        out.println("- settings: " + settings + "; load average at the start: " + Machine.loadAverage());
        out.println();

        final Map<Integer, List<String>> partsByProcesses = new LinkedHashMap<>();
        for (final Row row : rows)
        {
            partsByProcesses.computeIfAbsent(row.processes(), p -> new ArrayList<>()).add(row.part());
        }
        final List<String> notes = new ArrayList<>();
        final OpenMpiC c = openMpi ? prepareOpenMpi(notes) : null;
        out.println("- Open MPI C: " + (c == null ? (openMpi ? "not measured (see below)" : "--no-openmpi") :
            c.version() + ", mpirun " + c.runOptions()));
        out.println();
        final String mpjProblem = prepareMpj();
        final Map<String, String> shmOutputs = new LinkedHashMap<>();
        final Map<String, String> multicoreOutputs = new LinkedHashMap<>();
        final Map<String, String> niodevOutputs = new LinkedHashMap<>();
        final Map<String, String> fenceOutputs = new LinkedHashMap<>();
        final Map<String, String> cOutputs = new LinkedHashMap<>();
        for (final Map.Entry<Integer, List<String>> job : partsByProcesses.entrySet())
        {
            final int processes = job.getKey();
            final List<String> loop = List.of(Integer.toString(settings.warmupMs()),
                Integer.toString(settings.repetitions()), Long.toString(settings.repetitionTargetNs()));
            final List<String> args = new ArrayList<>(loop);
            args.addAll(job.getValue());
            progress("shm, " + processes + " processes");
            shmOutputs.put(Integer.toString(processes), runShm(processes, args, notes));
            if (rows.stream().anyMatch(row -> row.processes() == processes && row.againstFence()))
            {
                progress("engine fence, " + processes + " processes");
                fenceOutputs.put(Integer.toString(processes), runFence(processes, notes));
            }
            if (c != null)
            {
                for (final String part : job.getValue())
                {
                    progress("Open MPI C, " + part + ", " + processes + " ranks");
                    cOutputs.put(processes + " " + part, runC(c, part, processes, loop, notes));
                }
            }
            if (niodev)
            {
                progress("niodev, " + processes + " ranks");
                niodevOutputs.put(Integer.toString(processes), runNiodev(processes, args, notes));
            }
            if (!multicore)
            {
                continue;
            }
            if (mpjProblem == null)
            {
                progress("multicore, " + processes + " ranks");
                try
                {
                    multicoreOutputs.put(Integer.toString(processes), MpjMulticore.run(mpjHome, processes,
                        EngineBenchmark.codeLocation(), DeviceRank.class.getName(), JVM_ARGS, args, JOB_TIMEOUT));
                }
                catch (final IllegalStateException e)
                {
                    notes.add("multicore, " + processes + " ranks, failed: " + e.getMessage());
                }
            }
            else
            {
                notes.add("multicore not measured: " + mpjProblem);
            }
        }

        final String cMissing = openMpi ? "not installed" : "not measured";
        out.println("| measurement | shm | multicore (smpdev) | niodev | engine fence | shm / fence | Open MPI C | " +
            "shm / C | target | met |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (final Row row : rows)
        {
            final String processes = Integer.toString(row.processes());
            final EngineBenchmark.Stat shm = stat(shmOutputs.get(processes), row);
            final EngineBenchmark.Stat multicore = stat(multicoreOutputs.get(processes), row);
            final EngineBenchmark.Stat tcp = stat(niodevOutputs.get(processes), row);
            final EngineBenchmark.Stat fence = row.againstFence() ? fenceStat(fenceOutputs.get(processes),
                row.processes()) : null;
            final EngineBenchmark.Stat inC = stat(cOutputs.get(processes + " " + row.part()), row);
            final String fenceRatio = shm == null || fence == null ? "" : ratio(shm.median(), fence.median(), false);
            final List<String> met = new ArrayList<>();
            if (row.met() != null && shm != null)
            {
                met.add(row.met().test(shm.median()) ? "yes" : "NO");
            }
            if (!fenceRatio.isEmpty())
            {
                met.add(shm.median() <= FENCE_RATIO_TARGET * fence.median() ? "yes" : "NO");
            }
            final List<String> targets = new ArrayList<>();
            if (!row.target().isEmpty())
            {
                targets.add(row.target());
            }
            if (row.againstFence())
            {
                targets.add("<= " + FENCE_RATIO_TARGET + "x fence");
            }
            out.println("| " + row.label() + ", " + row.unit() + " | " +
                (shm == null ? "n/a" : cell(shm, row)) + " | " +
                (multicore == null ? "n/a" : cell(multicore, row)) + " | " +
                (tcp == null ? "n/a" : cell(tcp, row)) + " | " +
                (!row.againstFence() ? "" : fence == null ? "n/a" : cell(fence, row)) + " | " +
                fenceRatio + " | " +
                (inC != null ? cell(inC, row) : c == null ? cMissing : "n/a") + " | " +
                (shm == null || inC == null ? "" : ratio(shm.median(), inC.median(), row.isRate())) + " | " +
                String.join("; ", targets) + " | " + String.join(" / ", met) + " |");
        }
        out.println();
        out.println("Median over " + settings.repetitions() + " repetitions (min-max), each sized to last about " +
            settings.repetitionTargetNs() / 1_000_000 + " ms; a collective repetition counts as long as its slowest " +
            "rank. Bandwidth: messages sent back to back with blocking Send, one acknowledgement at the end. " +
            "shm: one JVM per rank (mpjrun.ShmJob); multicore: one JVM, one thread per rank; niodev: one JVM " +
            "per rank over loopback TCP (mpjrun.MpjJobs, with a daemon of its own). Engine fence: kupl's raw " +
            "fence on a one-word window, one JVM per process (kupl.bootstrap.LocalJob), after " +
            settings.warmupMs() + " ms of warm-up. Open MPI C: our C programs (benchmarks/src/main/c, " +
            "mpicc -O2), the same loop, sizing and units as the Java ranks, blocking MPI_Send/MPI_Recv. " +
            "Ratios compare times (for GB/s rows, the inverse of the rates): above 1 means shm takes longer.");
        notes.forEach(note -> out.println("\n" + note));
        out.printf(Locale.ROOT, "%nRun time: %.1f s; load average at the end: %s%n",
            (System.nanoTime() - startNs) / 1e9, Machine.loadAverage());
    }

    /** Time ratio of shm to a reference, {@code "1.23x"}; for rates, the reference's rate over shm's. */
    /**
     * "median (min-max)" in the row's unit: times under 10 us with two decimals, since the 2-process collectives
     * and the fence they are held against take 0.1-0.3 us, where one decimal would hide the ratio.
     */
    private static String cell(final EngineBenchmark.Stat stat, final Row row)
    {
        final boolean fine = !row.isRate() && stat.median() * row.scale() < 10;
        return stat.format(row.isRate() || fine ? "%.2f" : "%,.1f", row.scale());
    }

    private static String ratio(final double shm, final double reference, final boolean rate)
    {
        return String.format(Locale.ROOT, "%.2fx", rate ? reference / shm : shm / reference);
    }

    /** Open MPI with its programs compiled, or null with a note saying why not. */
    private static OpenMpiC prepareOpenMpi(final List<String> notes)
    {
        final StringBuilder whyNot = new StringBuilder();
        final OpenMpiC c = OpenMpiC.forModule(EngineBenchmark.codeLocation(), whyNot).orElse(null);
        if (c == null)
        {
            notes.add("Open MPI C not measured: " + whyNot);
            return null;
        }
        try
        {
            progress("Open MPI C: compiling with mpicc");
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
            return String.join("\n", EngineBenchmark.runLocalJob(FenceRank.class, processes, Map.of(),
                List.of(Integer.toString(settings.warmupMs()), Integer.toString(settings.repetitions()),
                    Long.toString(settings.repetitionTargetNs()))));
        }
        catch (final Exception e)
        {
            notes.add("engine fence, " + processes + " processes, failed: " + e.getMessage());
            return null;
        }
    }

    private static EngineBenchmark.Stat fenceStat(final String output, final int processes)
    {
        if (output == null)
        {
            return null;
        }
        final List<Samples.Line> lines = Samples.parse(output, "fence");
        return lines.isEmpty() ? null : EngineBenchmark.Stat.overRanks(lines, processes);
    }

    private String runShm(final int processes, final List<String> args, final List<String> notes)
    {
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(output, true, StandardCharsets.UTF_8);
        final int status = ShmJob.run(new JobSpec(processes, List.of(EngineBenchmark.codeLocation().toString()), JVM_ARGS,
            DeviceRank.class.getName(), args, false), stream, stream);
        final String text = output.toString(StandardCharsets.UTF_8);
        if (status != 0)
        {
            notes.add("shm, " + processes + " processes, exited with " + status + ":\n" + text);
        }
        return text;
    }

    private String runNiodev(final int processes, final List<String> args, final List<String> notes)
    {
        if (!MpjJobs.isAvailable(MpjDevice.NIODEV))
        {
            notes.add("niodev not measured: MPJ Express is not installed");
            return null;
        }
        try
        {
            final JobResult result = MpjJobs.run(MpjDevice.NIODEV, new JobSpec(processes,
                List.of(EngineBenchmark.codeLocation().toString()), JVM_ARGS, DeviceRank.class.getName(), args, false), JOB_TIMEOUT,
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

    private static EngineBenchmark.Stat stat(final String output, final Row row)
    {
        if (output == null)
        {
            return null;
        }
        final List<Samples.Line> lines = Samples.parse(output, row.part());
        if (lines.isEmpty())
        {
            return null;
        }
        final boolean pair = DeviceRank.isPointToPoint(row.part());
        return EngineBenchmark.Stat.overRanks(lines, pair ? 1 : row.processes());
    }

    private String prepareMpj()
    {
        final String reason = MpjHome.unavailableReason();
        if (reason != null)
        {
            return reason;
        }
        try
        {
            MpjHome.prepare(mpjHome);
            return null;
        }
        catch (final Exception e)
        {
            return "cannot build MPJ_HOME in " + mpjHome + ": " + e;
        }
    }

    private static void progress(final String what)
    {
        System.err.println("[bench-device] " + what);
    }
}
