package bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import bench.harness.ReportOptions;

/**
 * A benchmark's report while it runs: each block goes to the console as soon as it is added, so that a long
 * run shows its tables as it measures them, and is kept; {@link #finish()} stamps the end, prints the notes
 * and the run time, and with {@code --report DIR} writes the page and its charts there.
 *
 * <pre>
 * ReportRun run = ReportRun.start("device", "shm device benchmark", options, System.out, List.of("settings: ..."));
 * run.add(Text.heading(2, "Latency"));
 * run.add(table);
 * run.add(chart);          // on the page only
 * run.note("Open MPI C not measured: mpicc is not installed");
 * run.finish();
 * </pre>
 */
public final class ReportRun
{
    private final Report report;
    private final ReportOptions options;
    private final PrintStream out;

    private ReportRun(final Report report, final ReportOptions options, final PrintStream out)
    {
        this.report = report;
        this.options = options;
        this.out = out;
    }

    /** Stamps the start and prints the title, the stamp and {@code facts}. */
    public static ReportRun start(final String part, final String title, final ReportOptions options,
        final PrintStream out, final List<String> facts)
    {
        final Report report = new Report(part, title, RunStamp.start(options.command()), facts);
        report.humanNotes(options.humanNotes());
        out.print(MarkdownReport.header(report));
        out.println();
        return new ReportRun(report, options, out);
    }

    /** Adds {@code block} to the report and prints it (a chart prints nothing: it is an image of the page). */
    public ReportRun add(final Block block)
    {
        report.add(block);
        final String text = MarkdownReport.block(report, block, false);
        if (!text.isEmpty())
        {
            out.print(text);
            out.println();
        }
        return this;
    }

    /** Adds a fact to the Notes section (printed at the end). */
    public ReportRun note(final String fact)
    {
        report.note(fact);
        return this;
    }

    /** The report so far. */
    public Report report()
    {
        return report;
    }

    /**
     * Stamps the end; prints the notes, the run time and the load average; writes the page and its charts
     * if {@code --report} named a directory.
     *
     * @return the page written, or null without {@code --report}.
     */
    public Path finish() throws IOException
    {
        report.stamp(report.stamp().finish());
        out.print(MarkdownReport.notes(report));
        out.println();
        out.print(MarkdownReport.footer(report.stamp()));
        if (options.directory() == null)
        {
            return null;
        }
        final List<Path> written = ReportFiles.write(report, options.directory());
        System.err.println("[report] wrote " + written.getFirst() + (written.size() == 1 ? "" : " and " +
            (written.size() - 1) + " chart" + (written.size() == 2 ? "" : "s") + " beside it"));
        return written.getFirst();
    }
}
