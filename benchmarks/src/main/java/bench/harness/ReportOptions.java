package bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The options every benchmark takes for its report, which {@link CommandLine} reads for each of them:
 * <pre>
 * --report DIR    write DIR/&lt;part&gt;.md and its charts DIR/&lt;part&gt;-&lt;chart&gt;.svg, replacing the last
 *                 run's
 * --notes FILE    copy FILE (Markdown) into the report's Notes section
 * </pre>
 * The notes are read as the command line is, before anything is measured, so that a missing file fails at once.
 *
 * @param directory  where the page goes, or null to print to the console only.
 * @param humanNotes the notes file's text, or empty.
 * @param command    the command line for the stamp: {@code bin/bench}'s (its {@value #COMMAND_VARIABLE}),
 *                   else {@code java <main> <args>}.
 */
public record ReportOptions(Path directory, String humanNotes, String command)
{
    public static final String REPORT = "--report";
    public static final String NOTES = "--notes";
    /** The usage of both options, for the benchmarks' usage lines. */
    public static final String USAGE = "[" + REPORT + " DIR] [" + NOTES + " FILE]";
    /** Set by bin/bench to the command as typed, for the stamp. */
    public static final String COMMAND_VARIABLE = "BENCH_COMMAND";

    /** No page, no notes: the console only, for {@code args} of the program {@code mainClass}. */
    public static ReportOptions none(final String[] args, final Class<?> mainClass)
    {
        return new ReportOptions(null, "", command(args, mainClass));
    }

    /** This, writing the page into {@code report}: refused if it is a file. */
    ReportOptions withDirectory(final String report)
    {
        final Path path = Path.of(report);
        if (Files.exists(path) && !Files.isDirectory(path))
        {
            throw new IllegalArgumentException(REPORT + " " + path + " is a file, not a directory");
        }
        return new ReportOptions(path, humanNotes, command);
    }

    /** This, with the notes of the Markdown file {@code notes}: refused if it cannot be read. */
    ReportOptions withNotes(final String notes)
    {
        final Path file = Path.of(notes);
        try
        {
            return new ReportOptions(directory, Files.readString(file, StandardCharsets.UTF_8), command);
        }
        catch (final IOException e)
        {
            throw new IllegalArgumentException(NOTES + " " + file + " cannot be read: " + e,
                new UncheckedIOException(e));
        }
    }

    private static String command(final String[] args, final Class<?> mainClass)
    {
        final String fromScript = System.getenv(COMMAND_VARIABLE);
        return fromScript != null && !fromScript.isBlank() ? fromScript.strip() :
            ("java " + mainClass.getName() + " " + String.join(" ", args)).strip();
    }
}
