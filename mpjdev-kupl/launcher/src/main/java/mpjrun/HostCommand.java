package mpjrun;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A short system command ({@code ip ...}, {@code kill}) run to its end, its output (stdout and
 * stderr merged) returned; a failure is an {@link IOException} naming the command, its status
 * and what it printed.
 */
final class HostCommand
{
    /** An {@code ip} command takes milliseconds; this only turns a hang into an error. */
    private static final long TIMEOUT_SECONDS = 30;

    private HostCommand()
    {
    }

    /** Runs {@code command}; returns its output. */
    static String run(final String... command) throws IOException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        try (InputStream output = process.getInputStream())
        {
            final String text = new String(output.readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new IOException("'" + String.join(" ", command) + "' did not end within " + TIMEOUT_SECONDS +
                    " s");
            }
            if (process.exitValue() != 0)
            {
                throw new IOException("'" + String.join(" ", command) + "' failed with status " +
                    process.exitValue() + ": " + text.strip());
            }
            return text;
        }
        catch (final InterruptedException e)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running '" + String.join(" ", command) + "'", e);
        }
    }

    /** Runs {@code command}, adding a failure's message to {@code problems} instead of throwing. */
    static void runNoting(final List<String> problems, final String... command)
    {
        try
        {
            run(command);
        }
        catch (final IOException e)
        {
            problems.add(e.getMessage());
        }
    }
}
