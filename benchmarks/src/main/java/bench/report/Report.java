package bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What one run of a benchmark measured: its stamp, a few facts about its settings, the body (prose,
 * tables and charts in order) and its notes. The console's output and the page are both written from it
 * ({@link MarkdownReport}), so they say the same thing.
 *
 * <p>Notes are of two kinds: facts the benchmark states about the run (that it was a smoke run, a
 * reference it could not measure), to which the page adds the rows that missed their targets; and a
 * human's prose, copied from {@code --notes FILE}.
 */
public final class Report
{
    private static final Pattern PART = Pattern.compile("[a-z0-9]+");

    private final String part;
    private final String title;
    private RunStamp stamp;
    private final List<String> facts;
    private final List<Block> blocks = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private String humanNotes = "";

    /**
     * @param part  the benchmark's name on {@code bin/bench}'s command line, which names the page
     *              ({@code <part>.md}) and its charts.
     * @param title the page's title.
     * @param stamp when and where it ran.
     * @param facts one line each, listed under the stamp (settings, the JVMs' options, ...).
     */
    public Report(final String part, final String title, final RunStamp stamp, final List<String> facts)
    {
        if (!PART.matcher(part).matches())
        {
            throw new IllegalArgumentException("a report's part is lower-case letters and digits, not '" + part + "'");
        }
        this.part = part;
        this.title = Objects.requireNonNull(title, "title");
        this.stamp = Objects.requireNonNull(stamp, "stamp");
        this.facts = List.copyOf(facts);
    }

    /** Appends a block to the body. */
    public Report add(final Block block)
    {
        blocks.add(Objects.requireNonNull(block, "block"));
        return this;
    }

    /** Adds a fact about the run to its notes. */
    public Report note(final String fact)
    {
        notes.add(Objects.requireNonNull(fact, "fact"));
        return this;
    }

    /** Sets the human's notes (Markdown, copied as given). */
    public Report humanNotes(final String markdown)
    {
        humanNotes = Objects.requireNonNull(markdown, "markdown").strip();
        return this;
    }

    /** Replaces the stamp, as {@link RunStamp#finish()} completes it at the end of the run. */
    public Report stamp(final RunStamp finished)
    {
        stamp = Objects.requireNonNull(finished, "finished");
        return this;
    }

    public String part()
    {
        return part;
    }

    public String title()
    {
        return title;
    }

    public RunStamp stamp()
    {
        return stamp;
    }

    public List<String> facts()
    {
        return facts;
    }

    public List<Block> blocks()
    {
        return Collections.unmodifiableList(blocks);
    }

    public List<Chart> charts()
    {
        return blocks.stream().filter(Chart.class::isInstance).map(Chart.class::cast).toList();
    }

    /** The facts the benchmark noted, in order. */
    public List<String> notes()
    {
        return Collections.unmodifiableList(notes);
    }

    public String humanNotes()
    {
        return humanNotes;
    }

    /** The chart's file name for {@code chart}: {@code <part>-<name>.svg}. */
    public String fileName(final Chart chart)
    {
        return part + "-" + chart.name() + ".svg";
    }
}
