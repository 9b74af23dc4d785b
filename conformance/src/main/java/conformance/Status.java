package conformance;

/**
 * How one case ended, on one rank or (the worst of all ranks) for the whole job. Declared from
 * best to worst, so that {@link #worse} picks the one to report.
 */
public enum Status
{
    /** Every check held. */
    PASS,
    /** Not run: the configuration has fewer processes than the case needs. */
    SKIP,
    /** A check did not hold: the implementation behaves differently from the standard. */
    FAIL,
    /** The case threw something it did not expect. */
    ERROR,
    /** The case did not finish within its time limit on some rank (hung). */
    TIMEOUT,
    /** The job ended (crashed, or was killed) before the case reported. */
    NORUN;

    /** The worse of this and {@code other}. */
    public Status worse(final Status other)
    {
        return other.ordinal() > ordinal() ? other : this;
    }

    /** Whether the case behaved as the standard says (a skip is no failure). */
    public boolean isGood()
    {
        return this == PASS || this == SKIP;
    }
}
