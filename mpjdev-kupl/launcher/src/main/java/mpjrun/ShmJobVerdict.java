package mpjrun;

import java.util.List;
import java.util.Objects;
import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;

import kupl.bootstrap.ExitStatus;
import mpjrun.process.JobJudge;
import mpjrun.process.ProcessJob;

/**
 * What an ended {@code shm} job's launcher says and exits with: the rank that failed first, by the
 * order in which the ranks really ended, not the order in which their exits were read.
 *
 * <p>Only ranks that ended on their own count ({@link ProcessJob.JobExit#endedOnTheirOwn()}); those
 * the launcher killed to stop the job do not. Among them, in the order they ended:
 * <ol>
 * <li>the first that failed of its own accord (a non-zero status other than
 *     {@link ShmRankMain#AFTER_ANOTHER_RANK}): its status is the job's. A rank that died by a signal
 *     leaves no word, but the ranks that noticed its death exit with
 *     {@code AFTER_ANOTHER_RANK}, so it is named even when a launcher that was stopped (SIGSTOP)
 *     reads their exits before its own;</li>
 * <li>else, if the start was given up ({@code startFailure}: a rank ended without joining while
 *     another had joined, or ranks did not arrive in time), that reason, with status 1;</li>
 * <li>else the first rank that failed because of another (a rank that returned from {@code main}
 *     after joining, while the others still needed it), with its status;</li>
 * <li>else 0, and nothing to say: ranks that ended with 0 without ever joining (a program that
 *     never calls {@code MPI.Init}) are not a failure.</li>
 * </ol>
 *
 * @param status  the launcher's exit status.
 * @param message the {@code mpjrun:} line to print, without that prefix, or null if there is nothing to say.
 */
record ShmJobVerdict(int status, String message)
{
    /**
     * Judges an ended job.
     *
     * @param exit         how the ranks ended.
     * @param startFailure why the job's hub gave the start up, or null if it did not.
     * @param joined       whether a rank had joined the job's hub.
     * @param pid          each rank's process id.
     */
    static ShmJobVerdict judge(final ProcessJob.JobExit exit, final String startFailure, final IntPredicate joined,
        final IntToLongFunction pid)
    {
        Objects.requireNonNull(exit, "exit");
        Objects.requireNonNull(joined, "joined");
        Objects.requireNonNull(pid, "pid");
        if (exit.timedOut())
        {
            return new ShmJobVerdict(JobJudge.TIMED_OUT, null);
        }
        final int[] codes = exit.exitCodes();
        final List<Integer> ended = exit.endedOnTheirOwn();
        final String stopped = stoppedAny(exit, codes.length) ? "; stopped the other ranks" : "";
        for (final int rank : ended)
        {
            if (codes[rank] != 0 && codes[rank] != ShmRankMain.AFTER_ANOTHER_RANK)
            {
                return new ShmJobVerdict(codes[rank], "rank " + rank + " (pid " + pid.applyAsLong(rank) + ") " +
                    ExitStatus.describe(codes[rank]) + (joined.test(rank) ? "" : ", before it joined the job") + stopped);
            }
        }
        if (startFailure != null)
        {
            return new ShmJobVerdict(ShmRankMain.FAILED, "the job could not start: " + startFailure + stopped);
        }
        for (final int rank : ended)
        {
            if (codes[rank] != 0)
            {
                return new ShmJobVerdict(codes[rank], "rank " + rank + " (pid " + pid.applyAsLong(rank) + ") " +
                    ExitStatus.describe(codes[rank]) + ": it failed because another rank had ended" +
                    firstToEnd(ended, codes) + stopped);
            }
        }
        return new ShmJobVerdict(0, null);
    }

    /** " (the first to end: rank 1, which exited with status 0)", or "" if no rank ended of its own accord. */
    private static String firstToEnd(final List<Integer> ended, final int[] codes)
    {
        for (final int rank : ended)
        {
            if (codes[rank] != ShmRankMain.AFTER_ANOTHER_RANK)
            {
                return " (the first to end: rank " + rank + ", which " + ExitStatus.describe(codes[rank]) + ")";
            }
        }
        return "";
    }

    private static boolean stoppedAny(final ProcessJob.JobExit exit, final int size)
    {
        for (int rank = 0; rank < size; rank++)
        {
            if (exit.stoppedByKit(rank))
            {
                return true;
            }
        }
        return false;
    }
}
