package bench.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import mpjrun.MpjDevice;
import mpjrun.SimulatedCluster;

/**
 * The mpi.rma benchmark's smoke run on MPJ Express's multicore device completes and prints a
 * figure in every cell. No timing is checked: on shared 2-core machines figures say nothing in a test.
 */
@Tag("slow")
class RmaBenchmarkTest
{
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldPrintEveryRowInQuickMode() throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final boolean succeeded;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            succeeded = RmaBenchmark.run(true, List.of(MpjDevice.MULTICORE), out);
        }
        final String report = bytes.toString(StandardCharsets.UTF_8);

        assertTrue(succeeded, report);
        assertEquals(2, report.lines().filter(line -> line.matches(
            "\\| multicore \\| [24] \\| [0-9,]+ \\| [0-9,]+ \\| [0-9.]+ \\| [0-9,]+ \\|")).count(), report);
        assertEquals(2, report.lines().filter(line -> line.matches("\\| multicore \\| [24] \\| [0-9,]+ \\| [0-9,]+ " +
            "\\| [0-9.]+ \\| [0-9,]+ \\| [0-9,]+ \\|")).count(),
            () -> "no post/start/complete/wait rows in:\n" + report);
        for (final String operation : List.of("put 8 B + fence", "accumulate 64 KiB + fence", "get 8 B + flush (lockAll)"))
        {
            assertTrue(report.lines().anyMatch(line -> line.matches("\\| " + java.util.regex.Pattern.quote(operation) +
                " \\| [0-9,]+ \\| [0-9,]+ \\|")), () -> "no figures for " + operation + " in:\n" + report);
        }
        assertEquals(2, report.lines().filter(line -> line.matches("\\| multicore \\| [24] \\| [0-9,]+ \\| [0-9,]+ " +
            "\\| [0-9.]+ \\|")).count(), () -> "no strided-put rows in:\n" + report);
        // allocateShared + free on multicore, then Open MPI's figure or "-" (where it is not installed), the reservation.
        for (final String size : List.of("4 KiB", "1 MiB"))
        {
            assertTrue(report.lines().anyMatch(line -> line.matches("\\| " + size +
                " \\| [0-9.]+ \\([0-9.]+-[0-9.]+\\) \\| ([0-9.]+ \\([0-9.]+-[0-9.]+\\)|-) \\| [0-9.]+ \\(.*")),
                () -> "no allocation figures for " + size + " in:\n" + report);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldCompareEveryRowWithItsReferenceAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final boolean succeeded;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            succeeded = RmaBenchmark.runAcrossNodes(true, out);
        }
        final String report = bytes.toString(StandardCharsets.UTF_8);

        assertTrue(succeeded, report);
        assertTrue(report.contains("2 processes on 2 nodes"), report);
        for (final String row : List.of("put 8 B \\+ flush", "get 8 B", "accumulate 8 B \\+ flush"))
        {
            assertTrue(report.lines().anyMatch(line -> line.matches("\\| " + row +
                " \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+x; [0-9.]+x the 8 B round trip \\|")),
                () -> row + " in:\n" + report);
        }
        assertTrue(report.lines().anyMatch(line -> line.matches(
            "\\| put 1 MiB \\+ flush \\| .* the one-way bandwidth \\|")), report);
        assertTrue(report.lines().anyMatch(line -> line.matches("\\| fence \\(every rank\\) \\| .* the Barrier \\|")),
            report);
    }
}
