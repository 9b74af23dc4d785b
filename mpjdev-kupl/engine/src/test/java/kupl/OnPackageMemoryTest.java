package kupl;

import static kupl.FailureJobs.JOB_TIMEOUT;
import static kupl.FailureJobs.KUPL_ERROR_EXIT;
import static kupl.FailureJobs.env;
import static kupl.FailureJobs.outputWith;
import static kupl.FailureJobs.start;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import kupl.bootstrap.LocalJob;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code KUPL_SHM_ON_PACKAGE=y}: on-package memory is a NUMA node with memory and no CPU
 * ({@link MemoryNodes#memoryOnlyNodes}, checked on fake sysfs trees); on a machine without one
 * every process fails at allocation with a clear error, never silently using ordinary memory.
 */
@Timeout(60)
class OnPackageMemoryTest
{
    @TempDir
    Path sysfs;

    @Test
    void shouldFindTheNodesWithMemoryAndNoCpus() throws IOException
    {
        node("node0", "0-1", 24_000_000);
        node("node1", "", 16_777_216);
        node("node2", "", 0);
        Files.writeString(sysfs.resolve("possible"), "0-2\n");
        Files.createDirectories(sysfs.resolve("power"));

        assertEquals(List.of(1), MemoryNodes.memoryOnlyNodes(sysfs));
    }

    @Test
    void shouldFindNoMemoryOnlyNodeWhenEveryNodeHasCpus() throws IOException
    {
        node("node0", "0-1", 24_000_000);
        node("node1", "2-3", 24_000_000);

        assertEquals(List.of(), MemoryNodes.memoryOnlyNodes(sysfs));
    }

    @Test
    void shouldFindNoMemoryOnlyNodeWithoutNumaInformation()
    {
        assertEquals(List.of(), MemoryNodes.memoryOnlyNodes(sysfs.resolve("absent")));
    }

    @Test
    void shouldFailOnEveryProcessWithoutOnPackageMemory() throws Exception
    {
        final List<Integer> nodes = MemoryNodes.memoryOnlyNodes(MemoryNodes.SYSFS_NODES);
        Assumptions.assumeTrue(nodes.isEmpty(), "this machine has memory-only NUMA nodes " + nodes);
        try (LocalJob job = start(FaultRank.class, 2,
            env(sysfs, "KUPL_SHM_TYPE", "sls", "KUPL_SHM_ON_PACKAGE", "y"), "bytes=4096"))
        {
            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertArrayEquals(new int[]{KUPL_ERROR_EXIT, KUPL_ERROR_EXIT}, codes, job.outputs());
            for (int rank = 0; rank < 2; rank++)
            {
                final String error = outputWith(job, rank, "error: ").lines().filter(l -> l.startsWith("error: ")).findFirst().orElse("");
                assertTrue(error.contains("KUPL_SHM_ON_PACKAGE=y") && error.contains("on-package") &&
                    error.contains("set KUPL_SHM_ON_PACKAGE=n"), "rank " + rank + "\n" + job.outputs());
            }
        }
    }

    /** A node directory as Linux shows it: {@code cpulist} and a per-node {@code meminfo}. */
    private void node(final String name, final String cpus, final long memTotalKb) throws IOException
    {
        final Path node = Files.createDirectories(sysfs.resolve(name));
        Files.writeString(node.resolve("cpulist"), cpus + "\n");
        Files.writeString(node.resolve("meminfo"), "Node " + name.substring(4) + " MemTotal:       " + memTotalKb +
            " kB\nNode " + name.substring(4) + " MemFree:        " + memTotalKb / 2 + " kB\n");
    }
}
