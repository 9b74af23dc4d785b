package bench.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import mpjrun.ClusterDevice;
import mpjrun.DeviceName;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.SimulatedCluster;

/**
 * Where the devices of {@link ClusterBenchmark} plug in: {@link #runOn} runs one job on a
 * {@link SimulatedCluster} with the device named ({@link ClusterDevice}), and is the only place that knows
 * how each device's jobs are started there. A device the cluster cannot run fails here with
 * {@link UnsupportedOperationException}, whose message the benchmark prints as the reason its column was not
 * measured.
 */
final class ClusterJobs
{
    /** The devices a column can be measured on, in column order. */
    static final List<String> DEVICES = List.of(DeviceName.NIODEV.text(), DeviceName.HYBDEV.text(),
        DeviceName.SHM.text());

    private ClusterJobs()
    {
    }

    /**
     * Runs {@code spec} on {@code cluster} with {@code device} (one of {@link #DEVICES}) and waits for it to end,
     * at most {@code timeout}; ranks are placed in blocks, node 1 first.
     *
     * @throws UnsupportedOperationException if the cluster cannot run jobs on {@code device} yet, saying so.
     * @throws IllegalArgumentException      if {@code device} is not one of {@link #DEVICES}.
     * @throws IOException                   if the job cannot be started.
     */
    static JobResult runOn(final SimulatedCluster cluster, final String device, final JobSpec spec,
        final Duration timeout) throws IOException, InterruptedException
    {
        Objects.requireNonNull(device, "device");
        if (!DEVICES.contains(device))
        {
            throw new IllegalArgumentException("device=" + device + " is not one of " + DEVICES);
        }
        final ClusterDevice named = ClusterDevice.named(device);
        if (named == null)
        {
            throw new UnsupportedOperationException(device + " does not run on the simulated cluster yet");
        }
        return Objects.requireNonNull(cluster, "cluster").run(spec, timeout, named);
    }
}
