package mpjrun.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Reads one stream of a child process to its end: keeps every byte in a {@link CapturedOutput}
 * as it arrives, and copies it to a {@link PrintStream} a whole line at a time (so that lines of
 * different ranks never mix), each line prefixed (with {@code [rank] }, say). Either may be
 * absent. Reading to the end also keeps the child from blocking on a full pipe.
 */
public final class OutputForwarder implements Runnable
{
    private final InputStream in;
    private final CapturedOutput capture;
    private final PrintStream echo;
    private final byte[] prefix;
    private final Consumer<String> observer;

    /**
     * @param in      the child's stdout or stderr.
     * @param capture where every byte is kept, or null.
     * @param echo    where each line is copied, or null.
     * @param prefix  put before each copied line ({@code ""} for none).
     */
    public OutputForwarder(final InputStream in, final CapturedOutput capture, final PrintStream echo,
        final String prefix)
    {
        this(in, capture, echo, prefix, line -> { });
    }

    /**
     * As above, and {@code observer} gets each copied line, without its line end, after it was copied (a
     * launcher judges a starter's job by its output as it streams by).
     */
    public OutputForwarder(final InputStream in, final CapturedOutput capture, final PrintStream echo,
        final String prefix, final Consumer<String> observer)
    {
        this.in = java.util.Objects.requireNonNull(in, "in");
        this.capture = capture;
        this.echo = echo;
        this.prefix = java.util.Objects.requireNonNull(prefix, "prefix").getBytes(StandardCharsets.UTF_8);
        this.observer = java.util.Objects.requireNonNull(observer, "observer");
    }

    @Override
    public void run()
    {
        final byte[] buffer = new byte[8192];
        byte[] line = new byte[256];
        int length = 0;
        try (InputStream stream = in)
        {
            for (int n; (n = stream.read(buffer)) > 0; )
            {
                if (capture != null)
                {
                    capture.append(buffer, 0, n);
                }
                if (echo == null)
                {
                    continue;
                }
                for (int i = 0; i < n; i++)
                {
                    if (length == line.length)
                    {
                        line = Arrays.copyOf(line, line.length * 2);
                    }
                    line[length++] = buffer[i];
                    if (buffer[i] == '\n')
                    {
                        emit(line, length);
                        length = 0;
                    }
                }
            }
        }
        catch (final IOException e)
        {
            // The child's end of the pipe is gone: nothing more to copy.
        }
        if (length > 0)
        {
            // A last line without its newline still gets one, so that the next writer starts a line of its own.
            line = Arrays.copyOf(line, length + 1);
            line[length] = '\n';
            emit(line, length + 1);
        }
    }

    private void emit(final byte[] line, final int length)
    {
        synchronized (echo)
        {
            echo.write(prefix, 0, prefix.length);
            echo.write(line, 0, length);
            echo.flush();
        }
        final int end = length > 0 && line[length - 1] == '\n' ? length - 1 : length;
        observer.accept(new String(line, 0, end, StandardCharsets.UTF_8));
    }
}
