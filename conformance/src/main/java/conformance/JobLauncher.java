package conformance;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import mpjrun.MpjDevice;

/**
 * Starts one MPJ Express job and returns what it printed. The one place that knows how jobs
 * are launched, so that another launcher (the project's job kit, {@code mpjrun}) can take
 * over for every device.
 */
public interface JobLauncher
{
    /** What a job printed and how it ended. */
    record JobOutput(String output, boolean timedOut, int exitCode)
    {
    }

    /**
     * Whether this launcher can run jobs on {@code device} across {@code nodes} nodes (1: this machine
     * as it is); if not, the reason, else null.
     */
    String unavailableReason(MpjDevice device, int nodes);

    /**
     * Runs {@code mainClass} with {@code appArgs} on {@code processes} ranks of {@code device} spread
     * over {@code nodes} nodes, the ranks' environment extended by {@code environment}; kills the job
     * at {@code timeout}.
     */
    JobOutput run(MpjDevice device, int processes, int nodes, List<String> classPath, String mainClass,
        List<String> appArgs, Map<String, String> environment, Duration timeout)
        throws IOException, InterruptedException;
}
