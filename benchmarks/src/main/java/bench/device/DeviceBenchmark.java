package bench.device;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import bench.engine.FenceRank;
import bench.harness.CommandLine;
import bench.harness.ReportOptions;
import bench.report.ReportRun;
import mpjrun.process.RankJvmDefaults;

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
 * {@code mpjrun.process.EngineJob}, {@code KUPL_SHM_FENCE_ALGORITHM} as inherited, else its default) on the
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
 * {@code DIR/device.md} and its charts ({@link bench.harness.ReportOptions}): shm against the engine's fence,
 * against Open MPI's C, against multicore and niodev, and against its targets, each as time ratios.
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
     * No options of the benchmark's own: the shm ranks get the launcher's defaults (mpjrun.process.RankJvmDefaults)
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

    /** Measures, then judges, then renders: each in a class of its own. */
    private void run() throws Exception
    {
        final List<String> notes = new ArrayList<>();
        final OpenMpiC c = openMpi ? DeviceMeasurement.prepareOpenMpi(notes) : null;
        final ReportRun report = DevicePage.start(settings, c, openMpi, options, out);
        final DeviceOutputs outputs = new DeviceMeasurement(settings, mpjHome, rows, multicore, niodev, c, notes)
            .measure();
        DevicePage.finish(report, settings, rows, outputs, DeviceJudgement.of(rows, outputs), c != null, openMpi);
    }
}
