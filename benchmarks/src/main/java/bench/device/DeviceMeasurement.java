package bench.device;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import bench.engine.EngineBenchmark;
import bench.engine.FenceRank;
import bench.harness.Jobs;
import bench.harness.MpjMulticore;
import bench.harness.Progress;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;
import mpjrun.ShmJob;

/**
 * The measuring part of {@link DeviceBenchmark}: runs each job of its rows on shm, then right after it the floor it
 * needs, the engine's fence, Open MPI's C programs, niodev and multicore, and keeps what they printed. A job that
 * fails leaves a note and no output; nothing here judges or formats a figure.
 */
final class DeviceMeasurement
{
    private static final Progress PROGRESS = new Progress("[bench-device] ");

    private final DeviceBenchmark.Settings settings;
    private final Path mpjHome;
    private final List<DeviceRow> rows;
    private final boolean multicore;
    private final boolean niodev;
    private final OpenMpiC c;
    private final List<String> notes;

    /**
     * @param c     Open MPI with its programs compiled ({@link #prepareOpenMpi}), or null for none.
     * @param notes where what could not be measured is noted, in order.
     */
    DeviceMeasurement(final DeviceBenchmark.Settings settings, final Path mpjHome, final List<DeviceRow> rows,
        final boolean multicore, final boolean niodev, final OpenMpiC c, final List<String> notes)
    {
        this.settings = settings;
        this.mpjHome = mpjHome;
        this.rows = rows;
        this.multicore = multicore;
        this.niodev = niodev;
        this.c = c;
        this.notes = notes;
    }

    /** Open MPI with its programs compiled, or null with a note saying why not. */
    static OpenMpiC prepareOpenMpi(final List<String> notes)
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

    /** The rows one job measures: the same program on as many processes. */
    static String jobKey(final DeviceRow row)
    {
        return program(row).getSimpleName() + " " + row.processes();
    }

    /** Runs every job of the rows, one job at a time, and returns what each printed. */
    DeviceOutputs measure() throws Exception
    {
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
            shmOutputs.put(key, runShm(program, processes, args));
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
                fenceOutputs.put(key, runFence(processes));
            }
            if (c != null)
            {
                for (final DeviceRow row : job.getValue())
                {
                    final String cKey = processes + " " + row.cPart();
                    if (!cOutputs.containsKey(cKey))
                    {
                        PROGRESS.say("Open MPI C, " + row.cPart() + ", " + processes + " ranks");
                        cOutputs.put(cKey, runC(row.cPart(), processes, loop));
                    }
                }
            }
            if (niodev)
            {
                PROGRESS.say("niodev, " + what);
                niodevOutputs.put(key, runNiodev(program, processes, args));
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
                        program, DeviceBenchmark.JVM_ARGS, args, DeviceBenchmark.JOB_TIMEOUT));
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
        return new DeviceOutputs(shmOutputs, multicoreOutputs, niodevOutputs, fenceOutputs, cOutputs, shortFloor,
            largeFloor, notes);
    }

    private static Class<?> program(final DeviceRow row)
    {
        return row.isPlain() ? PlainPingPong.class : DeviceRank.class;
    }

    private String runC(final String part, final int processes, final List<String> loop)
    {
        try
        {
            return c.run(part, processes, loop, DeviceBenchmark.JOB_TIMEOUT);
        }
        catch (final Exception e)
        {
            notes.add("Open MPI C, " + part + ", " + processes + " ranks, failed: " + e.getMessage());
            return null;
        }
    }

    /** The engine's fence on {@code processes} JVMs, as bench-engine measures it; null (and a note) on failure. */
    private String runFence(final int processes)
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

    private String runShm(final String program, final int processes, final List<String> args)
    {
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(output, true, StandardCharsets.UTF_8);
        final int status = ShmJob.run(new JobSpec(processes, List.of(Jobs.codeLocation().toString()),
            DeviceBenchmark.JVM_ARGS, program, args, false), stream, stream);
        final String text = output.toString(StandardCharsets.UTF_8);
        if (status != 0)
        {
            notes.add("shm, " + processes + " processes, exited with " + status + ":\n" + text);
        }
        return text;
    }

    private String runNiodev(final String program, final int processes, final List<String> args)
    {
        if (!MpjJobs.isAvailable(MpjDevice.NIODEV))
        {
            notes.add("niodev not measured: MPJ Express is not installed");
            return null;
        }
        try
        {
            final JobResult result = MpjJobs.run(MpjDevice.NIODEV, new JobSpec(processes,
                List.of(Jobs.codeLocation().toString()), DeviceBenchmark.JVM_ARGS, program, args, false),
                DeviceBenchmark.JOB_TIMEOUT, mpjHome);
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
}
