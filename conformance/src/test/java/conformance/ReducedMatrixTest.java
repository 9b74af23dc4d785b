package conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The CI run of the suite: the reduced matrix ({@link ConformanceMatrix#reduced}), every case
 * of every configuration passed or skipped, and the reports written to
 * {@code conformance/target/conformance}.
 */
class ReducedMatrixTest
{
    @Test
    @Timeout(240)
    void shouldPassEveryCaseInEveryReducedConfiguration() throws Exception
    {
        final List<ConfigurationRun> runs = Jobs.matrix(ConformanceRank.DEFAULT_TIMEOUT_MS, List.of())
            .run(ConformanceMatrix.reduced(ConformanceRank.DEFAULT_PROVIDER));
        final Report report = new Report(runs);
        report.write(Jobs.REPORT_DIR);
        System.out.print(report.consoleTable());

        assertTrue(report.caseCount() >= 70, "at least 70 cases should run, ran " + report.caseCount());
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
            if (run.configuration().flavour() == Flavour.SHARED)
            {
                assertTrue(run.results().values().stream().noneMatch(r -> r.status() == Status.SKIP &&
                    r.message().contains(" only: ")), run.configuration().label() + " should run every shared case");
            }
        }
        assertTrue(Files.readString(Jobs.REPORT_DIR.resolve("conformance.html")).contains("query.proc-null-lowest-nonzero"),
            "the HTML report should list the cases");
    }
}
