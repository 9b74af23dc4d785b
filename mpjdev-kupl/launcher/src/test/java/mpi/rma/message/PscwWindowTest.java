package mpi.rma.message;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import mpjrun.SimulatedCluster;

/**
 * Post, start, complete, waitFor and test ({@link PscwWindowProgram}) on every flavour: on every device
 * on one node, on one process, and across two simulated nodes (where allocateShared cannot be made and
 * Win.allocate mixes flag words and messages); and a process that dies in an epoch
 * ({@link PscwDeadPeerProgram}).
 */
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PscwWindowTest
{
    private static final List<String> KINDS = List.of("ring", "nocheck", "test", "misuse");
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);

    @ParameterizedTest(name = "{0}")
    @EnumSource(MpjDevice.class)
    void shouldPassEveryCaseOnOneNode(final MpjDevice device) throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(device), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(device, CaseJobs.spec(PscwWindowProgram.class, 3),
            JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 3, cases("shared", "allocate", "create", "dynamic"));
    }

    @Test
    void shouldPassEveryCaseOnASingleProcess() throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.SHM), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(MpjDevice.SHM, CaseJobs.spec(PscwWindowProgram.class, 1),
            JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 1, cases("shared", "allocate", "create", "dynamic"));
    }

    @Test
    void shouldPassEveryCaseAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);

        final JobResult result = MpjJobs.runOnSimulatedCluster(CaseJobs.spec(PscwWindowProgram.class, 4),
            2, JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 4, cases("allocate", "create", "dynamic"));
    }

    /** niodev and multicore never fail a receive from a dead process: the shm device only (docs/faults.md). */
    @ParameterizedTest(name = "{0} window, {1} dies")
    @CsvSource({"shared, origin", "shared, target", "create, origin", "create, target"})
    void shouldFailTheWaiterOnADeadPeerNamingIt(final String flavour, final String role) throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.SHM), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(MpjDevice.SHM, new JobSpec(2, MpjJobs.currentClassPath(), List.of(),
            PscwDeadPeerProgram.class.getName(), List.of(flavour, role), false), JOB_TIMEOUT,
            MpjHome.defaultDirectory(), Map.of("KUPL_SHM_LIVENESS_MS", "100"));

        final String outcome = result.output().lines().filter(line -> line.startsWith("rank 0 dead peer "))
            .findFirst().orElseThrow(() -> new AssertionError("rank 0 did not report\n" + result.output()));
        assertTrue(outcome.startsWith("rank 0 dead peer ERR_PROC_FAILED ") && outcome.contains("rank 1 "),
            outcome + "\n" + result.output());
    }

    private static List<String> cases(final String... flavours)
    {
        return java.util.Arrays.stream(flavours).flatMap(flavour -> KINDS.stream().map(kind -> kind + " " + flavour))
            .toList();
    }
}
