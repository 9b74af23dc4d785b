package bench.report;

import java.util.Objects;

/**
 * Markdown prose, a list or a heading of a {@link Report}, written as given.
 *
 * @param markdown one or more lines, without a trailing blank line.
 */
public record Text(String markdown) implements Block
{
    public Text
    {
        Objects.requireNonNull(markdown, "markdown");
    }

    /** A heading of {@code level} (2 for {@code ##}); level 1 is the report's own title. */
    public static Text heading(final int level, final String words)
    {
        if (level < 2 || level > 6)
        {
            throw new IllegalArgumentException("a section heading has level 2 to 6, not " + level);
        }
        return new Text("#".repeat(level) + " " + words);
    }
}
