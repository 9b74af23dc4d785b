package samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the seed examples must print, in both versions (KUPL port and mpi.rma). */
public final class SeedExampleOutput
{
    private static final Pattern FENCE_LINE = Pattern.compile(
        "rank (\\d+) iteration (\\d+): own counter (\\d+), waited .* ms in the fence, then saw counters \\[.*]: fence ok");

    private SeedExampleOutput()
    {
    }

    /** The win alloc example: every rank but 0 printed "check success", none "check fail". */
    public static void assertCheckSuccessOnEveryRankButZero(final MpjJob.Run run)
    {
        assertEquals(run.ranks() - 1, run.count("check success"), run.explain("every rank but 0 should print " +
            "check success"));
        assertEquals(0, run.count("check fail"), run.explain("no rank should print check fail"));
    }

    /** The fence example ({@link FenceReport}'s lines): every rank printed one "fence ok" line per iteration, with its own counter right, and ended at {@code iters}. */
    public static void assertEveryFenceOk(final MpjJob.Run run, final int iters)
    {
        final Set<String> seen = new HashSet<>();
        for (final String line : run.lines())
        {
            final Matcher matcher = FENCE_LINE.matcher(line);
            if (matcher.matches())
            {
                final int iteration = Integer.parseInt(matcher.group(2));
                assertEquals(iteration + 1, Integer.parseInt(matcher.group(3)), run.explain("own counter in: " + line));
                assertTrue(seen.add(matcher.group(1) + "/" + iteration), run.explain("printed twice: " + line));
            }
        }
        assertEquals(run.ranks() * iters, seen.size(), run.explain("every rank should print one 'fence ok' line per " +
            "iteration"));
        assertEquals(0, run.count("FENCE BROKEN"), run.explain("no rank should see a broken fence"));
        for (int rank = 0; rank < run.ranks(); rank++)
        {
            assertEquals(1, run.count(FenceReport.finalLine(rank, iters)),
                run.explain("rank " + rank + " should end with its counter at " + iters));
        }
    }
}
