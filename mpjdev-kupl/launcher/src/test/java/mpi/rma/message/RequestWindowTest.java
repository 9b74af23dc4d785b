package mpi.rma.message;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
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
 * Request-based RMA ({@link RequestWindowProgram}) on every flavour: on every device on one node (where
 * shared-memory paths complete at once and the message paths of create and createDynamic wait for replies),
 * and across two simulated nodes (where allocate reaches the other node by messages too).
 */
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RequestWindowTest
{
    private static final List<String> CASES = List.of("rput ring", "rget many", "rget unlock", "raccumulate",
        "request rules");
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(100);

    @ParameterizedTest(name = "{0}")
    @EnumSource(MpjDevice.class)
    void shouldPassEveryCaseOnOneNode(final MpjDevice device) throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(device), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(device, CaseJobs.spec(RequestWindowProgram.class, 3),
            JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 3, cases(List.of("allocateShared", "create", "allocate", "createDynamic")));
    }

    @Test
    void shouldPassEveryCaseAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);

        final JobResult result = MpjJobs.runOnSimulatedCluster(CaseJobs.spec(RequestWindowProgram.class, 4),
            2, JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 4, cases(List.of("create", "allocate", "createDynamic")));
    }

    private static List<String> cases(final List<String> flavours)
    {
        final List<String> names = new ArrayList<>();
        for (final String flavour : flavours)
        {
            CASES.forEach(c -> names.add(c + " " + flavour));
        }
        return names;
    }
}
