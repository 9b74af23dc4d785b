package bench.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;

/**
 * Runs a reference program under MPJ Express 0.44 in multicore mode (ranks are threads of one JVM)
 * through the job kit ({@link MpjJobs}), with the MPJ_HOME of {@link mpjrun.MpjHome}.
 */
public final class MpjMulticore
{
    private MpjMulticore()
    {
    }

    /** Makes the MPJ_HOME in {@code home}; returns why MPJ Express cannot run, or null if it can. */
    public static String prepare(final Path home)
    {
        final String reason = MpjHome.unavailableReason();
        if (reason != null)
        {
            return reason;
        }
        try
        {
            MpjHome.prepare(home);
            return null;
        }
        catch (final Exception e)
        {
            return "cannot build MPJ_HOME in " + home + ": " + e;
        }
    }

    /**
     * Runs {@code mainClass} from {@code classPath} on {@code ranks} ranks and returns everything
     * it printed.
     *
     * @param jvmArgs options of the JVM that holds the ranks.
     * @throws IllegalStateException with the verdict and the output if the job failed or did not finish
     *         within {@code timeout} (it is killed then).
     */
    public static String run(final Path home, final int ranks, final Path classPath, final String mainClass,
        final List<String> jvmArgs, final List<String> appArgs, final Duration timeout)
        throws IOException, InterruptedException
    {
        final JobSpec spec = new JobSpec(ranks, List.of(classPath.toString()), jvmArgs, mainClass, appArgs, false);
        final JobResult result = MpjJobs.run(MpjDevice.MULTICORE, spec, timeout, home);
        if (!result.succeeded())
        {
            throw new IllegalStateException("MPJ Express job of " + ranks + " ranks: " + result.summary() +
                "; output:\n" + result.output());
        }
        return result.output();
    }
}
