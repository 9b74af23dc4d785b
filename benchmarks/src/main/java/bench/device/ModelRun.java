package bench.device;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import bench.harness.Samples;
import bench.harness.Stat;
import mpjrun.JobResult;
import mpjrun.MpjJobs;

/**
 * One run of a floor model ({@link RingModel}, {@link LineModel}) in a JVM of its own, as the device's ranks
 * run in theirs, and the figures it printed.
 */
final class ModelRun
{
    private final String output;

    private ModelRun(final String output)
    {
        this.output = output;
    }

    /**
     * Runs {@code model}'s main with {@code arguments}; a failure leaves a note in {@code notes} and a run
     * without figures.
     */
    static ModelRun of(final Class<?> model, final List<String> arguments, final List<String> notes)
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), model.getName()));
        command.addAll(arguments);
        try
        {
            final JobResult result = MpjJobs.runCommand(command, Map.of(), Path.of("."), DeviceBenchmark.JOB_TIMEOUT);
            if (!result.succeeded())
            {
                notes.add(model.getSimpleName() + " failed:\n" + result.output());
            }
            return new ModelRun(result.output());
        }
        catch (final Exception e)
        {
            notes.add(model.getSimpleName() + " failed: " + e);
            return new ModelRun("");
        }
    }

    /** The figures of {@code metric}, or null where the run printed none. */
    Stat stat(final String metric)
    {
        final List<Samples.Line> lines = Samples.parse(output, metric);
        return lines.isEmpty() ? null : Stat.of(lines);
    }
}
