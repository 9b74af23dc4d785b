package mpi.rma.message;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import mpjrun.JobResult;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import mpjrun.SimulatedCluster;

/**
 * {@code Win.allocate} windows ({@link AllocateWindowProgram}): every target through shared memory on
 * one node, and both paths in one window across two simulated nodes.
 */
@Tag("slow")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AllocateWindowTest
{
    private static final List<String> CASES = List.of("allocate paths", "accumulate both paths", "lock both paths");
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void shouldReachEveryTargetThroughSharedMemoryOnOneNode() throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.SHM), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(MpjDevice.SHM, CaseJobs.spec(AllocateWindowProgram.class, 4),
            JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 4, CASES);
    }

    @Test
    void shouldMixBothPathsAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);

        final JobResult result = MpjJobs.runOnSimulatedCluster(CaseJobs.spec(AllocateWindowProgram.class, 4),
            2, JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 4, CASES);
    }
}
