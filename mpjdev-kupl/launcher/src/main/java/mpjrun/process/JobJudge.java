package mpjrun.process;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a job of local processes is judged: its exit status, in one place for every launcher of this project,
 * and the output rule of the test job kit.
 *
 * <p><b>Exit status.</b> {@link #TIMED_OUT} (as {@code timeout(1)}) for a job killed at its time
 * limit; otherwise the first failing process's status, 128 + the signal number for one killed by
 * a signal ({@code kupl.bootstrap.ExitStatus} says it in words).
 *
 * <p><b>Output (the job kit only).</b> {@code bin/mpjrun} never judges by output: its verdicts come from
 * exit statuses and the ranks' own reports ({@code mpjrun.ShmJobVerdict}, {@code mpjrun.StarterVerdict},
 * the job watch). The job kit ({@code mpjrun.MpjJobs}) runs MPJ Express's starter as a user would run it by
 * hand, where nothing of this project reports how the ranks ended (the starter exits with 0 when a rank
 * throws), so for its tests a line of the output counts as a failure ({@link #failureLines}) if it
 * <ul>
 * <li>names a throwable type: a capitalised identifier ending in {@code Exception} or
 *     {@code Error} ({@code java.lang.IllegalStateException: ...}, {@code AssertionError},
 *     {@code Exception in thread "main" ...}, {@code mpi.MPIException});</li>
 * <li>or is a stack frame ({@code \tat pkg.Class.method(File.java:12)}).</li>
 * </ul>
 */
public final class JobJudge
{
    /** The status of a job killed at its time limit (as {@code timeout(1)}). */
    public static final int TIMED_OUT = 124;
    /** The status of a job whose launcher exited with 0 but whose output shows a failure. */
    public static final int FAILED_IN_OUTPUT = 1;

    private static final Pattern THROWABLE_NAME = Pattern.compile("\\b[A-Z][A-Za-z0-9_$]*(Exception|Error)\\b");
    private static final Pattern STACK_FRAME = Pattern.compile("^\\s*at [\\w$.<>/@-]+\\(.*\\)\\s*$");

    private JobJudge()
    {
    }

    /** The failure lines of {@code output}, in order. */
    public static List<String> failureLines(final String output)
    {
        return Objects.requireNonNull(output, "output").lines().filter(JobJudge::isFailureLine).toList();
    }

    /** Whether {@code line} names a throwable or is a stack frame. */
    public static boolean isFailureLine(final String line)
    {
        return THROWABLE_NAME.matcher(line).find() || STACK_FRAME.matcher(line).matches();
    }

    /**
     * The verdict on a launcher's end: {@link #TIMED_OUT} if it was killed at its time limit, its
     * own status if not 0, else {@link #FAILED_IN_OUTPUT} if {@code failureLines} is not empty, else 0.
     */
    public static int verdict(final int launcherStatus, final boolean timedOut, final List<String> failureLines)
    {
        if (timedOut)
        {
            return TIMED_OUT;
        }
        if (launcherStatus != 0)
        {
            return launcherStatus;
        }
        return failureLines.isEmpty() ? 0 : FAILED_IN_OUTPUT;
    }
}
