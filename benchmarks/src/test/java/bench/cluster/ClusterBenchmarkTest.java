package bench.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import bench.cluster.ClusterRow.Goal;
import bench.cluster.ClusterRow.Verdict;
import bench.cluster.ClusterTable.Column;
import bench.cluster.ClusterTable.Results;
import bench.report.Ratio;
import bench.report.Table;
import mpjrun.SimulatedCluster;

/**
 * The cluster benchmark's logic without a cluster (its options, the parts each row runs, how the shm column is
 * judged, the table built from the jobs' output, the placement check), and a smoke
 * run of its Barrier rows on niodev where a simulated cluster can be made. No timing is checked.
 */
class ClusterBenchmarkTest
{
    private static final ClusterShape TWO_BY_TWO = new ClusterShape(2, 2);
    private static final ClusterShape TWO_BY_FOUR = new ClusterShape(2, 4);

    @Test
    void shouldMeasureEveryRowOnEveryDeviceByDefault()
    {
        final ClusterBenchmark.Plan plan = ClusterOptions.parse(new String[0]).plan();

        assertEquals(List.of("niodev", "hybdev", "shm"), plan.devices());
        assertEquals(ClusterBenchmark.rows(), plan.rows());
        assertEquals(ClusterBenchmark.FULL, plan.settings());
        assertEquals(ClusterBenchmark.QUICK, ClusterOptions.parse(new String[] {"--quick"}).plan().settings());
    }

    @Test
    void shouldKeepTheColumnOrderWhateverOrderTheDevicesAreGivenIn()
    {
        assertEquals(List.of("niodev", "shm"),
            ClusterOptions.parse(new String[] {"--devices", "shm,niodev"}).plan().devices());
    }

    @Test
    void shouldRefuseADeviceItDoesNotKnow()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ClusterOptions.parse(new String[] {"--devices", "niodev,smpdev"}).plan());

        assertTrue(e.getMessage().startsWith("--devices names smpdev, which is not one of [niodev, hybdev, shm]"),
            e.getMessage());
    }

    @Test
    void shouldRefuseARowThatIsNotThereAndAnOptionWithoutItsValue()
    {
        final IllegalArgumentException row = assertThrows(IllegalArgumentException.class,
            () -> ClusterOptions.parse(new String[] {"--only", "barrier,fence"}).plan());
        final IllegalArgumentException value = assertThrows(IllegalArgumentException.class,
            () -> ClusterOptions.parse(new String[] {"--only"}).plan());

        assertTrue(row.getMessage().startsWith("--only names fence, which is no row of [pingpong-8b,"),
            row.getMessage());
        assertTrue(value.getMessage().startsWith("--only needs a value; usage: ClusterBenchmark"), value.getMessage());
    }

    @Test
    void shouldSelectBothRowsOfAPairAndEveryKernelWithApps()
    {
        final List<ClusterRow> rows = ClusterOptions.parse(new String[] {"--only", "pingpong-8b,apps"}).plan().rows();

        assertEquals(List.of("pingpong-8b", "pingpong-8b", "lu", "sor", "sparse", "md", "ray"),
            rows.stream().map(ClusterRow::option).toList());
        assertEquals(List.of(ClusterRow.Scope.WITHIN_NODE, ClusterRow.Scope.ACROSS_NODES),
            rows.subList(0, 2).stream().map(ClusterRow::scope).toList());
    }

    @Test
    void shouldRunThePairWithinNodeOneAndTheOneAcrossWithTheFirstRankOfNodeTwo()
    {
        final List<ClusterRow> rows = ClusterOptions.parse(new String[] {"--only", "pingpong-1mib,allreduce-1mib"})
            .plan().rows();

        assertEquals(List.of("pingpong:1048576:0-1", "pingpong:1048576:0-2", "allreduce:131072"),
            rows.stream().map(row -> row.part(TWO_BY_TWO)).toList());
        assertEquals("pingpong:1048576:0-4", rows.get(1).part(TWO_BY_FOUR));
        assertEquals("ping-pong half round trip 1 MiB, across nodes (ranks 0-4), us", rows.get(1).label(TWO_BY_FOUR,
            false));
        assertEquals("Allreduce 1 MiB (131072 doubles), 8 ranks, us", rows.get(2).label(TWO_BY_FOUR, false));
    }

    @Test
    void shouldMeetTheWithinNodeTargetUpToOneAndAHalfTimesShmOnOneNode()
    {
        final ClusterRow row = row("pingpong-8b");

        final Verdict met = row.verdict("8 B", Map.of("shm", 1.5, ClusterRow.REFERENCE, 1.0), Map.of());
        final Verdict missed = row.verdict("8 B", Map.of("shm", 1.6, ClusterRow.REFERENCE, 1.0), Map.of());

        assertEquals(new Verdict("<= 1.5x -dev shm, one node", "1.50x", "yes", met.bars()), met);
        assertEquals("NO", missed.met());
        assertEquals("8 B against -dev shm, one node", missed.bars().getFirst().label());
        assertTrue(missed.bars().getFirst().isMissed());
    }

    @Test
    void shouldJudgeBandwidthAsTheTimesItImplies()
    {
        final ClusterRow row = row("bandwidth");

        final Verdict verdict = row.verdict("bw", Map.of("shm", 4.0, ClusterRow.REFERENCE, 5.0), Map.of());

        assertEquals("1.25x", verdict.ratio());
        assertEquals("yes", verdict.met());
    }

    @Test
    void shouldSayNotMeasuredWithTheReasonWhileShmCannotRun()
    {
        final Verdict verdict = row("barrier").verdict("Barrier", Map.of("niodev", 100.0),
            Map.of("hybdev", "hybdev does not run here", "shm", "shm does not run here"));

        assertEquals(new Verdict("<= 0.333x niodev; <= 1.0x hybdev", "", "not measured: shm does not run here",
            List.of()), verdict);
    }

    @Test
    void shouldWantCollectivesThreeTimesFasterThanNiodevAndFasterThanHybdev()
    {
        final ClusterRow row = row("allreduce-8");

        final Verdict withoutHybdev = row.verdict("A", Map.of("shm", 30.0, "niodev", 100.0),
            Map.of("hybdev", "not selected (--devices)"));
        final Verdict both = row.verdict("A", Map.of("shm", 40.0, "niodev", 100.0, "hybdev", 50.0), Map.of());

        assertEquals("0.30x niodev", withoutHybdev.ratio());
        assertEquals("niodev: yes; hybdev: not measured: not selected (--devices)", withoutHybdev.met());
        assertEquals(1, withoutHybdev.bars().size());
        assertEquals("0.40x niodev; 0.80x hybdev", both.ratio());
        assertEquals("niodev: NO; hybdev: yes", both.met());
    }

    @Test
    void shouldWantEveryKernelAtLeastAsFastAsNiodevAndHybdev()
    {
        final Verdict verdict = row("lu").verdict("LU", Map.of("shm", 1.0, "niodev", 1.0, "hybdev", 0.9), Map.of());

        assertEquals("<= 1.0x niodev; <= 1.0x hybdev", verdict.target());
        assertEquals("niodev: yes; hybdev: NO", verdict.met());
    }

    @Test
    void shouldMissATargetWhereShmRanWithoutAFigure()
    {
        final Verdict verdict = row("pingpong-8b").verdict("8 B", Map.of("shm", Double.NaN, ClusterRow.REFERENCE, 1.0),
            Map.of());

        assertEquals("n/a", verdict.ratio());
        assertEquals("NO", verdict.met());
        assertTrue(verdict.bars().getFirst().isMissed());
    }

    @Test
    void shouldBuildATableOfEveryColumnFromTheJobsOutput()
    {
        final String niodev = String.join("\n", "placement rank=0 host=n1",
            "bench pingpong:8:0-1 rank=0 ops=100 1000.000 3000.000 2000.000",
            "bench barrier rank=0 ops=100 9000.000 9000.000 9000.000",
            "bench barrier rank=1 ops=100 9000.000 12000.000 9000.000",
            "bench barrier rank=2 ops=100 9000.000 9000.000 9000.000",
            "bench barrier rank=3 ops=100 10000.000 9000.000 9000.000");
        final String shm = String.join("\n", "bench pingpong:8:0-1 rank=0 ops=100 1200.000 1200.000 1200.000",
            "bench barrier rank=0 ops=100 1000.000 1000.000 1000.000",
            "bench barrier rank=1 ops=100 1000.000 1000.000 1000.000",
            "bench barrier rank=2 ops=100 1000.000 1000.000 1000.000");
        final String kernels = "bench app:lu:48 rank=0 ops=1 900.000 60.000 80.000\ncheck lu:48 passed: residual 1e-12";
        final Map<String, Column> parts = Map.of("niodev", ran(niodev), "hybdev", Column.notRun("not yet"),
            "shm", ran(shm));
        final Map<String, Column> apps = Map.of("niodev", ran(kernels), "hybdev", Column.notRun("not yet"),
            "shm", Column.notRun("not yet"));
        final Results results = new Results(TWO_BY_TWO, parts, apps,
            ran("bench pingpong:8:0-1 rank=0 ops=100 1000.000 1000.000 1000.000"));
        final Map<Goal, List<Ratio>> bars = new HashMap<>();

        final Table table = ClusterTable.table(results, ClusterOptions.parse(new String[] {"--quick", "--only",
            "pingpong-8b,barrier,lu"}).plan().rows(), true, bars);

        assertEquals(List.of("measurement", "niodev", "hybdev", "shm", "-dev shm, one node", "target (shm)",
            "shm ratio", "met"), table.header());
        assertEquals(List.of(
            List.of("ping-pong half round trip 8 B, within a node (ranks 0-1), us", "2.00 (1.00-3.00)", "not run",
                "1.20 (1.20-1.20)", "1.00 (1.00-1.00)", "<= 1.5x -dev shm, one node", "1.20x", "yes"),
            List.of("ping-pong half round trip 8 B, across nodes (ranks 0-2), us", "n/a", "not run", "n/a", "", "", "",
                ""),
            // shm's Barrier lacks rank 3's line: no figure, and the target is missed rather than met.
            List.of("Barrier, 4 ranks, us", "10.0 (9.0-12.0)", "not run", "n/a", "", "<= 0.333x niodev; <= 1.0x hybdev",
                "n/a niodev", "niodev: NO; hybdev: not measured: not yet"),
            List.of("LU, n=48, s", "0.070 (0.060-0.080)", "not run", "not run", "", "<= 1.0x niodev; <= 1.0x hybdev",
                "", "not measured: not yet")), table.rows());
        assertEquals(List.of("ping-pong half round trip 8 B, within a node (ranks 0-1) (2 nodes x 2 ranks) against " +
            "-dev shm, one node"), bars.get(Goal.WITHIN_NODE).stream().map(Ratio::label).toList());
        assertEquals(1, bars.get(Goal.COLLECTIVE).size());
        assertTrue(bars.get(Goal.APPLICATION).isEmpty());
    }

    @Test
    void shouldLeaveOutAKernelWhoseCheckDidNotPass()
    {
        final ClusterRow lu = row("lu");

        assertNull(ClusterTable.stat(lu, TWO_BY_TWO, true, "bench app:lu:48 rank=0 ops=1 900.000 60.000"));
        assertEquals(60.0, ClusterTable.stat(lu, TWO_BY_TWO, true,
            "bench app:lu:48 rank=0 ops=1 900.000 60.000\ncheck lu:48 passed: ok").median());
    }

    @Test
    void shouldAcceptRanksPlacedInBlocksAndRefuseOthers()
    {
        final String blocks = placement("n1", "n1", "n2", "n2");

        assertNull(TWO_BY_TWO.placementProblem(blocks));
        assertTrue(TWO_BY_TWO.placementProblem(placement("n1", "n2", "n1", "n2"))
            .startsWith("rank 1 runs on n2, not with the other ranks of node 1 on n1"));
        assertTrue(TWO_BY_TWO.placementProblem(placement("n1", "n1", "n1", "n1"))
            .startsWith("the nodes' ranks share hosts"));
        assertTrue(TWO_BY_FOUR.placementProblem(blocks)
            .startsWith("expected where each of 8 ranks runs, got 4"));
    }

    @Test
    @Tag("slow")
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldMeasureTheBarrierOnNiodevAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int status;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            status = ClusterBenchmark.run(new String[] {"--quick", "--only", "barrier", "--devices", "niodev"}, out);
        }
        final String report = bytes.toString(StandardCharsets.UTF_8);

        assertEquals(0, status, report);
        for (final String ranks : List.of("4", "8"))
        {
            assertTrue(report.lines().anyMatch(line -> line.matches("\\| Barrier, " + ranks + " ranks, us \\| " +
                "[0-9,.]+ \\([0-9,.]+-[0-9,.]+\\) \\| not run \\| not run \\|  \\| .* \\| not measured: " +
                "not selected \\(--devices\\) \\|")), () -> "no niodev Barrier on " + ranks + " ranks in:\n" + report);
        }
        assertEquals(2, report.lines().filter(line -> line.startsWith("| ")).filter(line -> !line.startsWith(
            "| measurement")).count(), report);
    }

    private static ClusterRow row(final String option)
    {
        return ClusterBenchmark.rows().stream().filter(row -> row.option().equals(option)).findFirst().orElseThrow();
    }

    private static Column ran(final String output)
    {
        return new Column(output, true, null);
    }

    private static String placement(final String... hosts)
    {
        final List<String> lines = new ArrayList<>();
        for (int rank = 0; rank < hosts.length; rank++)
        {
            lines.add("placement rank=" + rank + " host=" + hosts[rank]);
        }
        return String.join("\n", lines);
    }
}
