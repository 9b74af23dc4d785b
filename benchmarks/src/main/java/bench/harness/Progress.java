package bench.harness;

/**
 * A benchmark's progress lines on standard error, each behind the benchmark's own prefix, so that standard
 * output holds only its tables.
 */
public final class Progress
{
    private final String prefix;

    /** Progress lines that start with {@code prefix}, e.g. {@code "[bench-apps] "}. */
    public Progress(final String prefix)
    {
        this.prefix = prefix;
    }

    /** Prints {@code what} behind the prefix. */
    public void say(final String what)
    {
        System.err.println(prefix + what);
    }
}
