package kupl.bootstrap;

/**
 * A process's exit status in words, for the hub's messages about ranks that ended ({@link OobHub},
 * {@link ArrivalRoll}) and for every launcher of this project, so that a rank's end reads alike wherever
 * it is reported.
 */
public final class ExitStatus
{
    private static final int SIGNAL_BASE = 128;
    private static final int LAST_SIGNAL = 64;
    private static final int SIGKILL = 9;
    private static final int SIGTERM = 15;

    private ExitStatus()
    {
    }

    /**
     * {@code status} in words: "exited with status 3", "was killed by signal 9 (SIGKILL), exit status 137"
     * (a shell reports a process killed by signal n as 128 + n).
     */
    public static String describe(final int status)
    {
        if (status > SIGNAL_BASE && status <= SIGNAL_BASE + LAST_SIGNAL)
        {
            final int signal = status - SIGNAL_BASE;
            return "was killed by signal " + signal + (signal == SIGKILL ? " (SIGKILL)" :
                signal == SIGTERM ? " (SIGTERM)" : "") + ", exit status " + status;
        }
        return "exited with status " + status;
    }
}
