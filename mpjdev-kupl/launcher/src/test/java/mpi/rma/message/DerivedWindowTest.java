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
 * Derived datatypes on windows reached by messages ({@link DerivedWindowProgram}): {@code Win.create},
 * {@code Win.createDynamic} and {@code Win.allocate} on every device on one node (where allocate reaches
 * its targets by loads and stores), and across two simulated nodes (where it reaches the other node's
 * by messages).
 */
@Tag("slow")
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class DerivedWindowTest
{
    private static final List<String> CASES = List.of("halo", "vector contiguous", "indexed hindexed", "nested",
        "accumulate atomic", "get accumulate", "requests", "range", "signature errors");
    private static final List<String> FLAVOURS = List.of("create", "allocate", "createDynamic");
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);

    @ParameterizedTest(name = "{0}")
    @EnumSource(MpjDevice.class)
    void shouldPassEveryCaseOnOneNode(final MpjDevice device) throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(device), () -> "skipped: " + MpjHome.unavailableReason());

        final JobResult result = MpjJobs.run(device, CaseJobs.spec(DerivedWindowProgram.class, 3),
            JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 3, cases());
    }

    @Test
    void shouldPassEveryCaseAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);

        final JobResult result = MpjJobs.runOnSimulatedCluster(CaseJobs.spec(DerivedWindowProgram.class, 4),
            2, JOB_TIMEOUT).requireSuccess();

        CaseJobs.expectEveryCase(result, 4, cases());
    }

    private static List<String> cases()
    {
        final List<String> names = new ArrayList<>();
        for (final String flavour : FLAVOURS)
        {
            CASES.forEach(c -> names.add(c + " " + flavour));
        }
        return names;
    }
}
