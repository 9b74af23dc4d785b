package bench.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The one option parser of the benchmarks: each benchmark declares its flags and its options with a value, and
 * what each one does; every command line also takes the report's {@code --report} and {@code --notes}
 * ({@link ReportOptions}). {@link #parse} reads the arguments in order. Every mistake ends in a
 * {@link UsageException} whose message is the problem and the benchmark's usage line:
 * <ul>
 *   <li>an argument that is none of them: {@code unknown argument X};</li>
 *   <li>an option as the last argument: {@code --reps needs a value} (or the option's own words, e.g.
 *   {@code --mpj-home needs a directory});</li>
 *   <li>a value its action refuses: the action's {@link IllegalArgumentException} message, e.g. {@link #positive}'s.
 *   </li>
 * </ul>
 * {@code -h} or {@code --help} anywhere prints the usage line instead (through {@link #main}, with status 0).
 */
public final class CommandLine
{
    /** What asks for the usage line instead of a run. */
    private static final List<String> HELP = List.of("-h", "--help");

    private final String usage;
    private final Map<String, Consumer<String>> options = new LinkedHashMap<>();
    private final Map<String, String> needs = new LinkedHashMap<>();
    private Consumer<String> operand;
    /** The report's options as read so far. */
    private ReportOptions report;

    /** A command line whose mistakes end with {@code usage}, e.g. {@code "usage: AppBenchmark [--quick] ..."}. */
    public CommandLine(final String usage)
    {
        this.usage = usage;
        option(ReportOptions.REPORT, "a directory", dir -> report = report.withDirectory(dir));
        option(ReportOptions.NOTES, "a Markdown file", file -> report = report.withNotes(file));
    }

    /** {@code name} takes no value and runs {@code action}. */
    public CommandLine flag(final String name, final Runnable action)
    {
        options.put(name, value -> action.run());
        needs.put(name, null);
        return this;
    }

    /** {@code name} takes the next argument, which {@code action} reads; without one: "NAME needs a value". */
    public CommandLine option(final String name, final Consumer<String> action)
    {
        return option(name, "a value", action);
    }

    /** As {@link #option(String, Consumer)}, saying what the value is when it is missing: "NAME needs WHAT". */
    public CommandLine option(final String name, final String what, final Consumer<String> action)
    {
        options.put(name, action);
        needs.put(name, what);
        return this;
    }

    /** An argument that is no option (and does not start with {@code -}) goes to {@code action}, once. */
    public CommandLine operand(final Consumer<String> action)
    {
        operand = action;
        return this;
    }

    /**
     * Reads {@code args} of the program {@code mainClass}, each option's action run in the order of the arguments.
     *
     * @return the report's options.
     * @throws UsageException if an argument is not understood or a value is missing or refused.
     * @throws HelpRequest     if an argument asks for the usage line.
     */
    public ReportOptions parse(final String[] args, final Class<?> mainClass)
    {
        report = ReportOptions.none(args, mainClass);
        boolean operandSeen = false;
        for (int i = 0; i < args.length; i++)
        {
            final String argument = args[i];
            if (HELP.contains(argument))
            {
                throw new HelpRequest(usage);
            }
            final Consumer<String> action = options.get(argument);
            if (action == null)
            {
                if (operand == null || operandSeen || argument.startsWith("-"))
                {
                    throw new UsageException("unknown argument " + argument, usage);
                }
                operandSeen = true;
                run(operand, argument);
                continue;
            }
            final String what = needs.get(argument);
            if (what == null)
            {
                run(action, null);
                continue;
            }
            if (i + 1 == args.length)
            {
                throw new UsageException(argument + " needs " + what, usage);
            }
            run(action, args[++i]);
        }
        return report;
    }

    private void run(final Consumer<String> action, final String value)
    {
        try
        {
            action.accept(value);
        }
        catch (final UsageException e)
        {
            throw e;
        }
        catch (final IllegalArgumentException e)
        {
            throw new UsageException(e.getMessage(), usage);
        }
    }

    /**
     * {@code value} of {@code option} as a positive integer.
     *
     * @throws IllegalArgumentException "OPTION VALUE: each value must be a positive integer" otherwise.
     */
    public static int positive(final String option, final String value)
    {
        try
        {
            final int number = Integer.parseInt(value.strip());
            if (number > 0)
            {
                return number;
            }
        }
        catch (final NumberFormatException e)
        {
            // Reported below, with the option's name.
        }
        throw new IllegalArgumentException(option + " " + value + ": each value must be a positive integer");
    }

    /** Each of the comma-separated {@code values} of {@code option} as a positive integer ({@link #positive}). */
    public static List<Integer> positives(final String option, final String values)
    {
        final List<Integer> numbers = new ArrayList<>();
        for (final String value : values.split(","))
        {
            numbers.add(positive(option, value));
        }
        return List.copyOf(numbers);
    }

    /**
     * Runs {@code body} with {@code args}: on a {@link UsageException}, prints its message to standard error and
     * exits with status 2; on a {@link HelpRequest}, prints the usage line to standard output and exits with
     * status 0; otherwise exits with the status {@code body} returns.
     */
    public static void main(final String[] args, final Body body) throws Exception
    {
        final int status;
        try
        {
            status = body.run(args);
        }
        catch (final HelpRequest help)
        {
            System.out.println(help.getMessage());
            System.exit(0);
            return;
        }
        catch (final UsageException e)
        {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(status);
    }

    /** {@code -h} or {@code --help} on a command line: its message is the usage line. */
    public static final class HelpRequest extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        HelpRequest(final String usage)
        {
            super(usage, null, false, false);
        }
    }

    /** A benchmark's run from its command line, returning its exit status. */
    @FunctionalInterface
    public interface Body
    {
        /** Runs with {@code args}; 0 on success. */
        int run(String[] args) throws Exception;
    }
}
