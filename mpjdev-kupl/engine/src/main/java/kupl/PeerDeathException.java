package kupl;

import java.util.Optional;

/**
 * A process of the comm died while this process waited for it (in a fence, a peer fence, a
 * window free) or needed it (in an out-of-band step of comm creation, window allocation or
 * comm destruction). Thrown instead of waiting for ever; the message starts with
 * "rank N died".
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

    /**
     * @param cause what failed because of the death (an out-of-band callback's error, for instance).
     */
    public PeerDeathException(final int deadRank, final String message, final Throwable cause)
    {
        super(message, cause);
        this.deadRank = deadRank;
    }

    /** Rank of the process that is gone. */
    public int deadRank()
    {
        return deadRank;
    }

    /**
     * The first peer death in {@code failure}'s cause chain ({@code failure} included): how a layer
     * above finds the death behind an error that its transport or the engine wrapped.
     */
    public static Optional<PeerDeathException> in(final Throwable failure)
    {
        // A chain can loop (a cause set to an ancestor): stop after a generous number of links.
        Throwable link = failure;
        for (int depth = 0; link != null && depth < 64; depth++, link = link.getCause())
        {
            if (link instanceof PeerDeathException death)
            {
                return Optional.of(death);
            }
        }
        return Optional.empty();
    }
}
