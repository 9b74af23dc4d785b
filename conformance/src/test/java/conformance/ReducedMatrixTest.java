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
                assertTrue(run.count(Status.SKIP) == 0, run.configuration().label() + " should skip nothing");
            }
        }
        assertTrue(Files.readString(Jobs.REPORT_DIR.resolve("conformance.html")).contains("query.proc-null-lowest-nonzero"),
            "the HTML report should list the cases");
    }
}
