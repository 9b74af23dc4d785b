package bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the benchmarks say about the machine they ran on, beside their figures. */
final class Machine
{
    private Machine()
    {
    }

    /**
     * The load average over 1, 5 and 15 minutes ({@code /proc/loadavg}): on a shared machine it tells
     * whether the figures beside it were measured on idle cores.
     */
    static String loadAverage()
    {
        try
        {
            final String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        }
        catch (final IOException e)
        {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
