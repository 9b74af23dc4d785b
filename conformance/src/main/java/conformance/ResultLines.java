package conformance;

import java.util.List;

/**
 * The lines a conformance job prints for the matrix to read: one {@value #META} line per case
 * (what it checks, the flavours it applies to and why not to the others), one {@value #CASE} line
 * per case (how it ended, over all ranks), and
 * {@value #DONE} at the end. A meta line ends with the anchor of the case's checklist entry. Fields are tab-separated; tabs and line breaks inside them become
 * spaces.
 */
public final class ResultLines
{
    public static final String META = "@@META";
    public static final String CASE = "@@CASE";
    public static final String DONE = "@@DONE";

    private ResultLines()
    {
    }

    public static String meta(final Case c)
    {
        return join(META, c.id(), c.group().name(), Integer.toString(c.minProcesses()), c.expectation(), c.source(),
            c.behaviour().anchor(), Flavour.names(c.flavours()), c.flavourNote());
    }

    public static String result(final String id, final Status status, final long millis, final String message)
    {
        return join(CASE, id, status.name(), Long.toString(millis), message);
    }

    /** The fields of {@code line} after its tag, or null if it is not a line of kind {@code tag}. */
    public static List<String> fields(final String line, final String tag)
    {
        final int start = line.indexOf(tag + "\t");
        if (start < 0)
        {
            return null;
        }
        return List.of(line.substring(start + tag.length() + 1).split("\t", -1));
    }

    private static String join(final String... fields)
    {
        final StringBuilder line = new StringBuilder();
        for (final String field : fields)
        {
            if (!line.isEmpty())
            {
                line.append('\t');
            }
            line.append(field.replace('\t', ' ').replace('\n', ' ').replace('\r', ' '));
        }
        return line.toString();
    }
}
