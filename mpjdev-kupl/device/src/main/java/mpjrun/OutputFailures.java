package mpjrun;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Finds the lines of a job's output that show a rank failed. MPJ Express's starter exits with 0
 * even when a rank throws (its multicore starter prints the trace and calls
 * {@code System.exit(0)}; in cluster mode the daemon just forwards the rank's stderr), so the
 * output is the only place a failure shows. A line counts if it
 * <ul>
 * <li>names a throwable type: a capitalised identifier ending in {@code Exception} or
 *     {@code Error} ({@code java.lang.IllegalStateException: ...}, {@code AssertionError},
 *     {@code Exception in thread "main" ...}, {@code mpi.MPIException});</li>
 * <li>or is a stack frame ({@code \tat pkg.Class.method(File.java:12)}).</li>
 * </ul>
 * A program that prints such words on purpose can still be judged by
 * {@link JobResult#launcherExitCode()}.
 */
final class OutputFailures
{
    private static final Pattern THROWABLE_NAME = Pattern.compile("\\b[A-Z][A-Za-z0-9_$]*(Exception|Error)\\b");
    private static final Pattern STACK_FRAME = Pattern.compile("^\\s*at [\\w$.<>/@-]+\\(.*\\)\\s*$");

    private OutputFailures()
    {
    }

    /** The failure lines of {@code output}, in order. */
    static List<String> find(final String output)
    {
        return output.lines().filter(OutputFailures::isFailureLine).toList();
    }

    static boolean isFailureLine(final String line)
    {
        return THROWABLE_NAME.matcher(line).find() || STACK_FRAME.matcher(line).matches();
    }
}
