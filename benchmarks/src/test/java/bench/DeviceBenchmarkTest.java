package bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The device benchmark's smoke run completes and prints every row with a shm figure (and a
 * multicore one where MPJ Express is installed). No timing is checked: on shared 2-core machines
 * figures say nothing in a test.
 */
class DeviceBenchmarkTest
{
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldPrintEveryRowInQuickMode() throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            DeviceBenchmark.run(new String[] {"--quick"}, out);
        }
        final String report = bytes.toString(StandardCharsets.UTF_8);
        final List<String> rows = List.of("| ping-pong half round trip, 8 B, us | ", "| ping-pong half round trip, 1 MiB",
            "| bandwidth, 1 MiB messages, GB/s | ", "| bandwidth, 16 MiB messages", "| Barrier, 2 processes, us | ",
            "| Allreduce 8 doubles, 2 processes", "| Barrier, 4 processes, us | ", "| Allreduce 8 doubles, 4 processes");
        for (final String row : rows)
        {
            final List<String> matching = report.lines().filter(line -> line.startsWith(row)).toList();
            assertTrue(matching.size() == 1, () -> "no row \"" + row + "\" in:\n" + report);
            final String[] cells = matching.getFirst().split("\\|");
            assertFalse(cells[2].contains("n/a"), () -> "no shm figure in \"" + row + "\":\n" + report);
            if (mpjrun.MpjHome.unavailableReason() == null)
            {
                assertFalse(cells[3].contains("n/a"), () -> "no multicore figure in \"" + row + "\":\n" + report);
            }
        }
        assertTrue(report.contains("Run time: "), report);
    }
}
