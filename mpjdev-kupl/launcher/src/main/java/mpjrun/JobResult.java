package mpjrun;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import mpjrun.process.JobJudge;

/**
 * How an MPJ Express job ended, as {@link MpjJobs} saw it.
 *
 * <p>{@code exitCode} is the verdict: 0 only if the launcher exited with 0, the job ended in
 * time, and no line of the output shows a failure ({@link #failureLines()}; MPJ Express's
 * starter exits with 0 even when a rank throws). Otherwise it is {@link #TIMED_OUT} if the job
 * was killed at its time limit, the launcher's own code if that is not 0, else
 * {@link #FAILED_IN_OUTPUT} ({@link JobJudge}'s rule for the job kit, which runs MPJ Express's starter as it is;
 * {@code bin/mpjrun} itself never judges by output, so a test of its verdict reads {@link #launcherExitCode()}).
 *
 * @param exitCode         the verdict described above.
 * @param launcherExitCode what the launcher process itself exited with (MPJ Express's starter, or {@code bin/mpjrun}).
 * @param timedOut         whether the job was killed, with every process it had started, at its time limit.
 * @param failureLines     the lines of the output that show a failure (exception names, stack frames).
 * @param output           everything the launcher printed, stdout and stderr interleaved, plus
 *                         {@code [mpjrun]} lines saying what the job kit did (time limit, daemon output).
 * @param elapsed          from starting the launcher to its end (for niodev, the daemon's start not included).
 */
public record JobResult(int exitCode, int launcherExitCode, boolean timedOut, List<String> failureLines, String output,
    Duration elapsed)
{
    /** {@link #exitCode()} of a job killed at its time limit (as {@code timeout(1)}). */
    public static final int TIMED_OUT = JobJudge.TIMED_OUT;
    /** {@link #exitCode()} of a job whose launcher exited with 0 but whose output shows a failure. */
    public static final int FAILED_IN_OUTPUT = JobJudge.FAILED_IN_OUTPUT;

    public JobResult
    {
        failureLines = List.copyOf(Objects.requireNonNull(failureLines, "failureLines"));
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /** Judges a launcher's end as described in the class comment ({@link JobJudge}). */
    static JobResult judge(final int launcherExitCode, final boolean timedOut, final String output,
        final Duration elapsed)
    {
        // MPJ Express's starter may end a good cluster job with a stack trace of its own (StarterEndOfStream).
        final List<String> failures = StarterEndOfStream.withoutBenignEnds(JobJudge.failureLines(output),
            output.lines().filter(StarterEndOfStream::isMergedExit).count());
        return new JobResult(JobJudge.verdict(launcherExitCode, timedOut, failures), launcherExitCode, timedOut,
            failures, output, elapsed);
    }

    /** Whether the job succeeded: {@code exitCode() == 0}. */
    public boolean succeeded()
    {
        return exitCode == 0;
    }

    /**
     * Returns this result if the job succeeded.
     *
     * @throws AssertionError with the verdict and the whole output otherwise (for tests).
     */
    public JobResult requireSuccess()
    {
        if (!succeeded())
        {
            throw new AssertionError(summary() + "\n--- output ---\n" + output);
        }
        return this;
    }

    /** One line: the verdict and why. */
    public String summary()
    {
        if (timedOut)
        {
            return "the job timed out after " + elapsed.toMillis() + " ms and was killed";
        }
        if (launcherExitCode != 0)
        {
            return "the launcher exited with " + launcherExitCode + " after " + elapsed.toMillis() + " ms";
        }
        if (!failureLines.isEmpty())
        {
            return "the launcher exited with 0 but a rank failed: " + failureLines.get(0);
        }
        return "the job succeeded in " + elapsed.toMillis() + " ms";
    }
}
