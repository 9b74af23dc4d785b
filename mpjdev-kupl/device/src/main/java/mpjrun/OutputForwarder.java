package mpjrun;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies what one rank prints to the launcher's stream, a whole line at a time (so that lines
 * of different ranks never mix), each line prefixed with {@code [rank] } if asked.
 */
final class OutputForwarder implements Runnable
{
    private final InputStream in;
    private final PrintStream out;
    private final byte[] prefix;

    OutputForwarder(final InputStream in, final PrintStream out, final String prefix)
    {
        this.in = in;
        this.out = out;
        this.prefix = prefix == null ? new byte[0] : prefix.getBytes(StandardCharsets.UTF_8);
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
    }
}
