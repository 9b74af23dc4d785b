package mpi.rma.message;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import mpjrun.SimulatedCluster;

/**
 * {@code Win.createDynamic} windows with attached memory ({@link DynamicWindowProgram}) on every
 * device, on one process, and across two simulated nodes.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DynamicWindowTest
{
    private static final List<String> CASES = List.of("attach fence", "attach lock", "detached access",
        "linked list");
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);

    @ParameterizedTest(name = "{0}")
    @EnumSource(MpjDevice.class)
    void shouldPassEveryCaseOnOneNode(final MpjDevice device) throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(device), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(device, spec(3), JOB_TIMEOUT).requireSuccess();

        expectEveryCase(result, 3);
    }

    @Test
    void shouldPassEveryCaseOnASingleProcess() throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.SHM), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(MpjDevice.SHM, spec(1), JOB_TIMEOUT).requireSuccess();

        expectEveryCase(result, 1);
    }

    @Test
    void shouldPassEveryCaseAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);

        final JobResult result = MpjJobs.runOnSimulatedCluster(spec(4), 2, JOB_TIMEOUT).requireSuccess();

        expectEveryCase(result, 4);
    }

    private static JobSpec spec(final int ranks)
    {
        return new JobSpec(ranks, MpjJobs.currentClassPath(), List.of(), DynamicWindowProgram.class.getName(),
            List.of(), false);
    }

    private static void expectEveryCase(final JobResult result, final int ranks)
    {
        for (int rank = 0; rank < ranks; rank++)
        {
            for (final String name : CASES)
            {
                final String line = "rank " + rank + " " + name + " ok";
                assertTrue(result.output().lines().anyMatch(line::equals), () -> "no '" + line + "' in\n" +
                    result.output());
            }
        }
    }
}
