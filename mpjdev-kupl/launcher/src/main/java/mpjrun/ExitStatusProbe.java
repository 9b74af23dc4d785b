package mpjrun;

import java.util.OptionalInt;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The status a JVM's {@code System.exit} was called with, read in a shutdown hook, where Java offers
 * no API for it. Since JDK 21, {@code Runtime.exit} logs {@code Runtime.exit() called with status: N}
 * (with a {@code Throwable("Runtime.exit(N)")}) to the {@code java.lang.Runtime} logger at DEBUG, before
 * the hooks run; with java.util.logging as the JDK's logging backend, a handler on that logger sees it.
 *
 * <p>Nothing is printed: the logger does not pass the record on to the console. A program that resets
 * java.util.logging ({@code LogManager.reset()}) removes the handler; the status is unknown then.
 */
final class ExitStatusProbe
{
    private static final String LOGGER = "java.lang.Runtime";
    private static final Pattern STATUS = Pattern.compile("Runtime\\.exit\\((-?\\d+)\\)|status: (-?\\d+)");

    /** Held so that the logger, and with it the level and handler set here, is not collected. */
    private final Logger logger = Logger.getLogger(LOGGER);
    private volatile OptionalInt status = OptionalInt.empty();

    ExitStatusProbe()
    {
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.FINE);
        logger.addHandler(new Handler()
        {
            @Override
            public void publish(final LogRecord record)
            {
                final OptionalInt found = parse(record.getThrown() != null ? record.getThrown().getMessage() : null)
                    .isPresent() ? parse(record.getThrown().getMessage()) : parse(record.getMessage());
                if (found.isPresent())
                {
                    status = found;
                }
            }

            @Override
            public void flush()
            {
            }

            @Override
            public void close()
            {
            }
        });
    }

    /** The status {@code System.exit} was called with, if it was and the log said so. */
    OptionalInt status()
    {
        return status;
    }

    static OptionalInt parse(final String text)
    {
        if (text == null)
        {
            return OptionalInt.empty();
        }
        final Matcher matcher = STATUS.matcher(text);
        if (!matcher.find())
        {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(matcher.group(1) != null ? matcher.group(1) : matcher.group(2)));
    }
}
