package mpi.rma.message;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * {@code Win.create} windows reached by messages ({@link CreateWindowProgram}) on every device,
 * and across two simulated nodes.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class CreateWindowTest
{
    private static final List<String> CASES = List.of("fence double[]", "accumulate int[]", "fence large accumulate",
        "lock MemorySegment",
        "lockAll ByteBuffer", "busy target", "create checks", "allocate", "free in flight");
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);

    @ParameterizedTest(name = "{0}")
    @EnumSource(MpjDevice.class)
    void shouldPassEveryCaseOnOneNode(final MpjDevice device) throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(device), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(device, CaseJobs.spec(CreateWindowProgram.class, 3),
            JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 3, CASES);
    }

    @Test
    void shouldPassEveryCaseOnASingleProcess() throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.SHM), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(MpjDevice.SHM, CaseJobs.spec(CreateWindowProgram.class, 1),
            JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 1, CASES);
    }

    @Test
    void shouldPassEveryCaseAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);

        final JobResult result = MpjJobs.runOnSimulatedCluster(CaseJobs.spec(CreateWindowProgram.class, 4),
            2, JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 4, CASES);
    }

    /** niodev and multicore never fail a receive from a dead process: the shm device only (docs/faults.md). */
    @Test
    void shouldFailAnOriginWaitingOnADeadTargetNamingIt() throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.SHM), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(MpjDevice.SHM, new JobSpec(2, MpjJobs.currentClassPath(), List.of(),
            DeadTargetProgram.class.getName(), List.of(), false), JOB_TIMEOUT, MpjHome.defaultDirectory(),
            Map.of("KUPL_SHM_LIVENESS_MS", "100"));

        final String outcome = result.output().lines().filter(line -> line.startsWith("rank 0 dead target "))
            .findFirst().orElseThrow(() -> new AssertionError("rank 0 did not report\n" + result.output()));
        assertTrue(outcome.startsWith("rank 0 dead target ERR_PROC_FAILED ") && outcome.contains("rank 1 "),
            outcome + "\n" + result.output());
    }
}
