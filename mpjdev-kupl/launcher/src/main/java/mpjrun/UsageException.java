package mpjrun;

/** A bad command line for {@code bin/mpjrun}: its message says which argument and why; the exit code is 2. */
final class UsageException extends Exception
{
    private static final long serialVersionUID = 1L;

    UsageException(final String message)
    {
        super(message);
    }
}
