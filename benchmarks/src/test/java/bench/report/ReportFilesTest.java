package bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page and its charts land in the directory; the next run of the same part replaces them and only them. */
class ReportFilesTest
{
    @TempDir
    Path directory;

    @Test
    void shouldWriteThePageAndOneSvgPerChart() throws Exception
    {
        final Report report = Fixtures.report("device");

        final List<Path> written = ReportFiles.write(report, directory.resolve("new"));

        assertEquals(List.of(directory.resolve("new/device.md"), directory.resolve("new/device-fence.svg")), written);
        assertEquals(MarkdownReport.page(report), Files.readString(written.get(0)));
        assertEquals(SvgRatioChart.render(Fixtures.fenceChart()), Files.readString(written.get(1)));
        assertEquals(List.of("device-fence.svg", "device.md"), names(directory.resolve("new")));
    }

    @Test
    void shouldReplaceThePageOfTheLastRunNotAppendToIt() throws Exception
    {
        final Report first = Fixtures.report("device");
        first.note("first run");
        ReportFiles.write(first, directory);
        final Report second = Fixtures.report("device");
        second.note("second run");

        ReportFiles.write(second, directory);

        final String page = Files.readString(directory.resolve("device.md"));
        assertEquals(MarkdownReport.page(second), page);
        assertFalse(page.contains("first run"), page);
        assertEquals(1, page.lines().filter(line -> line.startsWith("# ")).count(), page);
    }

    @Test
    void shouldRemoveTheChartsOfTheLastRunThatThisRunDoesNotDrawAndLeaveOtherPartsAlone() throws Exception
    {
        Files.writeString(directory.resolve("device-openmpi.svg"), "<svg/>");
        Files.writeString(directory.resolve("rma-fence.svg"), "<svg/>");
        Files.writeString(directory.resolve("rma.md"), "# rma");
        Files.writeString(directory.resolve("README.md"), "# index");

        ReportFiles.write(Fixtures.report("device"), directory);

        assertEquals(List.of("README.md", "device-fence.svg", "device.md", "rma-fence.svg", "rma.md"), names());
    }

    @Test
    void shouldLeaveNoPartialFileBehind() throws Exception
    {
        ReportFiles.write(Fixtures.report("device"), directory);

        assertTrue(names().stream().noneMatch(name -> name.startsWith(".")), names()::toString);
    }

    private List<String> names() throws Exception
    {
        return names(directory);
    }

    private static List<String> names(final Path folder) throws Exception
    {
        try (Stream<Path> files = Files.list(folder))
        {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }
}
