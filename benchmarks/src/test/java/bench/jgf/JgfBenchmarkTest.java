package bench.jgf;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JGF runner's command line: a missing folder, a folder that is not JGF's, or a bad option is
 * refused before anything is compiled or started, with a message that says what to give.
 */
class JgfBenchmarkTest
{
    private final PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void shouldRefuseToRunWithoutAFolder()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> JgfBenchmark.run(new String[] {"--quick"}, out));
        assertTrue(e.getMessage().contains("name the folder") && e.getMessage().contains("jgf_mpj_benchmarks"),
            e.getMessage());
    }

    @Test
    void shouldSayHowToGetTheBenchmarksWhenTheFolderIsMissing(@TempDir final Path dir)
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> JgfBenchmark.run(new String[] {dir.resolve("jgf").toString()}, out));
        assertTrue(e.getMessage().contains("no folder") &&
            e.getMessage().contains("github.com/mpjexpress-project/mpjexpress"), e.getMessage());
    }

    @Test
    void shouldRefuseAFolderThatIsNotJgfs(@TempDir final Path dir)
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> JgfBenchmark.run(new String[] {dir.toString()}, out));
        assertTrue(e.getMessage().contains(JgfBenchmark.MARKER + " is missing"), e.getMessage());
    }

    @Test
    void shouldRefuseAnUnknownKernelSizeOrOption(@TempDir final Path dir)
    {
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> JgfBenchmark.run(new String[] {"--only", "lufact,fft", dir.toString()}, out)).getMessage()
            .contains("fft"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> JgfBenchmark.run(new String[] {"--sizes", "D", dir.toString()}, out)).getMessage()
            .contains("--sizes D"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> JgfBenchmark.run(new String[] {"--fast", dir.toString()}, out)).getMessage()
            .contains("unknown argument --fast"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> JgfBenchmark.run(new String[] {"--runs", "0", dir.toString()}, out)).getMessage()
            .contains("--runs 0: each value must be a positive integer"));
    }
}
