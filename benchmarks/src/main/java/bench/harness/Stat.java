package bench.harness;

import java.util.Arrays;
import java.util.Collection;
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
        return new Stat(median(values), min(values), max(values),
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
        return new Stat(median(values), min(values), max(values), 0);
    }

    /** The median of {@code values}: the middle one, or the mean of the middle two for an even count. */
    public static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** The median of {@code values} ({@link #median(double[])}); not a number if there are none. */
    public static double median(final Collection<Double> values)
    {
        return values == null || values.isEmpty() ? Double.NaN :
            median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    public static double min(final double[] values)
    {
        return Arrays.stream(values).min().orElseThrow();
    }

    public static double max(final double[] values)
    {
        return Arrays.stream(values).max().orElseThrow();
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
