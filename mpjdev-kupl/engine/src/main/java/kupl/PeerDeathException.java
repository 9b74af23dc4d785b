package kupl;

/**
 * A process of the comm died while this process waited for it (in a fence, a peer fence or
 * a window free). Thrown instead of waiting for ever.
 */
public final class PeerDeathException extends KuplException
{
    private static final long serialVersionUID = 1L;

    private final int deadRank;

    public PeerDeathException(final int deadRank, final String message)
    {
        super(message);
        this.deadRank = deadRank;
    }

    /** Rank of the process that is gone. */
    public int deadRank()
    {
        return deadRank;
    }
}
