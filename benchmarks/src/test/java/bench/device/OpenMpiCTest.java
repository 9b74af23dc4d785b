package bench.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import bench.harness.Samples;

/**
 * The Open MPI C reference programs compile and each prints a figure the device benchmark can parse
 * (tiny loops: figures are not checked), and a machine without Open MPI is told what to install.
 */
@Tag("slow")
class OpenMpiCTest
{
    /** The benchmarks module's C sources, relative to the module (Maven runs tests there). */
    private static final Path SOURCES = Path.of("src/main/c").toAbsolutePath();
    /** Warm-up 1 ms, 3 repetitions of about 1 ms. */
    private static final List<String> TINY_LOOP = List.of("1", "3", "1000000");
    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    @Test
    void shouldSayWhatToInstallWhereMpiccIsMissing(@TempDir final Path emptyDirectory)
    {
        final StringBuilder whyNot = new StringBuilder();
        final Optional<OpenMpiC> c = OpenMpiC.find(emptyDirectory.toString(), SOURCES, emptyDirectory, whyNot);
        assertTrue(c.isEmpty());
        assertEquals("not installed (apt-get install openmpi-bin libopenmpi-dev)", whyNot.toString());
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldPrintAParseableFigureFromEveryProgram(@TempDir final Path binaries) throws Exception
    {
        final StringBuilder whyNot = new StringBuilder();
        final Optional<OpenMpiC> found = OpenMpiC.find(System.getenv("PATH"), SOURCES, binaries, whyNot);
        assumeTrue(found.isPresent(), () -> "Open MPI's C programs not tried: " + whyNot);
        final OpenMpiC c = found.get();
        c.compile();
        for (final String program : OpenMpiC.PROGRAMS)
        {
            assertTrue(Files.isExecutable(binaries.resolve(program)), () -> program + " was not compiled");
        }
        // Each kind of part, with how many ranks print it (ping-pong and bandwidth: rank 0 alone).
        record Case(String part, int processes, int reportingRanks)
        {
        }
        for (final Case test : List.of(new Case("pingpong:8", 2, 1), new Case("bandwidth:65536", 2, 1),
            new Case("barrier", 2, 2), new Case("allreduce", 3, 3), new Case("bcast:4096", 4, 4)))
        {
            final String output = c.run(test.part(), test.processes(), TINY_LOOP, TIMEOUT);
            final List<Samples.Line> lines = Samples.parse(output, test.part());
            assertEquals(test.reportingRanks(), lines.size(), () -> test + " printed:\n" + output);
            for (final Samples.Line line : lines)
            {
                assertEquals(3, line.values().length, () -> test + " printed:\n" + output);
                assertTrue(line.opsPerRepetition() >= 10, () -> test + " printed:\n" + output);
                for (final double value : line.values())
                {
                    assertTrue(value > 0 && Double.isFinite(value), () -> test + " printed:\n" + output);
                }
            }
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldFailWithTheProgramsWordsOnABadArgument(@TempDir final Path binaries) throws Exception
    {
        final StringBuilder whyNot = new StringBuilder();
        final Optional<OpenMpiC> found = OpenMpiC.find(System.getenv("PATH"), SOURCES, binaries, whyNot);
        assumeTrue(found.isPresent(), () -> "Open MPI's C programs not tried: " + whyNot);
        found.get().compile();
        final IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> found.get().run("pingpong:0", 2, TINY_LOOP, TIMEOUT));
        assertTrue(failure.getMessage().contains("BYTES must be an integer >= 1, not '0'"), failure::getMessage);
        assertFalse(failure.getMessage().contains("ran past"), failure::getMessage);
    }
}
