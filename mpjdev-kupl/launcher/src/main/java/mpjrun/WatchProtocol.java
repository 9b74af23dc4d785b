package mpjrun;

import java.nio.charset.StandardCharsets;
import java.nio.charset.Charset;

/**
 * The job watch's wire protocol between {@link JobWatch} (in the launcher) and each rank's
 * {@link JobWatchClient}: one TCP connection per rank, lines of UTF-8 text ending in {@code '\n'}.
 *
 * <pre>
 * rank to launcher                    launcher to rank
 * HELLO &lt;token&gt; &lt;rank|?&gt; &lt;pid&gt; &lt;host&gt;   first   BEAT                every second
 * RANK &lt;rank&gt;         once known       DIED &lt;rank|-1&gt; &lt;how&gt;   the first rank that died, how it was noticed
 * BEAT                every second
 * DONE                main returned
 * EXIT &lt;status|?&gt;      the JVM shuts down (System.exit, or a signal: ?)
 * FAILED &lt;text&gt;       main threw
 * </pre>
 *
 * A rank says {@code ?} in {@code HELLO} when it cannot know its rank before {@code MPI.Init} (hybdev
 * gives each rank thread its index within the JVM), and {@code RANK} once it can.
 *
 * <p>A connection that ends without {@code DONE}, {@code EXIT 0}, or that stays silent for
 * {@link #SILENCE_LIMIT_MS}, is a dead rank; a launcher silent that long is a lost launcher.
 */
final class WatchProtocol
{
    static final Charset CHARSET = StandardCharsets.UTF_8;
    static final String HELLO = "HELLO";
    static final String BEAT = "BEAT";
    static final String DONE = "DONE";
    static final String EXIT = "EXIT";
    static final String FAILED = "FAILED";
    static final String DIED = "DIED";
    static final String RANK = "RANK";
    /** What {@code HELLO} carries for a rank not known yet. */
    static final String UNKNOWN_RANK = "?";
    /** What {@code EXIT} carries when the JVM shuts down without a status it could read (a signal). */
    static final String UNKNOWN_STATUS = "?";
    /** How often each side says {@code BEAT}. */
    static final long BEAT_INTERVAL_MS = 1000;
    /** How often each side looks at how long the other has been silent: a death is seen at most this late. */
    static final long CHECK_INTERVAL_MS = 250;
    /**
     * How long a side may stay silent before the other takes it for gone: five beats, so that a loaded
     * machine's late beat is not a death, while a host that powers off is noticed within about 5-6 s.
     */
    static final long SILENCE_LIMIT_MS = 5000;
    /** How long a new connection has to say {@code HELLO}. */
    static final int HELLO_TIMEOUT_MS = 10_000;

    private WatchProtocol()
    {
    }

    /** {@code text} on one line: a message must not end the protocol's line early. */
    static String oneLine(final String text)
    {
        return text.replaceAll("[\\r\\n]+", " ").strip();
    }
}
