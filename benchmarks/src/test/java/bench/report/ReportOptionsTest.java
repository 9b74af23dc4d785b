package bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --report and --notes are taken out of any benchmark's command line, and the rest is left to it in order. */
class ReportOptionsTest
{
    @TempDir
    Path directory;

    @Test
    void shouldTakeOutTheReportsOptionsAndLeaveTheRestInOrder() throws Exception
    {
        final Path notes = Files.writeString(directory.resolve("notes.md"), "Measured while idle.");

        final ReportOptions options = ReportOptions.parse(new String[] {"--quick", "--report", "out", "--only",
            "fence", "--notes", notes.toString()}, ReportOptionsTest.class);

        assertEquals(Path.of("out"), options.directory());
        assertEquals("Measured while idle.", options.humanNotes());
        assertEquals(List.of("--quick", "--only", "fence"), options.remaining());
    }

    @Test
    void shouldPrintToTheConsoleOnlyWithoutReport()
    {
        final ReportOptions options = ReportOptions.parse(new String[] {"--quick"}, ReportOptionsTest.class);

        assertNull(options.directory());
        assertEquals("", options.humanNotes());
    }

    @Test
    void shouldStampTheJavaCommandLineWhenNotStartedByBinBench()
    {
        assumeTrue(System.getenv(RunStamp.COMMAND_VARIABLE) == null, "started by bin/bench");

        assertEquals("java bench.report.ReportOptionsTest --quick --report out", ReportOptions.parse(
            new String[] {"--quick", "--report", "out"}, ReportOptionsTest.class).command());
    }

    @Test
    void shouldRefuseAnOptionWithoutItsValue()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReportOptions.parse(
            new String[] {"--report"}, ReportOptionsTest.class)).getMessage().contains("--report needs a directory"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReportOptions.parse(
            new String[] {"--notes"}, ReportOptionsTest.class)).getMessage().contains("--notes needs a Markdown file"));
    }

    @Test
    void shouldRefuseNotesItCannotReadBeforeAnythingIsMeasured()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReportOptions.parse(
            new String[] {"--notes", directory.resolve("missing.md").toString()}, ReportOptionsTest.class));

        assertTrue(e.getMessage().contains("missing.md cannot be read"), e.getMessage());
    }

    @Test
    void shouldRefuseAReportDirectoryThatIsAFile() throws Exception
    {
        final Path file = Files.writeString(directory.resolve("file"), "");

        assertTrue(assertThrows(IllegalArgumentException.class, () -> ReportOptions.parse(
            new String[] {"--report", file.toString()}, ReportOptionsTest.class)).getMessage().contains("is a file"));
    }
}
