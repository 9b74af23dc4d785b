package bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options every benchmark takes for its report, taken out of its command line before it reads its own:
 * <pre>
 * --report DIR    write DIR/&lt;part&gt;.md and its charts DIR/&lt;part&gt;-&lt;chart&gt;.svg, replacing the last
 *                 run's
 * --notes FILE    copy FILE (Markdown) into the report's Notes section
 * </pre>
 * The notes are read here, before anything is measured, so that a missing file fails at once.
 *
 * @param directory  where the page goes, or null to print to the console only.
 * @param humanNotes the notes file's text, or empty.
 * @param command    the command line for the stamp: {@code bin/bench}'s (its {@value RunStamp#COMMAND_VARIABLE}),
 *                   else {@code java <main> <args>}.
 * @param remaining  the arguments that are not the report's, in order, for the benchmark to read.
 */
public record ReportOptions(Path directory, String humanNotes, String command, List<String> remaining)
{
    public static final String REPORT = "--report";
    public static final String NOTES = "--notes";
    /** The usage of both options, for the benchmarks' usage lines. */
    public static final String USAGE = "[" + REPORT + " DIR] [" + NOTES + " FILE]";

    public ReportOptions
    {
        remaining = List.copyOf(remaining);
    }

    /**
     * Takes {@code --report} and {@code --notes} out of {@code args} of the program {@code mainClass}.
     *
     * @throws IllegalArgumentException if an option lacks its value, DIR is a file, or FILE cannot be read.
     */
    public static ReportOptions parse(final String[] args, final Class<?> mainClass)
    {
        Path directory = null;
        String notes = "";
        final List<String> remaining = new ArrayList<>();
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case REPORT ->
                {
                    directory = Path.of(value(args, i++, "a directory"));
                    if (Files.exists(directory) && !Files.isDirectory(directory))
                    {
                        throw new IllegalArgumentException(REPORT + " " + directory + " is a file, not a directory");
                    }
                }
                case NOTES -> notes = read(Path.of(value(args, i++, "a Markdown file")));
                default -> remaining.add(args[i]);
            }
        }
        final String fromScript = System.getenv(RunStamp.COMMAND_VARIABLE);
        final String command = fromScript != null && !fromScript.isBlank() ? fromScript.strip() :
            ("java " + mainClass.getName() + " " + String.join(" ", args)).strip();
        return new ReportOptions(directory, notes, command, remaining);
    }

    /** The arguments left for the benchmark itself. */
    public String[] benchmarkArgs()
    {
        return remaining.toArray(String[]::new);
    }

    private static String value(final String[] args, final int option, final String what)
    {
        if (option + 1 == args.length)
        {
            throw new IllegalArgumentException(args[option] + " needs " + what);
        }
        return args[option + 1];
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final IOException e)
        {
            throw new IllegalArgumentException(NOTES + " " + file + " cannot be read: " + e,
                new UncheckedIOException(e));
        }
    }
}
