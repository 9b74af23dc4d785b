package bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The benchmarks keep their layout: a package per benchmark, nothing in the flat {@code bench} package, and what
 * they share (options, medians, progress) in {@code bench.harness} only, read from the sources (the tests run in the
 * module's folder). Which benchmark package may use which is the architecture module's {@code BenchmarkPackagesTest}.
 */
class BenchmarkLayoutTest
{
    private static final Path SOURCES = Path.of("src/main/java/bench");
    /** What a benchmark would write again if it parsed its options, took a median or printed progress itself. */
    private static final List<Pattern> HARNESS_ONLY = List.of(
        Pattern.compile("static String value\\(final String\\[\\] args"),
        Pattern.compile("static (int|double) (positive|median)\\("),
        Pattern.compile("private static void progress\\("),
        Pattern.compile("switch \\(args\\[i\\]\\)"));

    @Test
    void shouldHaveNoClassInTheFlatBenchPackage() throws IOException
    {
        try (Stream<Path> files = Files.list(SOURCES))
        {
            assertEquals(List.of(), files.filter(file -> file.toString().endsWith(".java")).toList(),
                "each benchmark has a package of its own under bench (bench.engine, bench.rma, ...)");
        }
    }

    @Test
    void shouldLeaveOptionsMediansAndProgressToTheHarness() throws IOException
    {
        try (Stream<Path> files = Files.walk(SOURCES))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".java"))
                .filter(f -> !f.startsWith(SOURCES.resolve("harness"))).toList())
            {
                final String text = Files.readString(file);
                for (final Pattern pattern : HARNESS_ONLY)
                {
                    assertFalse(pattern.matcher(text).find(), () -> file + " has its own " + pattern.pattern() +
                        ": use bench.harness (CommandLine, Stat, Progress) instead");
                }
            }
        }
    }

    @Test
    void shouldStartEveryDriverThroughTheHarness() throws IOException
    {
        try (Stream<Path> files = Files.walk(SOURCES))
        {
            final List<Path> drivers = files.filter(f -> f.getFileName().toString().endsWith("Benchmark.java"))
                .toList();
            assertEquals(8, drivers.size(), () -> "the eight drivers of bin/bench: " + drivers);
            for (final Path driver : drivers)
            {
                assertTrue(Files.readString(driver).contains("CommandLine.main(args, "),
                    () -> driver + ": its main should run through CommandLine.main, which reports a bad command line");
            }
        }
    }
}
