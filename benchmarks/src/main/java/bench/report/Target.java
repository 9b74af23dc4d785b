package bench.report;

import java.util.Locale;

/**
 * What a {@link Ratio} should be to meet its goal: at most a bound (a time against its reference) or at
 * least one (a rate, or a share of a reference's bandwidth).
 *
 * @param bound  the ratio the goal is stated in, e.g. 1.5 for "at most 1.5 times the fence".
 * @param atMost whether the ratio must stay at or below {@code bound}; otherwise at or above it.
 */
public record Target(double bound, boolean atMost)
{
    public Target
    {
        if (!(bound > 0) || Double.isInfinite(bound))
        {
            throw new IllegalArgumentException("a target's bound must be a positive number, not " + bound);
        }
    }

    /** The ratio must not exceed {@code bound}. */
    public static Target atMost(final double bound)
    {
        return new Target(bound, true);
    }

    /** The ratio must reach {@code bound}. */
    public static Target atLeast(final double bound)
    {
        return new Target(bound, false);
    }

    /** Whether {@code ratio} meets the goal; a ratio that is not a number meets none. */
    public boolean isMetBy(final double ratio)
    {
        return atMost ? ratio <= bound : ratio >= bound;
    }

    /** {@code "<= 1.5x"} or {@code ">= 0.8x"}; a bound such as 1/3 with three significant digits, {@code "<= 0.333x"}. */
    public String describe()
    {
        final String exact = String.format(Locale.ROOT, "%s", bound);
        return (atMost ? "<= " : ">= ") + (exact.length() <= 6 ? exact : String.format(Locale.ROOT, "%.3g", bound)) +
            "x";
    }
}
