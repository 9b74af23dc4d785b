package mpi.rma.message;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import mpjrun.JobResult;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import mpjrun.SimulatedCluster;

/**
 * {@code Win.createDynamic} windows with attached memory ({@link DynamicWindowProgram}) on every
 * device, on one process, and across two simulated nodes.
 */
@Tag("slow")
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

        final JobResult result = MpjJobs.run(device, CaseJobs.spec(DynamicWindowProgram.class, 3),
            JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 3, CASES);
    }

    @Test
    void shouldPassEveryCaseOnASingleProcess() throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.SHM), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(MpjDevice.SHM, CaseJobs.spec(DynamicWindowProgram.class, 1),
            JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 1, CASES);
    }

    @Test
    void shouldPassEveryCaseAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);

        final JobResult result = MpjJobs.runOnSimulatedCluster(CaseJobs.spec(DynamicWindowProgram.class, 4),
            2, JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 4, CASES);
    }
}
