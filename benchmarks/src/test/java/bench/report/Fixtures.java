package bench.report;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

/** A report with fixed stamp and figures, so that tests can say exactly what its page holds. */
final class Fixtures
{
    static final ZonedDateTime DATE = ZonedDateTime.of(2026, 12, 5, 10, 30, 0, 0, ZoneOffset.UTC);

    private Fixtures()
    {
    }

    static RunStamp started()
    {
        return new RunStamp(DATE, "2 cores, Test CPU @ 1.00GHz, Linux 6.1 amd64", "OpenJDK 64-Bit Server VM 25+36",
            "bin/bench device --report docs/benchmarks", "abc1234", "0.50 0.40 0.30", null, null);
    }

    static RunStamp finished()
    {
        return new RunStamp(DATE, "2 cores, Test CPU @ 1.00GHz, Linux 6.1 amd64", "OpenJDK 64-Bit Server VM 25+36",
            "bin/bench device --report docs/benchmarks", "abc1234", "0.50 0.40 0.30", "1.75 0.90 0.40",
            Duration.ofMillis(183_400));
    }

    /** Two fence ratios, one meeting its target of 1.5x and one missing it. */
    static Chart fenceChart()
    {
        return new Chart("fence", "shm against the engine's fence", "shm time / fence time", List.of(
            Ratio.of("Barrier, 2 processes", 0.36, 0.30, "us").against(Target.atMost(1.5)),
            Ratio.of("Allreduce, 2 processes", 0.54, 0.30, "us").against(Target.atMost(1.5))));
    }

    static Report report(final String part)
    {
        final Report report = new Report(part, "shm device benchmark", finished(), List.of("settings: FULL"));
        report.add(Text.heading(2, "Latency"));
        report.add(new Table("measurement", "shm", "fence", "shm / fence")
            .row("Barrier, 2 processes", "0.36", "0.30", "1.20x")
            .row("Allreduce, 2 processes", "0.54", "0.30", "1.80x"));
        report.add(fenceChart());
        report.add(new Text("Median over 7 repetitions."));
        return report;
    }
}
