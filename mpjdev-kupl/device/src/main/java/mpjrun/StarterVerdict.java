package mpjrun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import kupl.bootstrap.JobJudge;

/**
 * Judges a job run by MPJ Express's starter as it streams by, since the starter exits with 0
 * even when a rank throws or the ranks' JVM is killed: the output's failure lines
 * ({@link JobJudge}, the rule the job kit uses), the ranks {@link StarterRankMain} names
 * as failed, and, for multicore, its report of which ranks returned from {@code main}.
 */
final class StarterVerdict
{
    private final int processes;
    private final Path report;
    private final Set<String> failedRanks = new TreeSet<>();
    /** The output's failure lines, in the order the two output threads saw them. */
    private final List<String> failureLines = new ArrayList<>();
    /** Lines where MPJ Express's starter printed a daemon's EXIT merged with a ping ({@link StarterEndOfStream}). */
    private long mergedExits;

    /**
     * @param processes the job's number of ranks.
     * @param report    the multicore rank report ({@link StarterRankMain#REPORT_PROPERTY}), or null.
     */
    StarterVerdict(final int processes, final Path report)
    {
        this.processes = processes;
        this.report = report;
    }

    /** Notes one line of the job's output (called from the output threads). */
    synchronized void line(final String line)
    {
        if (StarterEndOfStream.isMergedExit(line))
        {
            mergedExits++;
        }
        if (!JobJudge.isFailureLine(line))
        {
            return;
        }
        failureLines.add(line);
        if (line.startsWith(StarterRankMain.FAILED_PREFIX))
        {
            final String rest = line.substring(StarterRankMain.FAILED_PREFIX.length());
            failedRanks.add(rest.substring(0, Math.max(0, rest.indexOf(' '))));
        }
    }

    /**
     * The job's exit status once the starter has exited with {@code starterExitCode}: that code if not
     * 0; else {@link JobResult#FAILED_IN_OUTPUT} if a rank failed, naming it in {@code problems}; else 0.
     */
    synchronized int exitCode(final int starterExitCode, final List<String> problems) throws IOException
    {
        if (starterExitCode != 0)
        {
            problems.add("MPJ Express's starter exited with " + starterExitCode);
            return starterExitCode;
        }
        if (!failedRanks.isEmpty())
        {
            problems.add((failedRanks.size() == 1 ? "rank " : "ranks ") + String.join(", ", failedRanks) +
                " failed (see the exception above); MPJ Express's starter exited with 0");
            return JobResult.FAILED_IN_OUTPUT;
        }
        final List<String> failures = StarterEndOfStream.withoutBenignEnds(failureLines, mergedExits);
        if (!failures.isEmpty())
        {
            problems.add("a rank failed (MPJ Express's starter exited with 0): " + failures.get(0).strip());
            return JobResult.FAILED_IN_OUTPUT;
        }
        final List<Integer> missing = missingRanks();
        if (!missing.isEmpty())
        {
            problems.add((missing.size() == 1 ? "rank " : "ranks ") +
                missing.stream().map(String::valueOf).collect(Collectors.joining(", ")) +
                " never returned from main: the ranks' JVM was killed (kill -9?) or crashed, and MPJ Express's " +
                "starter exited with 0");
            return JobResult.FAILED_IN_OUTPUT;
        }
        return 0;
    }

    /** Ranks absent from the report of a JVM that did not end through System.exit; none without a report. */
    private List<Integer> missingRanks() throws IOException
    {
        if (report == null)
        {
            return List.of();
        }
        final List<String> lines = Files.exists(report) ? Files.readAllLines(report) : new ArrayList<>();
        if (lines.contains(StarterRankMain.EXIT_LINE))
        {
            // System.exit ends every rank; its status is lost in the starter, so it is not judged here.
            return List.of();
        }
        return IntStream.range(0, processes).filter(rank -> !lines.contains(Integer.toString(rank))).boxed().toList();
    }
}
