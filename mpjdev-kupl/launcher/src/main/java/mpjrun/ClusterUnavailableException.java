package mpjrun;

import java.io.IOException;

/**
 * A simulated cluster cannot be made here (not root, no {@code ip netns}, ...); the message says
 * why and is what a test prints when it skips.
 */
public final class ClusterUnavailableException extends IOException
{
    private static final long serialVersionUID = 1L;

    public ClusterUnavailableException(final String message)
    {
        super(message);
    }
}
