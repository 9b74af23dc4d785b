package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import mpjrun.ClusterDevice;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjJobs;
import mpjrun.SimulatedCluster;
import xdev.shmdev.cluster.CollectiveResultsProgram;

/**
 * The shm device's two-level collectives across 2 simulated nodes of 2 ranks (the agent in every rank,
 * {@code kupl.agent.jar}): Allreduce, Reduce, Bcast, Gather and Allgather give every rank the same bits as
 * MPJ Express's own algorithms on niodev in the same cluster, and the shared-memory path did run them.
 * Skipped, with the reason, where namespaces cannot be made.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ClusterShmCollectivesIT
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);

    @Test
    void shouldGiveTheCollectivesResultsOfNiodevBitForBit() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
        final JobSpec spec = new JobSpec(4, MpjJobs.currentClassPath(), List.of(),
            CollectiveResultsProgram.class.getName(), List.of(), false);
        try (SimulatedCluster cluster = SimulatedCluster.start(2))
        {
            final JobResult niodev = cluster.run(spec, JOB_TIMEOUT, ClusterDevice.NIODEV).requireSuccess();
            final JobResult shm = cluster.run(spec, JOB_TIMEOUT, ClusterDevice.SHM).requireSuccess();

            assertEquals(4 * 4 + 2, results(niodev).size(), niodev.output());
            assertEquals(results(niodev), results(shm));
            for (int rank = 0; rank < 4; rank++)
            {
                // Init's and Finalize's own Barriers aside: at least the program's six collectives.
                assertTrue(handled(shm, rank) >= 6, "rank " + rank + " ran its collectives through MPJ Express's " +
                    "messages:\n" + shm.output());
            }
        }
    }

    private static List<String> results(final JobResult result)
    {
        return result.output().lines().filter(line -> line.startsWith("rank ")).sorted().toList();
    }

    private static long handled(final JobResult result, final int rank)
    {
        final String prefix = "collectives through shared memory on rank " + rank + ": ";
        return result.output().lines().filter(line -> line.startsWith(prefix))
            .mapToLong(line -> Long.parseLong(line.substring(prefix.length()).trim())).findFirst().orElse(-1);
    }
}
