package xdev.shmdev.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.ExtendWith;

import mpjrun.OneJobAtATime;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import mpjrun.ClusterDevice;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjJobs;
import mpjrun.SimulatedCluster;

/**
 * The shm device across simulated nodes (shared memory within each, niodev between), run by MPJ Express's
 * daemons as a user's job would be: point-to-point over both paths ({@link ClusterExchangeProgram}) on 2 nodes
 * of 2 ranks, of unequal nodes (3 and 2) and on 3 nodes, with MPJ Express's collectives over it (the agent
 * module's {@code ClusterShmCollectivesIT} runs them in two levels). Skipped, with the reason, where
 * namespaces cannot be made.
 */
@ExtendWith(OneJobAtATime.class)
@Tag("slow")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ClusterShmDeviceTest
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);

    @Test
    void shouldExchangeOverBothPathsOnTwoNodesEqualAndUnequal() throws Exception
    {
        assumeNamespaces();
        try (SimulatedCluster cluster = SimulatedCluster.start(2))
        {
            for (final int ranks : new int[] {4, 5})
            {
                final JobResult result = cluster.run(exchange(ranks, 2), JOB_TIMEOUT, ClusterDevice.SHM)
                    .requireSuccess();
                expectEveryRank(result, ranks, "sizes ok", "any source ok", "ssend probe waits ok",
                    "no starvation ok", "collectives ok");
                assertTrue(result.output().contains("rank 0 device shm nodes=2 node ranks=[0, 1" +
                    (ranks == 5 ? ", 2]" : "]")), result.output());
            }
        }
    }

    @Test
    void shouldExchangeOverBothPathsOnThreeNodes() throws Exception
    {
        assumeNamespaces();
        try (SimulatedCluster cluster = SimulatedCluster.start(3))
        {
            final JobResult result = cluster.run(exchange(6, 3), JOB_TIMEOUT, ClusterDevice.SHM).requireSuccess();
            expectEveryRank(result, 6, "sizes ok", "any source ok", "no starvation ok", "collectives ok");
            assertTrue(result.output().contains("rank 5 device shm nodes=3 node ranks=[4, 5]"), result.output());
        }
    }

    private static JobSpec exchange(final int ranks, final int nodes)
    {
        return new JobSpec(ranks, MpjJobs.currentClassPath(), List.of(), ClusterExchangeProgram.class.getName(),
            List.of(Integer.toString(nodes)), false);
    }

    private static void expectEveryRank(final JobResult result, final int ranks, final String... lines)
    {
        for (int rank = 0; rank < ranks; rank++)
        {
            for (final String line : lines)
            {
                assertTrue(result.output().contains("rank " + rank + " " + line), "no 'rank " + rank + " " + line +
                    "' in\n" + result.output());
            }
            assertTrue(result.output().contains("DONE rank " + rank), result.output());
        }
    }

    private static void assumeNamespaces()
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
    }
}
