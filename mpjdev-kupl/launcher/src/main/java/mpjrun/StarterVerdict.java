package mpjrun;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Judges a job run by MPJ Express's starter, which exits with 0 even when a rank throws, calls
 * {@code System.exit} or its JVM is killed. The verdict comes from exit statuses and the ranks' own
 * reports, never from the program's output (a program may print an exception's name and succeed):
 * <ul>
 * <li>the starter's own status, if not 0;</li>
 * <li>for multicore, the {@link RankReport} that {@link StarterRankMain} writes: ranks that threw (status 1);
 *     a JVM killed before every rank finished (status 1); a rank that called {@code System.exit(S)}: status
 *     S, and if that cut off ranks that had not finished, status {@link ShmRankMain#AFTER_ANOTHER_RANK} for
 *     {@code System.exit(0)}, as on shm, where the ranks left waiting fail with that status;</li>
 * <li>for niodev and hybdev, {@link JobWatch} judges first (MpjRun asks it before this); nothing is left here.</li>
 * </ul>
 */
final class StarterVerdict
{
    private final int processes;
    private final Path report;

    /**
     * @param processes the job's number of ranks.
     * @param report    the multicore rank report ({@link StarterRankMain#REPORT_PROPERTY}), or null.
     */
    StarterVerdict(final int processes, final Path report)
    {
        this.processes = processes;
        this.report = report;
    }

    /**
     * The job's exit status once the starter has exited with {@code starterExitCode}, with what to say in
     * {@code problems} (one line each, without the {@code mpjrun: } prefix).
     */
    int exitCode(final int starterExitCode, final List<String> problems) throws IOException
    {
        if (starterExitCode != 0)
        {
            problems.add("MPJ Express's starter exited with " + starterExitCode);
            return starterExitCode;
        }
        return report == null ? 0 : judge(RankReport.read(report), problems);
    }

    /** The verdict on a multicore job's report (see the class comment). */
    int judge(final RankReport ranks, final List<String> problems)
    {
        final Set<Integer> failed = ranks.failedRanks();
        if (!failed.isEmpty())
        {
            problems.add(ranksNamed(failed) + " failed (see the exception above); MPJ Express's starter exited with 0");
            return ShmRankMain.FAILED;
        }
        final Set<Integer> unfinished = new TreeSet<>(IntStream.range(0, processes).boxed().toList());
        unfinished.removeAll(ranks.finishedRanks());
        if (!ranks.ended())
        {
            if (unfinished.isEmpty())
            {
                return 0;
            }
            problems.add(ranksNamed(unfinished) + " never returned from main: the ranks' JVM was killed (kill -9?) " +
                "or crashed, and MPJ Express's starter exited with 0");
            return ShmRankMain.FAILED;
        }
        final RankReport.Exit exit = ranks.exitCall().orElse(null);
        if (exit == null)
        {
            if (unfinished.isEmpty())
            {
                return 0;
            }
            problems.add(ranksNamed(unfinished) + " never returned from main, and the JVM ended without a " +
                "System.exit call this launcher saw");
            return ShmRankMain.FAILED;
        }
        unfinished.remove(exit.rank());
        final String who = exit.byRank() ? "rank " + exit.rank() + " called System.exit(" + exit.status() + ")" :
            "the ranks' JVM was ended with status " + exit.status() + " (a signal, or System.exit from a thread of " +
            "no rank)";
        if (!unfinished.isEmpty())
        {
            problems.add(who + " while " + ranksNamed(unfinished) + " had not returned from main: in a multicore " +
                "job every rank is a thread of one JVM, and System.exit ends them all; call it after MPI.Finalize, " +
                "or not at all");
            return exit.status() != 0 ? exit.status() : exit.byRank() ? ShmRankMain.AFTER_ANOTHER_RANK :
                ShmRankMain.FAILED;
        }
        if (exit.status() != 0)
        {
            problems.add(who);
            return exit.status();
        }
        return 0;
    }

    /** "rank 2" or "ranks 0, 1, 3". */
    private static String ranksNamed(final Collection<Integer> ranks)
    {
        return (ranks.size() == 1 ? "rank " : "ranks ") +
            ranks.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
