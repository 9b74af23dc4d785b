package mpjrun;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The job watch across 2 simulated nodes ({@code bin/mpjrun -nodes 2}: ranks 0, 1 on node 1, ranks 2, 3 on
 * node 2, the launcher outside both, reached on the cluster's bridge): rank {@link WatchFaultProgram#VICTIM}
 * dies, or every process of node 2 is killed at once; the job must end non-zero naming rank 2 within 10 s,
 * and leave no namespace, {@code /etc/hosts} line or process. Skipped, with the reason, where namespaces
 * cannot be made.
 */
@ExtendWith(OneJobAtATime.class)
@Tag("slow")
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class JobWatchClusterTest
{
    private static final Pattern CLUSTER = Pattern.compile("^mpjrun: simulated cluster (\\S+)n1, ", Pattern.MULTILINE);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "kill9        | barrier      | 1 | its connection to the launcher ended without a word",
        "halt-barrier | halt-barrier | 1 | its connection to the launcher ended without a word",
        "halt-lock    | halt-lock    | 1 | its connection to the launcher ended without a word",
        "exit3        | exit3        | 3 | it called System.exit(3)",
        "node2        | barrier      | 1 | its connection to the launcher ended without a word"})
    void shouldEndAJobAcrossNodesWithinTenSecondsOfARanksDeath(final String fault, final String mode,
        final int exitCode, final String how) throws Exception
    {
        SimulatedClusterTest.assumeNamespaces();
        final List<String> command = WatchedJob.launcher(List.of("-np", Integer.toString(WatchedJob.RANKS), "-dev",
            "niodev", "-nodes", "2", "-cp", WatchedJob.testClasses(), WatchFaultProgram.class.getName(), mode));
        final WatchedJob.Outcome outcome = WatchedJob.run(command, Map.of(), fault, JobWatchClusterTest::killNode2);
        final String id = clusterId(outcome.output());

        // Ranks 2 and 3 die together when node 2 goes down: either may be the first the watch sees end.
        WatchedJob.assertEndedNamingOneOf(outcome, exitCode, how, fault.equals("node2") ? List.of(2, 3) :
            List.of(WatchFaultProgram.VICTIM));
        SimulatedClusterTest.assertNothingLeft(id, WatchFaultProgram.class.getName());
        System.out.printf("job watch, niodev on 2 simulated nodes, %s: fault to launcher exit %d ms%n", fault,
            outcome.faultToExitMs());
    }

    /** Kills every process in node 2's namespace at once, as a node that loses power would lose them. */
    private static void killNode2()
    {
        try
        {
            final String namespace = liveClusterNode2();
            final List<String> pids = HostCommand.run("ip", "netns", "pids", namespace).lines().map(String::strip)
                .filter(pid -> !pid.isEmpty()).toList();
            final List<String> kill = new ArrayList<>(List.of("kill", "-9"));
            kill.addAll(pids);
            HostCommand.run(kill.toArray(String[]::new));
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** The namespace of node 2 of this JVM's launcher's cluster: the one whose owner is a child of this JVM. */
    private static String liveClusterNode2() throws IOException
    {
        final List<Long> children = ProcessHandle.current().children().map(ProcessHandle::pid).toList();
        return HostCommand.run("ip", "netns", "list").lines().map(line -> line.split("\\s+")[0])
            .filter(name -> name.endsWith("n2"))
            .filter(name -> ClusterNames.ownerOf(name).stream().anyMatch(children::contains))
            .findFirst().orElseThrow(() -> new AssertionError("no node 2 namespace owned by " + children));
    }

    private static String clusterId(final String output)
    {
        final Matcher matcher = CLUSTER.matcher(output);
        if (!matcher.find())
        {
            throw new AssertionError("no 'mpjrun: simulated cluster' line in\n" + output);
        }
        return matcher.group(1);
    }
}
