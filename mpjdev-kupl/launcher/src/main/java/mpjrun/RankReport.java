package mpjrun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The file in which the ranks of a multicore job (threads of one JVM, {@link StarterRankMain}) say how
 * each ended, one line per event, and what {@link StarterVerdict} reads from it once the JVM is gone.
 * MPJ Express's multicore starter exits with 0 whatever the ranks do and calls {@code System.exit(0)}
 * when one throws, so this file, written by the launcher's own code, is where the verdict comes from,
 * never the program's output.
 * <ul>
 * <li>{@code returned R}: rank R's {@code main} returned;</li>
 * <li>{@code failed R}: rank R's {@code main} threw;</li>
 * <li>{@code finalized R}: when the JVM ended, rank R had called {@code MPI.Finalize} (whose barrier every
 *     rank had passed) but not returned: ending then cuts nothing off;</li>
 * <li>{@code exit R S}: a thread of rank R (its thread group, which MPJ Express names {@code MPI}R) called
 *     {@code System.exit(S)}; {@code exit - S} for a thread of no rank (a signal's handler, 143 for
 *     SIGTERM);</li>
 * <li>{@value #END}: the JVM's shutdown hooks ran. Without it the JVM was killed ({@code kill -9}) or
 *     crashed.</li>
 * </ul>
 */
final class RankReport
{
    /** The line the JVM's shutdown hook appends. */
    static final String END = "end";
    /** The rank of an exit called by a thread of no rank. */
    static final String NO_RANK = "-";

    private final List<String> lines;

    private RankReport(final List<String> lines)
    {
        this.lines = List.copyOf(lines);
    }

    /** The report as the file holds it; an empty one if the file is missing. */
    static RankReport read(final Path file) throws IOException
    {
        return new RankReport(Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of());
    }

    /** A report of these lines (for tests). */
    static RankReport of(final String... lines)
    {
        return new RankReport(List.of(lines));
    }

    /** Appends one line; a report that cannot be written says so on stderr (the verdict then errs towards failure). */
    static void append(final Path file, final String line)
    {
        try
        {
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND,
                StandardOpenOption.CREATE);
        }
        catch (final IOException e)
        {
            System.err.println("mpjrun: cannot write the rank report " + file + ": " + e.getMessage());
        }
    }

    static String returned(final String rank)
    {
        return "returned " + rank;
    }

    static String failed(final String rank)
    {
        return "failed " + rank;
    }

    static String finalized(final String rank)
    {
        return "finalized " + rank;
    }

    static String exit(final String rank, final int status)
    {
        return "exit " + rank + " " + status;
    }

    /** Whether the JVM's shutdown hooks ran (it was not killed). */
    boolean ended()
    {
        return lines.contains(END);
    }

    /** The ranks whose {@code main} threw, in rank order. */
    Set<Integer> failedRanks()
    {
        return ranksOf("failed ");
    }

    /** The ranks that had finished: returned, threw, or finalized before the JVM ended. */
    Set<Integer> finishedRanks()
    {
        final Set<Integer> finished = ranksOf("returned ");
        finished.addAll(ranksOf("failed "));
        finished.addAll(ranksOf("finalized "));
        return finished;
    }

    /** The first {@code System.exit} call recorded, if any. */
    Optional<Exit> exitCall()
    {
        for (final String line : lines)
        {
            final String[] words = line.split(" ");
            if (words.length == 3 && words[0].equals("exit"))
            {
                try
                {
                    return Optional.of(new Exit(words[1].equals(NO_RANK) ? -1 : Integer.parseInt(words[1]),
                        Integer.parseInt(words[2])));
                }
                catch (final NumberFormatException e)
                {
                    // Not a line of ours: skip it.
                }
            }
        }
        return Optional.empty();
    }

    private Set<Integer> ranksOf(final String prefix)
    {
        final Set<Integer> ranks = new TreeSet<>();
        for (final String line : lines)
        {
            if (line.startsWith(prefix))
            {
                try
                {
                    ranks.add(Integer.parseInt(line.substring(prefix.length()).strip()));
                }
                catch (final NumberFormatException e)
                {
                    // A rank not known ("?"): it names no rank to count.
                }
            }
        }
        return ranks;
    }

    /**
     * A {@code System.exit} call.
     *
     * @param rank   the rank whose thread called it, or -1 for a thread of no rank.
     * @param status its status.
     */
    record Exit(int rank, int status)
    {
        boolean byRank()
        {
            return rank >= 0;
        }
    }
}
