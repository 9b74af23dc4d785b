package bench.scale;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import mpjrun.JobSpec;
import mpjrun.ShmJob;

/**
 * What a {@code shm} job costs as it grows: for each number of ranks, the device's shared memory
 * (its window: a doorbell and one queue per rank), beside what one 512 KiB ring per ordered pair
 * of ranks took before; the time from launch until rank 0 has left the first Barrier; and the
 * time the whole job ({@link StartupRank}: Init, Barrier, a line per rank, Finalize) takes from
 * launch to the launcher's return. Ranks run in small JVMs ({@link #RANK_JVM_ARGS}), so that 64
 * fit in memory.
 *
 * <p>Options: {@code --ranks 2,4,8,16,32,64} (the default), {@code --repetitions N} (default 1;
 * the median is printed), {@code --report DIR} and {@code --notes FILE} ({@link bench.harness.ReportOptions}:
 * {@code DIR/scale.md} with a chart of the device's memory against one ring per pair). A big job on a small
 * machine takes longer than the hub's default minute to arrive: run it as
 * {@code KUPL_SHM_ARRIVAL_MS=300000 bin/bench scale}.
 */
public final class ShmScaleBenchmark
{
    private static final Progress PROGRESS = new Progress("scale: ");

    /** Small rank JVMs: serial GC, a 64 MiB heap, C1 only. */
    static final List<String> RANK_JVM_ARGS = List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    /** What the device reserved per ordered pair of ranks before it had one queue per rank. */
    private static final long PAIR_RING_BYTES = 256 + 512 * 1024;
    private static final long DOORBELL_SLOT_BYTES = 256;
    private static final double MIB = 1 << 20;
    private static final Pattern FIRST_BARRIER = Pattern.compile("FIRST_BARRIER (\\d+)");
    private static final Pattern DEVICE_MEMORY = Pattern.compile("DEVICE_MEMORY (\\d+)");

    private ShmScaleBenchmark()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        CommandLine.main(args, commandLine ->
        {
            run(ScaleOptions.parse(commandLine));
            return 0;
        });
    }

    private static void run(final ScaleOptions options) throws Exception
    {
        final List<Integer> ranks = options.ranks;
        final int repetitions = options.repetitions;
        final ReportRun report = ReportRun.start("scale", "shm device memory and start-up by job size", options.report,
            System.out, List.of("rank JVMs: " + String.join(" ", RANK_JVM_ARGS), repetitions + " job" +
            (repetitions == 1 ? "" : "s") + " per size (the median is printed)"));
        final Table table = new Table("ranks", "device memory, MiB", "one ring per pair (before), MiB",
            "launch to first Barrier, s", "whole job, s");
        final List<Ratio> memory = new ArrayList<>();
        for (final int processes : ranks)
        {
            final double[] barrierS = new double[repetitions];
            final double[] jobS = new double[repetitions];
            long memoryBytes = 0;
            for (int repetition = 0; repetition < repetitions; repetition++)
            {
                PROGRESS.say(processes + " ranks, repetition " + (repetition + 1));
                final double[] measured = runJob(processes);
                barrierS[repetition] = measured[0];
                jobS[repetition] = measured[1];
                memoryBytes = (long)measured[2];
            }
            memory.add(Ratio.of(processes + " ranks", memoryBytes / MIB, pairRingsBytes(processes) / MIB, "MiB"));
            table.row(Integer.toString(processes), String.format(Locale.ROOT, "%.2f", memoryBytes / MIB),
                String.format(Locale.ROOT, "%.1f", pairRingsBytes(processes) / MIB),
                String.format(Locale.ROOT, "%.1f", Stat.median(barrierS)),
                String.format(Locale.ROOT, "%.1f", Stat.median(jobS)));
        }
        report.add(table);
        report.add(new Text("Device memory: the shm device's window (a doorbell and one queue per rank); before: " +
            "what one 512 KiB ring per ordered pair of ranks took. Times from launch (the launcher's start) to rank 0 " +
            "leaving its first Barrier, and to the launcher's return."));
        report.add(new Chart("memory", "shm device memory against one ring per pair of ranks (before)",
            "device memory / memory of one ring per ordered pair (below 1: less memory than before)", memory));
        report.finish();
    }

    /** Seconds from launch to rank 0's first Barrier and to the launcher's return, and the device's bytes. */
    private static double[] runJob(final int processes)
    {
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(output, true, StandardCharsets.UTF_8);
        final long launchMs = System.currentTimeMillis();
        final int status = ShmJob.run(new JobSpec(processes, List.of(Jobs.codeLocation().toString()),
            RANK_JVM_ARGS, StartupRank.class.getName(), List.of(), false), stream, stream);
        final long endMs = System.currentTimeMillis();
        final String text = output.toString(StandardCharsets.UTF_8);
        final Matcher barrier = FIRST_BARRIER.matcher(text);
        final Matcher memory = DEVICE_MEMORY.matcher(text);
        final long hellos = text.lines().filter(line -> line.startsWith("HELLO ")).count();
        if (status != 0 || !barrier.find() || !memory.find() || hellos != processes)
        {
            throw new IllegalStateException(processes + "-rank job failed (status " + status + ", " + hellos +
                " ranks said hello):\n" + text);
        }
        return new double[] {(Long.parseLong(barrier.group(1)) - launchMs) / 1e3, (endMs - launchMs) / 1e3,
            Long.parseLong(memory.group(1))};
    }

    private static long pairRingsBytes(final int processes)
    {
        return processes * (DOORBELL_SLOT_BYTES + processes * PAIR_RING_BYTES);
    }

}
