package mpjrun;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Copies what one rank prints to the launcher's stream, a whole line at a time (so that lines
 * of different ranks never mix), each line prefixed with {@code [rank] } if asked, and shown to an
 * observer if there is one (the launcher judges a starter's job by its output as it streams by).
 */
final class OutputForwarder implements Runnable
{
    private final InputStream in;
    private final PrintStream out;
    private final byte[] prefix;
    private final Consumer<String> observer;

    OutputForwarder(final InputStream in, final PrintStream out, final String prefix)
    {
        this(in, out, prefix, line -> { });
    }

    /** @param observer gets each line, without its line end, after it was copied. */
    OutputForwarder(final InputStream in, final PrintStream out, final String prefix, final Consumer<String> observer)
    {
        this.in = in;
        this.out = out;
        this.prefix = prefix == null ? new byte[0] : prefix.getBytes(StandardCharsets.UTF_8);
        this.observer = observer;
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
                for (int i = 0; i < n; i++)
                {
                    if (length == line.length)
                    {
                        line = java.util.Arrays.copyOf(line, line.length * 2);
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
            // The rank's end of the pipe is gone: nothing more to copy.
        }
        if (length > 0)
        {
            line = java.util.Arrays.copyOf(line, length + 1);
            line[length] = '\n';
            emit(line, length + 1);
        }
    }

    private void emit(final byte[] line, final int length)
    {
        synchronized (out)
        {
            out.write(prefix, 0, prefix.length);
            out.write(line, 0, length);
            out.flush();
        }
        observer.accept(new String(line, 0, length, StandardCharsets.UTF_8).stripTrailing());
    }
}
