package bench.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import bench.report.ReportPages;

/**
 * The benchmark's smoke run completes and prints every table with every row, and its report page holds
 * the same tables and its charts. No timing is checked: on shared 2-core machines figures say nothing in
 * a test.
 */
@Tag("slow")
class EngineBenchmarkTest
{
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldPrintEveryRowInQuickModeAndReportThem(@TempDir final Path reports) throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            EngineBenchmark.run(new String[] {"--quick", "--report", reports.toString()}, out);
        }
        final String report = bytes.toString(StandardCharsets.UTF_8);

        final List<String> expectedLines = List.of(
            "## Fence latency",
            "| processes | linear, ns/fence | rd, ns/fence | MPJ Express Barrier, ns |",
            "| 2 | ", "| 4 | ", "| 8 | ",
            "## Window alloc+free",
            "| posix | 0 B | ", "| posix | 4 KiB | ", "| posix | 1 MiB | ", "| posix | 64 MiB | ",
            "| sls | 0 B | ", "| sls | 4 KiB | ", "| sls | 1 MiB | ", "| sls | 64 MiB | ",
            "## Copy of a neighbour's 64 MiB segment",
            "| posix | ", "| sls | ",
            "Run time: ");
        for (final String expected : expectedLines)
        {
            assertTrue(report.lines().anyMatch(line -> line.startsWith(expected)),
                () -> "no line starting with \"" + expected + "\" in:\n" + report);
        }
        if (mpjrun.MpjHome.unavailableReason() == null)
        {
            assertTrue(report.lines().filter(line -> line.matches("\\| [248] \\|.*"))
                .noneMatch(line -> line.contains("n/a")),
                () -> "MPJ Express is installed, but its Barrier was not measured:\n" + report);
        }
        final String page = ReportPages.assertPageMatchesConsole(report, reports, "engine");
        for (final String chart : List.of("engine-fence.svg", "engine-alloc.svg", "engine-copy.svg",
            "engine-targets.svg"))
        {
            assertTrue(page.contains("(" + chart + ")"), () -> "no " + chart + " in:\n" + page);
        }
    }
}
