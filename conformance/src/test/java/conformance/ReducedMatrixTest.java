package conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.List;

import mpjrun.SimulatedCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The CI run of the suite: the reduced matrix ({@link ConformanceMatrix#reduced}), every case
 * of every configuration passed or skipped, and the reports written to
 * {@code conformance/target/conformance}. The configurations on two simulated nodes run in a test
 * of their own, skipped with the reason where network namespaces are not allowed.
 */
@Tag("slow")
class ReducedMatrixTest
{
    @Test
    @Timeout(420)
    void shouldPassEveryCaseInEveryReducedConfigurationOfOneNode() throws Exception
    {
        final List<Configuration> configurations = ConformanceMatrix.reduced(ConformanceRank.DEFAULT_PROVIDER).stream()
            .filter(configuration -> configuration.nodes() == 1).toList();
        final List<ConfigurationRun> runs = Jobs.matrix(ConformanceRank.DEFAULT_TIMEOUT_MS, List.of())
            .run(configurations);
        final MatrixReport report = new MatrixReport(runs);
        report.write(Jobs.REPORT_DIR);
        System.out.print(report.consoleTable());

        assertTrue(report.caseCount() >= 300, "at least 300 cases should run, ran " + report.caseCount());
        assertClean(report, runs);
        assertTrue(runs.stream().map(run -> run.configuration().flavour()).distinct().count() ==
            Flavour.values().length, "every flavour should run");
        final String html = Files.readString(Jobs.REPORT_DIR.resolve("conformance.html"));
        assertTrue(html.contains("query.proc-null-lowest-nonzero"), "the HTML report should list the cases");
        assertTrue(html.contains("Not on every flavour"), "the HTML report should say why cases skip other flavours");
    }

    @Test
    @Timeout(420)
    void shouldPassEveryCaseInEveryReducedConfigurationAcrossSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
        final List<Configuration> configurations = ConformanceMatrix.reduced(ConformanceRank.DEFAULT_PROVIDER).stream()
            .filter(configuration -> configuration.nodes() > 1).toList();
        final List<ConfigurationRun> runs = Jobs.matrix(ConformanceRank.DEFAULT_TIMEOUT_MS, List.of())
            .run(configurations);
        final MatrixReport report = new MatrixReport(runs);
        report.write(Jobs.REPORT_DIR.resolve("two-nodes"));
        System.out.print(report.consoleTable());

        assertTrue(!configurations.isEmpty(), "the reduced matrix should have configurations on two nodes");
        assertClean(report, runs);
        for (final ConfigurationRun run : runs)
        {
            final CaseResult acrossNodes = run.results().get("flavour.shared-across-nodes");
            assertTrue(acrossNodes != null && acrossNodes.status() == Status.PASS, run.configuration().label() +
                " should run flavour.shared-across-nodes and pass it:\n" + report.consoleTable());
        }
    }

    private static void assertClean(final MatrixReport report, final List<ConfigurationRun> runs)
    {
        assertTrue(report.allClean(), "every case should pass or be skipped:\n" + report.consoleTable());
        for (final ConfigurationRun run : runs)
        {
            if (run.configuration().processes() >= 3)
            {
                // Skips for another flavour or for a second node are expected; none for want of processes.
                assertTrue(run.results().values().stream().noneMatch(r -> r.status() == Status.SKIP &&
                    r.message().matches("needs \\d+ processes.*")), run.configuration().label() +
                    " should skip no case for want of processes");
            }
        }
    }
}
