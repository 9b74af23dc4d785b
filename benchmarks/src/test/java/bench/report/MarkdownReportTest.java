package bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The page says when, where and how the run was made, holds its tables and charts in order, and ends in notes. */
class MarkdownReportTest
{
    @Test
    void shouldStampThePageWithDateMachineJdkCommandAndLoadAtBothEnds()
    {
        final String page = MarkdownReport.page(Fixtures.report("device"));

        final List<String> lines = page.lines().toList();
        assertEquals("# shm device benchmark", lines.getFirst());
        assertTrue(lines.contains("- date: 2026-12-05T10:30:00Z"), page);
        assertTrue(lines.contains("- machine: 2 cores, Test CPU @ 1.00GHz, Linux 6.1 amd64"), page);
        assertTrue(lines.contains("- JDK: OpenJDK 64-Bit Server VM 25+36"), page);
        assertTrue(lines.contains("- command: `bin/bench device --report docs/benchmarks` (source abc1234)"), page);
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("- load average (1, 5, 15 min): " +
            "0.50 0.40 0.30 at the start, 1.75 0.90 0.40 at the end")), page);
        assertTrue(lines.contains("- run time: 183.4 s"), page);
        assertTrue(lines.contains("- settings: FULL"), page);
    }

    @Test
    void shouldWriteTheBodyInOrderWithTablesAsMarkdownAndChartsAsImages()
    {
        final String page = MarkdownReport.page(Fixtures.report("device"));

        final String body = """
            ## Latency

            | measurement | shm | fence | shm / fence |
            |---|---|---|---|
            | Barrier, 2 processes | 0.36 | 0.30 | 1.20x |
            | Allreduce, 2 processes | 0.54 | 0.30 | 1.80x |

            ![shm against the engine's fence](device-fence.svg)

            Median over 7 repetitions.

            ## Notes
            """;
        assertTrue(page.contains(body), page);
    }

    @Test
    void shouldNoteEachMissedTargetWithItsFigures()
    {
        final Report report = Fixtures.report("device");
        report.note("Open MPI C not measured: mpicc is not installed");

        final String notes = MarkdownReport.notes(report);

        assertEquals("""
            ## Notes

            - Open MPI C not measured: mpicc is not installed
            - Missed 1 of 2 targets:
              - shm against the engine's fence:
                - Allreduce, 2 processes: 1.80x (target <= 1.5x; 0.540 us against 0.300 us)
            """, notes);
    }

    @Test
    void shouldSayWhenEveryTargetWasMet()
    {
        final Report report = new Report("rma", "t", Fixtures.finished(), List.of());
        report.add(new Chart("fence", "fence", "ratio", List.of(Ratio.of("a", 1, 1, "").against(Target.atMost(1.5)),
            Ratio.of("b", 1, 1, ""))));

        assertTrue(MarkdownReport.notes(report).contains("- Every one of the 1 rows with a target met it.\n"));
    }

    @Test
    void shouldCopyTheHumansNotesAfterTheGeneratedOnes()
    {
        final Report report = new Report("rma", "t", Fixtures.finished(), List.of());
        report.note("--quick: smoke run");
        report.humanNotes("The load rose at the end:\nanother build ran.\n\n");

        assertEquals("## Notes\n\n- --quick: smoke run\n\nThe load rose at the end:\nanother build ran.\n",
            MarkdownReport.notes(report));
    }

    @Test
    void shouldSayNothingWasNotedRatherThanLeaveTheSectionEmpty()
    {
        assertEquals("## Notes\n\nNothing noted.\n",
            MarkdownReport.notes(new Report("rma", "t", Fixtures.finished(), List.of())));
    }

    @Test
    void shouldPrintTheSameTableOnTheConsoleButNoImage()
    {
        final Report report = Fixtures.report("device");
        final Table table = (Table)report.blocks().get(1);

        assertEquals(MarkdownReport.table(table), MarkdownReport.block(report, table, false));
        assertEquals("", MarkdownReport.block(report, Fixtures.fenceChart(), false));
        assertEquals("Run time: 183.4 s; load average at the end: 1.75 0.90 0.40\n",
            MarkdownReport.footer(Fixtures.finished()));
    }

    @Test
    void shouldLeaveTheEndOutOfTheStampWhileTheRunGoesOn()
    {
        final String header = MarkdownReport.header(new Report("device", "t", Fixtures.started(), List.of()));

        assertTrue(header.contains("0.50 0.40 0.30 at the start (other work"), header);
        assertFalse(header.contains("at the end") || header.contains("run time"), header);
    }
}
