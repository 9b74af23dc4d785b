package bench.report;

import java.util.Locale;
import java.util.Objects;

/**
 * One row's figure against its reference in the same run, as a bar of a {@link Chart} and as the
 * cells of a {@link Table}: the benchmark makes both from one {@code Ratio}, so that they cannot disagree.
 *
 * @param label     the row, as the chart names its bar (e.g. {@code "Barrier, 2 processes"}).
 * @param measured  our figure, in the row's unit (for the tooltip; the chart draws {@code value}).
 * @param reference the reference's figure, in the same unit.
 * @param unit      the unit of both figures, e.g. {@code "us"} or {@code "GB/s"}; may be empty.
 * @param value     the ratio drawn and printed: usually {@code measured / reference}, but for rates compared as
 *                  times, {@code reference / measured} (see {@link #ofRatesAsTimes}).
 * @param target    the goal the ratio should meet, or null where the row has none.
 */
public record Ratio(String label, double measured, double reference, String unit, double value, Target target)
{
    public Ratio
    {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(unit, "unit");
    }

    /** {@code measured / reference}, without a target. */
    public static Ratio of(final String label, final double measured, final double reference, final String unit)
    {
        return new Ratio(label, measured, reference, unit, measured / reference, null);
    }

    /**
     * Two rates compared as the times they imply, {@code reference / measured}: above 1 means ours takes
     * longer, as for the time rows beside it.
     */
    public static Ratio ofRatesAsTimes(final String label, final double measured, final double reference,
        final String unit)
    {
        return new Ratio(label, measured, reference, unit, reference / measured, null);
    }

    /** The same ratio with {@code goal} as its target. */
    public Ratio against(final Target goal)
    {
        return new Ratio(label, measured, reference, unit, value, Objects.requireNonNull(goal, "goal"));
    }

    /** Whether the ratio could be computed (both figures measured, the reference not zero). */
    public boolean isMeasured()
    {
        return Double.isFinite(value);
    }

    public boolean hasTarget()
    {
        return target != null;
    }

    /** Whether the row has a target and meets it. */
    public boolean isMet()
    {
        return target != null && isMeasured() && target.isMetBy(value);
    }

    /** Whether the row has a target and misses it (or could not be measured against it). */
    public boolean isMissed()
    {
        return target != null && !isMet();
    }

    /** The ratio as tables and charts print it: {@code "1.23x"}, or {@code "n/a"}. */
    public String text()
    {
        return isMeasured() ? String.format(Locale.ROOT, "%.2fx", value) : "n/a";
    }

    /** {@link #text()} for a measured ratio; empty for one that is not, as a table's ratio column leaves it. */
    public String textIfMeasured()
    {
        return isMeasured() ? text() : "";
    }

    /** The "met" cell of a table: {@code "yes"} or {@code "NO"}; empty without a target. */
    public String metText()
    {
        return target == null ? "" : isMet() ? "yes" : "NO";
    }

    /** Both figures in words, e.g. {@code "0.42 us against 0.31 us"}. */
    public String figures()
    {
        final String suffix = unit.isEmpty() ? "" : " " + unit;
        return number(measured) + suffix + " against " + number(reference) + suffix;
    }

    private static String number(final double figure)
    {
        if (!Double.isFinite(figure))
        {
            return "n/a";
        }
        final double magnitude = Math.abs(figure);
        return String.format(Locale.ROOT, magnitude >= 100 ? "%,.0f" : magnitude >= 10 ? "%.1f" : "%.3g", figure);
    }
}
