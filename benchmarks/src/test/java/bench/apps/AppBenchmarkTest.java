package bench.apps;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The application benchmark's command line: a bad argument is refused before any job starts,
 * with a message naming it and the usage. (Its jobs are {@code bench.apps.KernelRankTest}'s.)
 */
class AppBenchmarkTest
{
    private final PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void shouldRefuseAnUnknownArgumentWithTheUsage()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> AppBenchmark.run(new String[] {"--fast"}, out));
        assertTrue(e.getMessage().contains("--fast") && e.getMessage().contains("usage: AppBenchmark"),
            e.getMessage());
    }

    @Test
    void shouldRefuseAnUnknownKernelVariantOrProcessCount()
    {
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> AppBenchmark.run(new String[] {"--only", "lu,fft"}, out)).getMessage().contains("fft"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> AppBenchmark.run(new String[] {"--variants", "defaults,zgc"}, out)).getMessage().contains("zgc"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> AppBenchmark.run(new String[] {"--np", "2,0"}, out)).getMessage().contains("--np 0"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> AppBenchmark.run(new String[] {"--reps"}, out)).getMessage().contains("--reps needs a value"));
    }
}
