package bench.report;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A chart of a {@link Report}: one horizontal bar per {@link Ratio}, written as {@code <part>-<name>.svg}
 * beside the page ({@link SvgRatioChart}).
 *
 * @param name      the file's suffix: lower-case letters, digits and dashes.
 * @param title     what the bars compare, e.g. {@code "shm against the engine's fence"}.
 * @param axisLabel what a ratio means, e.g. {@code "shm time / fence time (above 1: shm takes longer)"}.
 * @param bars      the rows, top to bottom.
 */
public record Chart(String name, String title, String axisLabel, List<Ratio> bars) implements Block
{
    private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    public Chart
    {
        if (!NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException("a chart's name is lower-case letters, digits and dashes, not '" +
                name + "'");
        }
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(axisLabel, "axisLabel");
        bars = List.copyOf(bars);
    }

    /** The bars that have a target and miss it. */
    public List<Ratio> missed()
    {
        return bars.stream().filter(Ratio::isMissed).toList();
    }
}
