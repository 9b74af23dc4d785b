package bench.harness;

/**
 * A command line a benchmark cannot run: its message is the problem, then the benchmark's usage line, as
 * {@link CommandLine#parse} writes it and the benchmark's main method prints it before it exits with status 2.
 */
public final class UsageException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /** {@code problem} (e.g. "--reps needs a value"), then {@code usage} after a semicolon. */
    public UsageException(final String problem, final String usage)
    {
        super(problem + "; " + usage);
    }
}
