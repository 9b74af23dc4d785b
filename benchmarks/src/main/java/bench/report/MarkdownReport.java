package bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes a {@link Report} as Markdown: the whole page for {@code --report}, and the same parts one at a
 * time for the console while the run goes on ({@link ReportRun}). The page and the console differ only
 * where they must: the page shows each chart as an image beside it and puts the end of the run in its
 * stamp; the console, which has no images, ends with a line of run time and load instead.
 */
public final class MarkdownReport
{
    private MarkdownReport()
    {
    }

    /** The page: title, stamp and facts, the body, then the notes. */
    public static String page(final Report report)
    {
        final StringBuilder page = new StringBuilder(header(report));
        for (final Block block : report.blocks())
        {
            final String text = block(report, block, true);
            if (!text.isEmpty())
            {
                page.append('\n').append(text);
            }
        }
        return page.append('\n').append(notes(report)).toString();
    }

    /** The title, the stamp (with its end once the run is over) and the benchmark's facts, as a list. */
    public static String header(final Report report)
    {
        final RunStamp stamp = report.stamp();
        final List<String> lines = new ArrayList<>();
        lines.add("- date: " + stamp.dateText());
        lines.add("- machine: " + stamp.machine());
        lines.add("- JDK: " + stamp.jdk());
        lines.add("- command: `" + stamp.command() + "`" +
            (stamp.revision().isEmpty() ? "" : " (source " + stamp.revision() + ")"));
        lines.add("- load average (1, 5, 15 min): " + stamp.loadAtStart() + " at the start" +
            (stamp.isFinished() ? ", " + stamp.loadAtEnd() + " at the end" : "") +
            " (other work on these cores skews every figure)");
        if (stamp.isFinished())
        {
            lines.add("- run time: " + stamp.runTimeText());
        }
        report.facts().forEach(fact -> lines.add("- " + fact));
        return "# " + report.title() + "\n\n" + String.join("\n", lines) + "\n";
    }

    /**
     * One block, ending with a newline; a chart is an image link on the page ({@code onPage}) and nothing
     * on the console.
     */
    public static String block(final Report report, final Block block, final boolean onPage)
    {
        return switch (block)
        {
            case Text text -> text.markdown() + "\n";
            case Table table -> table(table);
            case Chart chart -> onPage ? "![" + chart.title() + "](" + report.fileName(chart) + ")\n" : "";
        };
    }

    /** A Markdown table: the header, the rule, one line per row. */
    public static String table(final Table table)
    {
        final StringBuilder text = new StringBuilder(line(table.header()));
        text.append('|').append("---|".repeat(table.header().size())).append('\n');
        table.rows().forEach(row -> text.append(line(row)));
        return text.toString();
    }

    /**
     * The Notes section: the benchmark's facts, then each row that missed its target (or that every row with
     * a target met it), then the human's notes.
     */
    public static String notes(final Report report)
    {
        final List<String> items = new ArrayList<>(report.notes());
        final StringBuilder missed = new StringBuilder();
        int targets = 0;
        int misses = 0;
        for (final Chart chart : report.charts())
        {
            targets += (int)chart.bars().stream().filter(Ratio::hasTarget).count();
            if (!chart.missed().isEmpty())
            {
                missed.append("\n  - ").append(chart.title()).append(':');
            }
            for (final Ratio ratio : chart.missed())
            {
                misses++;
                missed.append("\n    - ").append(ratio.label()).append(": ").append(ratio.text()).append(" (target ")
                    .append(ratio.target().describe()).append("; ").append(ratio.figures()).append(')');
            }
        }
        if (misses > 0)
        {
            items.add("Missed " + misses + " of " + targets + " targets:" + missed);
        }
        else if (targets > 0)
        {
            items.add("Every one of the " + targets + " rows with a target met it.");
        }
        final StringBuilder text = new StringBuilder("## Notes\n\n");
        if (items.isEmpty() && report.humanNotes().isEmpty())
        {
            text.append("Nothing noted.\n");
        }
        items.forEach(item -> text.append("- ").append(item).append('\n'));
        if (!report.humanNotes().isEmpty())
        {
            text.append(items.isEmpty() ? "" : "\n").append(report.humanNotes()).append('\n');
        }
        return text.toString();
    }

    /** The console's last line: run time and the load average at the end. */
    public static String footer(final RunStamp finished)
    {
        return "Run time: " + finished.runTimeText() + "; load average at the end: " + finished.loadAtEnd() + "\n";
    }

    private static String line(final List<String> cells)
    {
        return "| " + String.join(" | ", cells) + " |\n";
    }
}
