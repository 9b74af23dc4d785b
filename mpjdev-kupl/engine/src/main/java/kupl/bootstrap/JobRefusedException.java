package kupl.bootstrap;

import java.io.IOException;

/**
 * The job's hub refused this process's arrival: the job was given up before it started, for a
 * reason that lies with other processes (one ended before it joined, or did not arrive in time),
 * which the message names. A launcher can tell from it that this process failed because of another,
 * not of its own accord ({@link SocketOob#connect} throws it as the cause of its error).
 */
public final class JobRefusedException extends IOException
{
    private static final long serialVersionUID = 1L;

    JobRefusedException(final String why)
    {
        super("the job was given up: " + why);
    }

    /** Whether {@code failure}'s cause chain ({@code failure} included) holds a refusal. */
    public static boolean in(final Throwable failure)
    {
        // A chain can loop (a cause set to an ancestor): stop after a generous number of links.
        Throwable link = failure;
        for (int depth = 0; link != null && depth < 64; depth++, link = link.getCause())
        {
            if (link instanceof JobRefusedException)
            {
                return true;
            }
        }
        return false;
    }
}
