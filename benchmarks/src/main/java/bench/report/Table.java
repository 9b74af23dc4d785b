package bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A table of a {@link Report}: a header and rows of cells, printed as a Markdown table on the console and in
 * the page alike. Cells are text; a benchmark fills a ratio's cells from the {@link Ratio} it also charts.
 */
public final class Table implements Block
{
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(final List<String> header)
    {
        if (header.isEmpty())
        {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        this.header = List.copyOf(header);
    }

    public Table(final String... header)
    {
        this(Arrays.asList(header));
    }

    /**
     * Adds a row.
     *
     * @throws IllegalArgumentException unless it has one cell per column.
     */
    public Table row(final List<String> cells)
    {
        if (cells.size() != header.size())
        {
            throw new IllegalArgumentException("a row of " + cells.size() + " cells in a table of " + header.size() +
                " columns " + header + ": " + cells);
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public Table row(final String... cells)
    {
        return row(Arrays.asList(cells));
    }

    public List<String> header()
    {
        return header;
    }

    public List<List<String>> rows()
    {
        return Collections.unmodifiableList(rows);
    }
}
