package bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a {@link Report} into a directory as {@code <part>.md} and one {@code <part>-<chart>.svg} per chart,
 * replacing what the last run of the same part wrote there: its page, and every chart of that part, so that
 * a chart the new run no longer draws does not stay behind. Other parts' files are left alone. Each file is
 * written beside its final name and moved over it, so that a reader never sees half a page.
 */
public final class ReportFiles
{
    private ReportFiles()
    {
    }

    /**
     * Writes the page and its charts into {@code directory} (made if missing).
     *
     * @return the files written, the page first.
     */
    public static List<Path> write(final Report report, final Path directory) throws IOException
    {
        Files.createDirectories(directory);
        removeCharts(report.part(), directory);
        final List<Path> written = new ArrayList<>();
        written.add(replace(directory.resolve(report.part() + ".md"), MarkdownReport.page(report)));
        for (final Chart chart : report.charts())
        {
            written.add(replace(directory.resolve(report.fileName(chart)), SvgRatioChart.render(chart)));
        }
        return written;
    }

    /** Deletes {@code <part>-*.svg}: the charts of the last run of this part. */
    private static void removeCharts(final String part, final Path directory) throws IOException
    {
        try (DirectoryStream<Path> charts = Files.newDirectoryStream(directory, part + "-*.svg"))
        {
            for (final Path chart : charts)
            {
                Files.delete(chart);
            }
        }
    }

    private static Path replace(final Path file, final String text) throws IOException
    {
        final Path partial = file.resolveSibling("." + file.getFileName() + ".partial");
        Files.writeString(partial, text, StandardCharsets.UTF_8);
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }
}
