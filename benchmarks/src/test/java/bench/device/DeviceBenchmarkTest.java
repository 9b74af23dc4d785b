package bench.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import bench.report.ReportPages;

/**
 * The device benchmark's smoke run completes and prints every row with a shm figure (and a
 * multicore one where MPJ Express is installed), the engine's fence beside Barrier and Allreduce,
 * and Open MPI's C figures or why there are none; its report page holds the same table and its charts.
 * No timing is checked: on shared 2-core machines
 * figures say nothing in a test.
 */
@Tag("slow")
class DeviceBenchmarkTest
{
    /** A table's figure: "median (min-max)". */
    private static final String FIGURE = "[0-9.,]+ \\([0-9.,]+-[0-9.,]+\\)";

    @Test
    void shouldRefuseAPartThatNamesNoRowEvenBesideKnownOnes()
    {
        final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> DeviceBenchmark.run(new String[] {"--only", "barrier,bcast"}, System.out));
        assertTrue(e.getMessage().contains("--only names bcast, which is no part of [") &&
            e.getMessage().contains("bcast:1048576"), e.getMessage());
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldPrintEveryRowInQuickModeAndReportThem(@TempDir final Path reports) throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            DeviceBenchmark.run(new String[] {"--quick", "--report", reports.toString()}, out);
        }
        final String report = bytes.toString(StandardCharsets.UTF_8);
        final List<String> rows = List.of("| ping-pong half round trip, 8 B, us | ", "| ping-pong half round trip, 1 MiB",
            "| bandwidth, 1 MiB messages, GB/s | ", "| bandwidth, 16 MiB messages", "| Barrier, 2 processes, us | ",
            "| Allreduce 8 doubles, 2 processes", "| Barrier, 4 processes, us | ", "| Allreduce 8 doubles, 4 processes",
            "| plain ping-pong (Send/Recv of byte[]) half round trip, 8 B, us | ",
            "| plain ping-pong half round trip, 64 KiB, us | ");
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
            // Barrier and Allreduce beside the engine's fence on as many processes, with their ratio.
            final boolean collective = row.contains("Barrier") || row.contains("Allreduce");
            assertEquals(collective, !cells[5].isBlank() && !cells[5].contains("n/a"),
                () -> "engine fence cell of \"" + row + "\":\n" + report);
            assertEquals(collective, cells[6].strip().endsWith("x"),
                () -> "fence ratio of \"" + row + "\":\n" + report);
            // Open MPI's C column: a figure with its ratio, or why there is none; never empty.
            assertFalse(cells[7].isBlank() || cells[7].contains("n/a"), () -> "Open MPI C cell of \"" + row + "\":\n" +
                report);
            assertEquals(!cells[7].contains("not installed"), cells[8].strip().endsWith("x"),
                () -> "C ratio of \"" + row + "\":\n" + report);
        }
        // The floor of the bandwidth rows, from the same run: the ring model and one copy beside shm, with ratios.
        for (final String row : List.of("| 1 MiB messages, GB/s | ", "| 16 MiB messages, GB/s | "))
        {
            final List<String> matching = report.lines().filter(line -> line.startsWith(row)).toList();
            assertTrue(matching.size() == 1, () -> "no floor row \"" + row + "\" in:\n" + report);
            final String[] cells = matching.getFirst().split("\\|");
            for (final int measured : new int[] {2, 3, 4})
            {
                assertTrue(cells[measured].strip().matches(FIGURE),
                    () -> "floor cell " + measured + " of \"" + row + "\":\n" + report);
            }
            assertTrue(cells[6].strip().endsWith("x") && cells[7].strip().endsWith("x"),
                () -> "floor ratios of \"" + row + "\":\n" + report);
        }
        // The floor of the 8-byte rows: the line and record models beside shm, and Open MPI C's where it is installed.
        for (final String row : List.of("| bench.device.DeviceRank, us | ",
            "| plain (Send/Recv of byte[], warmed up as a program is), us | "))
        {
            final List<String> matching = report.lines().filter(line -> line.startsWith(row)).toList();
            assertTrue(matching.size() == 1, () -> "no floor row \"" + row + "\" in:\n" + report);
            final String[] cells = matching.getFirst().split("\\|");
            assertTrue(cells[2].strip().matches(FIGURE) && cells[3].strip().matches(FIGURE) &&
                cells[4].strip().matches(FIGURE), () -> "shm and model cells of \"" + row + "\":\n" + report);
            assertTrue(cells[6].strip().endsWith("x") && cells[7].strip().endsWith("x"),
                () -> "model ratios of \"" + row + "\":\n" + report);
            assertEquals(openMpiInstalled(), cells[5].strip().matches(FIGURE) && cells[8].strip().endsWith("x"),
                () -> "Open MPI C cells of \"" + row + "\":\n" + report);
            // How long the JIT compiled during the plain ping-pong's batches; DeviceRank's row does not say.
            assertEquals(row.contains("plain"), cells[9].strip().matches(FIGURE),
                () -> "JIT cell of \"" + row + "\":\n" + report);
        }
        assertEquals(openMpiInstalled(), !report.contains("not installed (apt-get install openmpi-bin libopenmpi-dev)"),
            report);
        assertTrue(report.contains("Run time: "), report);
        final String page = ReportPages.assertPageMatchesConsole(report, reports, "device");
        assertTrue(page.contains("(device-fence.svg)") && page.contains("(device-targets.svg)"), page);
        assertEquals(openMpiInstalled(), page.contains("(device-openmpi.svg)"), page);
    }

    private static boolean openMpiInstalled()
    {
        return OpenMpiC.find(System.getenv("PATH"), java.nio.file.Path.of("src/main/c").toAbsolutePath(),
            java.nio.file.Path.of("target/c"), new StringBuilder()).isPresent();
    }
}
