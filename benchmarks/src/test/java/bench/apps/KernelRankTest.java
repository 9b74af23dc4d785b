package bench.apps;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import bench.harness.Samples;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;

/**
 * Every kernel, at its smoke-run size, runs as a real 2-rank job on shm and on MPJ Express's
 * multicore device, and its check passes (one job per device runs all five, one repetition each), with the
 * time its ranks spent in its MPI calls printed beside its time.
 */
@Tag("slow")
class KernelRankTest
{
    @ParameterizedTest
    @EnumSource(value = MpjDevice.class, names = {"SHM", "MULTICORE"})
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldPassEveryKernelsCheckAtTheQuickSize(final MpjDevice device) throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(device), "MPJ Express is not installed");
        final String kernels = String.join(",", List.of(Kernels.values()).stream().map(Kernels::shortName).toList());
        final JobSpec spec = new JobSpec(2, List.of(classes()), List.of(), KernelRank.class.getName(),
            List.of(kernels, "quick", "1"), false);
        final JobResult result = MpjJobs.run(device, spec, Duration.ofMinutes(2)).requireSuccess();
        for (final Kernels kernel : Kernels.values())
        {
            final String metric = KernelRank.metric(kernel, kernel.quickSize());
            assertTrue(result.output().contains(KernelRank.CHECK_PREFIX + metric.substring(KernelRank.METRIC_PREFIX
                .length()) + " passed: "), () -> "no passed check of " + kernel + " in:\n" + result.output());
            final List<Samples.Line> times = Samples.parse(result.output(), metric);
            assertTrue(times.size() == 1, () -> "no kernel time of " + kernel + " in:\n" + result.output());
            // Every kernel communicates; the time in its MPI calls is within the kernel's (a rank may leave the
            // first barrier a little before rank 0 starts its clock).
            final List<Samples.Line> communication = Samples.parse(result.output(),
                KernelRank.COMMUNICATION_PREFIX + metric.substring(KernelRank.METRIC_PREFIX.length()));
            assertTrue(communication.size() == 1, () -> "no communication time of " + kernel + " in:\n" +
                result.output());
            final double kernelMs = times.getFirst().values()[0];
            final double communicationMs = communication.getFirst().values()[0];
            assertTrue(communicationMs > 0 && communicationMs <= kernelMs * 1.1 + 1,
                () -> kernel + ": " + communicationMs + " ms in MPI calls of a " + kernelMs + " ms kernel");
        }
    }

    private static String classes()
    {
        try
        {
            return Path.of(KernelRank.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        }
        catch (final java.net.URISyntaxException e)
        {
            throw new IllegalStateException(e);
        }
    }
}
