package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Jobs across a {@link SimulatedCluster}: ranks on different nodes (network namespaces with host names
 * of their own), niodev between them, {@code Shared.split} one communicator per node, a shared window
 * across nodes refused on every rank, and nothing left behind. Tests that need namespaces are skipped,
 * with {@link SimulatedCluster#unavailableReason()}, where they are not allowed.
 */
@ExtendWith(OneJobAtATime.class)
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimulatedClusterTest
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
    private static final String MAIN = ClusterProgram.class.getName();

    @Test
    void shouldSpreadRanksOverNodesSplitPerNodeAndRefuseAWindowAcrossThem() throws Exception
    {
        assumeNamespaces();
        final String id;
        final List<String> hosts;
        final JobResult result;
        try (SimulatedCluster cluster = SimulatedCluster.start(2))
        {
            id = cluster.id();
            hosts = cluster.hostNames();
            result = cluster.run(new JobSpec(4, MpjJobs.currentClassPath(), List.of(), MAIN, List.of(), false),
                JOB_TIMEOUT).requireSuccess();
        }

        for (int rank = 0; rank < 4; rank++)
        {
            // MPJ Express places ranks in blocks in the machines file's order.
            expectLine(result, "rank " + rank + " of 4 host " + hosts.get(rank / 2));
            expectLine(result, "rank " + rank + " allgather ok");
            expectLine(result, "rank " + rank + " allreduce sum=6");
            expectLine(result, "rank " + rank + " node comm size=2 rank=" + rank % 2);
            expectLine(result, "rank " + rank + " node window ok");
            expectLine(result, "rank " + rank + " world window ERR_RMA_SHARED");
            expectLine(result, "DONE rank " + rank);
        }
        assertNothingLeft(id);
        System.out.printf("4 ranks on 2 simulated nodes: the job took %d ms%n", result.elapsed().toMillis());
    }

    @Test
    void shouldRunHybdevAcrossNodesOneJvmEachAndRefuseItsWindows() throws Exception
    {
        assumeNamespaces();
        final List<String> hosts;
        final JobResult result;
        try (SimulatedCluster cluster = SimulatedCluster.start(2))
        {
            hosts = cluster.hostNames();
            result = cluster.run(new JobSpec(4, MpjJobs.currentClassPath(), List.of(),
                HybdevWindowsProgram.class.getName(), List.of(), false), JOB_TIMEOUT, ClusterDevice.HYBDEV)
                .requireSuccess();
        }

        for (int rank = 0; rank < 4; rank++)
        {
            expectLine(result, "rank " + rank + " of 4 host " + hosts.get(rank / 2));
            expectLine(result, "rank " + rank + " Win.create ERR_UNSUPPORTED_OPERATION");
            expectLine(result, "rank " + rank + " allreduce sum=6");
            expectLine(result, "DONE rank " + rank);
        }
        assertTrue(result.output().contains("MPJ Express (0.44) is started in the cluster configuration with hybdev"),
            result.output());
        System.out.printf("hybdev, 4 ranks on 2 simulated nodes: the job took %d ms%n", result.elapsed().toMillis());
    }

    @Test
    void shouldRunAJobOnNewNodesWithOneCommand() throws Exception
    {
        assumeNamespaces();
        final List<String> command = new ArrayList<>(List.of(repositoryRoot().resolve("bin/mpjrun").toString(),
            "-np", "3", "-dev", "niodev", "-nodes", "2", "-cp", testClasses(), MAIN));
        final JobResult result = MpjJobs.runCommand(command, Map.of("KUPL_MPJRUN_CLASSPATH",
            System.getProperty("java.class.path"), "JAVA_HOME", System.getProperty("java.home")),
            Path.of(System.getProperty("user.dir")), JOB_TIMEOUT).requireSuccess();

        final String id = result.output().lines().filter(line -> line.startsWith("mpjrun: simulated cluster "))
            .map(line -> line.substring("mpjrun: simulated cluster ".length(), line.indexOf("n1,"))).findFirst()
            .orElseThrow(() -> new AssertionError("no 'mpjrun: simulated cluster' line in\n" + result.output()));
        // Three ranks over two nodes: MPJ Express puts two on the first.
        expectLine(result, "rank 0 of 3 host " + id + "n1");
        expectLine(result, "rank 2 of 3 host " + id + "n2");
        expectLine(result, "rank 2 node comm size=1 rank=0");
        expectLine(result, "rank 1 world window ERR_RMA_SHARED");
        assertNothingLeft(id);
    }

    @Test
    void shouldRemoveWhatAClusterOfADeadOwnerLeft() throws Exception
    {
        assumeNamespaces();
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final ClusterNames stale = new ClusterNames(gone.pid(), 1);
        HostCommand.run("ip", "netns", "add", stale.node(1));
        HostCommand.run("ip", "link", "add", stale.bridge(), "type", "bridge");
        HostsFile.locked(() ->
        {
            new HostsFile(HostsFile.ETC_HOSTS).add(List.of("10.77.255.1"), List.of(stale.node(1)), gone.pid());
            return null;
        });
        assertFalse(namesLeft(stale.id()).isEmpty(), "the stale resources were not made");

        HostsFile.locked(() ->
        {
            ClusterLeftovers.removeStale();
            return null;
        });

        assertNothingLeft(stale.id());
    }

    @Test
    void shouldRefuseNodesWithADeviceThatCannotSpanThem()
    {
        final Run run = Run.of("-np", "4", "-dev", "multicore", "-nodes", "2", MAIN);

        assertEquals(MpjRun.EXIT_USAGE, run.exitCode(), run.err());
        assertTrue(run.err().contains("mpjrun: -nodes with -dev multicore: multicore runs every rank as a thread of " +
            "one JVM on this node; give -dev niodev, hybdev or shm to run across simulated nodes"), run.err());
    }

    @Test
    void shouldRefuseMoreNodesThanRanksOrAMachinesFileBeside()
    {
        final Run tooMany = Run.of("-np", "2", "-dev", "niodev", "-nodes", "3", MAIN);
        final Run both = Run.of("-np", "2", "-dev", "niodev", "-nodes", "2", "-machinesfile", "m", MAIN);
        final Run zero = Run.of("-np", "2", "-dev", "niodev", "-nodes", "0", MAIN);

        assertTrue(tooMany.err().contains("mpjrun: -nodes 3 is more than -np 2: every node needs a rank"),
            tooMany.err());
        assertTrue(both.err().contains("mpjrun: -machinesfile and -nodes exclude each other: -nodes writes the " +
            "machines file of its simulated nodes; give -nodes N for a simulated cluster, or -machinesfile FILE for " +
            "real hosts"), both.err());
        assertTrue(zero.err().contains("mpjrun: -nodes 0: give the number of simulated nodes, 1 to " +
            SimulatedCluster.MAX_NODES), zero.err());
        assertEquals(List.of(MpjRun.EXIT_USAGE, MpjRun.EXIT_USAGE, MpjRun.EXIT_USAGE),
            List.of(tooMany.exitCode(), both.exitCode(), zero.exitCode()));
    }

    @Test
    void shouldRefuseANodeCountOutOfRange()
    {
        assertThrows(IllegalArgumentException.class, () -> SimulatedCluster.start(0));
        assertThrows(IllegalArgumentException.class, () -> SimulatedCluster.start(SimulatedCluster.MAX_NODES + 1));
    }

    static void assumeNamespaces()
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
    }

    private static void expectLine(final JobResult result, final String line)
    {
        assertTrue(result.output().lines().anyMatch(line::equals), () -> "no '" + line + "' in\n" + result.output());
    }

    /** No namespace, link, /etc/hosts line, process or directory whose name starts with {@code id}. */
    private static void assertNothingLeft(final String id) throws IOException, InterruptedException
    {
        assertNothingLeft(id, MAIN);
    }

    /** As {@link #assertNothingLeft(String)}, with processes of {@code mainClass} counted as the job's. */
    static void assertNothingLeft(final String id, final String mainClass) throws IOException, InterruptedException
    {
        // A killed process can take a moment to be reaped.
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<String> left = namesLeft(id, mainClass);
        while (!left.isEmpty() && System.nanoTime() - deadlineNs < 0)
        {
            Thread.sleep(50);
            left = namesLeft(id, mainClass);
        }
        assertEquals(List.of(), left, "left behind by cluster " + id);
    }

    private static List<String> namesLeft(final String id) throws IOException
    {
        return namesLeft(id, MAIN);
    }

    private static List<String> namesLeft(final String id, final String mainClass) throws IOException
    {
        final List<String> left = new ArrayList<>();
        HostCommand.run("ip", "netns", "list").lines().filter(line -> line.startsWith(id))
            .forEach(line -> left.add("namespace " + line));
        HostCommand.run("ip", "-o", "link", "show").lines().filter(line -> line.contains(" " + id))
            .forEach(line -> left.add("link " + line));
        new HostsFile(HostsFile.ETC_HOSTS).ourNames().stream().filter(name -> name.startsWith(id))
            .forEach(name -> left.add("/etc/hosts line for " + name));
        ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
            .map(process -> process.info().commandLine().orElse(""))
            .filter(commandLine -> commandLine.contains(id) || commandLine.contains(mainClass))
            .forEach(commandLine -> left.add("process " + commandLine));
        final Path directory = Path.of(System.getProperty("java.io.tmpdir"), "kupl-cluster-" + id);
        if (Files.exists(directory))
        {
            left.add("directory " + directory);
        }
        return left;
    }

    private static Path repositoryRoot()
    {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve("bin/mpjrun")))
            {
                return dir;
            }
        }
        throw new IllegalStateException("no bin/mpjrun at or above " + System.getProperty("user.dir"));
    }

    private static String testClasses()
    {
        return Path.of(System.getProperty("user.dir"), "target", "test-classes").toString();
    }

    /** {@code MpjRun.run} in this JVM, its streams kept. */
    private record Run(int exitCode, String out, String err)
    {
        static Run of(final String... args)
        {
            final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            final java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            final int exitCode = MpjRun.run(new java.io.PrintStream(out, true), new java.io.PrintStream(err, true),
                args);
            return new Run(exitCode, out.toString(), err.toString());
        }
    }
}
