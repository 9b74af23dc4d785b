package mpjrun;

import java.util.ArrayList;
import java.util.List;

/**
 * A stack trace that MPJ Express 0.44's starter prints after a successful cluster job, which is not a
 * failure: its {@code runtime.starter.IOMessagesThread} copies a daemon's output line by line until a
 * line ends with {@code EXIT}, but the daemon may send its {@code EXIT} and its next {@code @Ping#}
 * as one line ({@code EXIT@Ping#}). The starter then prints that line, reads on past the end of the
 * closed connection, and prints {@code java.util.NoSuchElementException: No line found} with its
 * frames ({@code Scanner.nextLine}, {@code IOMessagesThread}). Seen on niodev jobs whose every rank
 * had ended well, more often on a busy machine.
 *
 * <p>Only as many such traces are forgiven as the output has {@code EXIT@Ping#} lines (one per daemon
 * connection that ended this way), so that a connection lost before its {@code EXIT} still counts.
 */
final class StarterEndOfStream
{
    /** The line the starter prints when a daemon's EXIT and its next ping arrive as one line. */
    static final String MERGED_EXIT = "EXIT@Ping#";
    private static final String EXCEPTION = "java.util.NoSuchElementException: No line found";

    private StarterEndOfStream()
    {
    }

    /** Whether {@code line} is the starter's merged end line. */
    static boolean isMergedExit(final String line)
    {
        return line.strip().equals(MERGED_EXIT);
    }

    /**
     * {@code failureLines} (in output order) without at most {@code mergedExits} of the traces described
     * above: each trace's exception line and the frames that follow it in the reading thread.
     */
    static List<String> withoutBenignEnds(final List<String> failureLines, final long mergedExits)
    {
        final List<String> kept = new ArrayList<>();
        long forgivable = mergedExits;
        boolean inBenignTrace = false;
        for (final String line : failureLines)
        {
            final String stripped = line.strip();
            if (forgivable > 0 && stripped.equals(EXCEPTION))
            {
                forgivable--;
                inBenignTrace = true;
                continue;
            }
            if (inBenignTrace && isReadingFrame(stripped))
            {
                continue;
            }
            inBenignTrace = false;
            kept.add(line);
        }
        return kept;
    }

    private static boolean isReadingFrame(final String line)
    {
        return line.startsWith("at ") && (line.contains("java.util.Scanner.") ||
            line.contains("runtime.starter.IOMessagesThread.") || line.contains("java.lang.Thread.run"));
    }
}
