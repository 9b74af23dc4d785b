package conformance;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import mpjrun.ClusterDevice;
import mpjrun.SimulatedCluster;

/**
 * Launches through the project's job kit ({@link MpjJobs}): MPJ Express's starter for
 * multicore (ranks are threads of one JVM) and niodev (one JVM per rank, with a daemon of the
 * job's own), {@code bin/mpjrun}'s launcher for shm; niodev across the nodes of a
 * {@link SimulatedCluster} made for the job when it spans nodes. The {@code KUPL_SHM_*} settings go into
 * every process's environment.
 */
public final class JobKitLauncher implements JobLauncher
{
    @Override
    public String unavailableReason(final MpjDevice device, final int nodes)
    {
        if (!MpjJobs.isAvailable(device))
        {
            return "MPJ Express is not installed (apt-get install libmpj-java)";
        }
        return nodes > 1 ? SimulatedCluster.unavailableReason() : null;
    }

    @Override
    public JobOutput run(final MpjDevice device, final int processes, final int nodes, final List<String> classPath,
        final String mainClass, final List<String> appArgs, final Map<String, String> environment,
        final Duration timeout) throws IOException, InterruptedException
    {
        final JobSpec spec = new JobSpec(processes, classPath, List.of(), mainClass, appArgs, false);
        final JobResult result = nodes > 1 ?
            MpjJobs.runOnSimulatedCluster(device == MpjDevice.SHM ? ClusterDevice.SHM : ClusterDevice.NIODEV, spec,
                nodes, timeout, MpjHome.defaultDirectory(), environment) :
            MpjJobs.run(device, spec, timeout, MpjHome.defaultDirectory(), environment);
        // Not result.exitCode(): the cases' own messages name exceptions, which the kit reads as a failed job.
        return new JobOutput(result.output(), result.timedOut(), result.launcherExitCode());
    }
}
