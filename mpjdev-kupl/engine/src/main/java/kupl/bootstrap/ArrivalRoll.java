package kupl.bootstrap;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The roll of a starting job, kept by its {@link OobHub}: which ranks have joined, which ended
 * without joining (and how), and the words that say so. Not thread-safe: the hub guards it.
 *
 * <p>Joining is collective (a rank that has joined can go on only once every rank has), so a rank
 * that ends without joining spoils the start exactly when some rank joins, before or after it:
 * {@link #spoiled()} says so then, and only then.
 */
final class ArrivalRoll
{
    private final int size;
    private final boolean[] joined;
    /** How each rank that ended without joining ended (its exit status), by rank; null for the others. */
    private final Integer[] endedWithoutJoining;

    ArrivalRoll(final int size)
    {
        this.size = size;
        this.joined = new boolean[size];
        this.endedWithoutJoining = new Integer[size];
    }

    void join(final int rank)
    {
        joined[Objects.checkIndex(rank, size)] = true;
    }

    /** Notes that {@code rank}, which has not joined, has ended with {@code status}. */
    void endedWithoutJoining(final int rank, final int status)
    {
        endedWithoutJoining[Objects.checkIndex(rank, size)] = status;
    }

    boolean joined(final int rank)
    {
        return joined[Objects.checkIndex(rank, size)];
    }

    int joinedRanks()
    {
        int count = 0;
        for (final boolean one : joined)
        {
            count += one ? 1 : 0;
        }
        return count;
    }

    /** "rank 3 of 4", "ranks 1, 3 of 4": the ranks that have not joined. */
    String missing()
    {
        final List<Integer> absent = new ArrayList<>();
        for (int rank = 0; rank < size; rank++)
        {
            if (!joined[rank])
            {
                absent.add(rank);
            }
        }
        return ranks(absent) + " of " + size;
    }

    /**
     * Why the ranks that ended without joining spoil the start ("rank 1 of 4 exited with status 0
     * before it joined the job, while rank 0 waits for it in MPI.Init, ..."), or null if none did or
     * no rank has joined.
     */
    String spoiled()
    {
        final List<Integer> ended = new ArrayList<>();
        final List<Integer> waiting = new ArrayList<>();
        for (int rank = 0; rank < size; rank++)
        {
            if (endedWithoutJoining[rank] != null)
            {
                ended.add(rank);
            }
            else if (joined[rank])
            {
                waiting.add(rank);
            }
        }
        if (ended.isEmpty() || waiting.isEmpty())
        {
            return null;
        }
        final String wait = ranks(waiting) + (waiting.size() == 1 ? " waits" : " wait");
        final String who;
        if (ended.size() == 1)
        {
            final int rank = ended.get(0);
            who = "rank " + rank + " of " + size + " " + ExitStatus.describe(endedWithoutJoining[rank]) +
                " before it joined the job, while " + wait + " for it";
        }
        else
        {
            final List<String> how = new ArrayList<>();
            for (final int rank : ended)
            {
                how.add("rank " + rank + " " + ExitStatus.describe(endedWithoutJoining[rank]));
            }
            who = ranks(ended) + " of " + size + " ended before they joined the job (" + String.join(", ", how) +
                "), while " + wait + " for them";
        }
        return who + " in MPI.Init, which needs every rank to join: call MPI.Init on every rank, or on none";
    }

    /** "rank 2", "ranks 0, 3". */
    private static String ranks(final List<Integer> ranks)
    {
        final List<String> numbers = new ArrayList<>();
        for (final int rank : ranks)
        {
            numbers.add(Integer.toString(rank));
        }
        return (ranks.size() == 1 ? "rank " : "ranks ") + String.join(", ", numbers);
    }
}
