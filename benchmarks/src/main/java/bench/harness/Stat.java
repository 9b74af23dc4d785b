package bench.harness;

import java.util.List;
import java.util.Locale;

/**
 * Median, minimum and maximum over a benchmark's repetitions, as its tables print them.
 *
 * @param ops operations per repetition, or bytes where the part says so.
 */
public record Stat(double median, double min, double max, long ops)
{
    /** For each repetition the slowest of {@code ranks} ranks' values (a collective lasts as long as its slowest). */
    public static Stat overRanks(final List<Samples.Line> lines, final int ranks)
    {
        final double[] values = Samples.maxOverRanks(lines, ranks);
        return new Stat(Samples.median(values), Samples.min(values), Samples.max(values),
            lines.getFirst().opsPerRepetition());
    }

    /** The one line of {@code lines}. */
    public static Stat of(final List<Samples.Line> lines)
    {
        return overRanks(lines, 1);
    }

    /** The line of rank {@code rank}. */
    public static Stat ofRank(final List<Samples.Line> lines, final int rank)
    {
        return of(lines.stream().filter(line -> line.rank() == rank).toList());
    }

    /** Of values measured outside {@link Samples} lines (one per repetition); no operation count. */
    public static Stat of(final double[] values)
    {
        return new Stat(Samples.median(values), Samples.min(values), Samples.max(values), 0);
    }

    public String format(final String number)
    {
        return format(number, 1.0);
    }

    /** "median (min-max)", each multiplied by {@code scale}. */
    public String format(final String number, final double scale)
    {
        return String.format(Locale.ROOT, number + " (" + number + "-" + number + ")",
            median * scale, min * scale, max * scale);
    }
}
