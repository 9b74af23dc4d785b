package bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --report and --notes are read on any benchmark's command line, between its own options, in any order. */
class ReportOptionsTest
{
    private static final String USAGE = "usage: Bench [--quick] [--only PARTS] " + ReportOptions.USAGE;

    @TempDir
    Path directory;

    private final List<String> seen = new ArrayList<>();

    private ReportOptions parse(final String... args)
    {
        return new CommandLine(USAGE)
            .flag("--quick", () -> seen.add("--quick"))
            .option("--only", parts -> seen.add("--only " + parts))
            .parse(args, ReportOptionsTest.class);
    }

    @Test
    void shouldReadTheReportsOptionsAndLeaveTheRestToTheBenchmarkInOrder() throws Exception
    {
        final Path notes = Files.writeString(directory.resolve("notes.md"), "Measured while idle.");

        final ReportOptions options = parse("--quick", "--report", "out", "--only", "fence", "--notes",
            notes.toString());

        assertEquals(Path.of("out"), options.directory());
        assertEquals("Measured while idle.", options.humanNotes());
        assertEquals(List.of("--quick", "--only fence"), seen);
    }

    @Test
    void shouldPrintToTheConsoleOnlyWithoutReport()
    {
        final ReportOptions options = parse("--quick");

        assertNull(options.directory());
        assertEquals("", options.humanNotes());
    }

    @Test
    void shouldStampTheJavaCommandLineWhenNotStartedByBinBench()
    {
        assumeTrue(System.getenv(ReportOptions.COMMAND_VARIABLE) == null, "started by bin/bench");

        assertEquals("java bench.harness.ReportOptionsTest --quick --report out",
            parse("--quick", "--report", "out").command());
    }

    @Test
    void shouldRefuseAnOptionWithoutItsValue()
    {
        assertEquals("--report needs a directory; " + USAGE,
            assertThrows(UsageException.class, () -> parse("--report")).getMessage());
        assertEquals("--notes needs a Markdown file; " + USAGE,
            assertThrows(UsageException.class, () -> parse("--notes")).getMessage());
    }

    @Test
    void shouldRefuseNotesItCannotReadBeforeAnythingIsMeasured()
    {
        final UsageException e = assertThrows(UsageException.class,
            () -> parse("--notes", directory.resolve("missing.md").toString()));

        assertTrue(e.getMessage().contains("missing.md cannot be read") && e.getMessage().endsWith(USAGE),
            e.getMessage());
    }

    @Test
    void shouldRefuseAReportDirectoryThatIsAFile() throws Exception
    {
        final Path file = Files.writeString(directory.resolve("file"), "");

        assertEquals("--report " + file + " is a file, not a directory; " + USAGE,
            assertThrows(UsageException.class, () -> parse("--report", file.toString())).getMessage());
    }
}
