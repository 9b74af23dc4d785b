package kupl;

/**
 * A KUPL call failed. The message says what was wrong, with the values involved and, where
 * there is one, what to change.
 */
public class KuplException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public KuplException(final String message)
    {
        super(message);
    }

    public KuplException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
