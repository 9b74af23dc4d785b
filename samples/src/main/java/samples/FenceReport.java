package samples;

import java.util.Arrays;
import java.util.Locale;

/**
 * The lines that both fence examples print ({@code samples.kupl.KuplFenceExample} over the
 * KUPL facade and {@code samples.rma.FenceExample} over {@code mpi.rma}), so that the two runs
 * can be compared line by line.
 */
public final class FenceReport
{
    private FenceReport()
    {
    }

    /**
     * What {@code rank} saw right after the fence of {@code iteration}, with the verdict: every
     * counter must be at least iteration + 1 (every increment before the fence is visible) and at
     * most one more (a rank that left the fence earlier may have counted on, but cannot have passed
     * the next fence alone).
     */
    public static String line(final int rank, final int iteration, final int own, final long fenceWaitNs,
        final int[] seen)
    {
        final int expected = iteration + 1;
        String verdict = "fence ok";
        for (int peer = 0; peer < seen.length; peer++)
        {
            if (seen[peer] < expected)
            {
                verdict = "FENCE BROKEN: rank " + peer + "'s increment of this iteration is not visible";
                break;
            }
            if (seen[peer] > expected + 1)
            {
                verdict = "FENCE BROKEN: rank " + peer + " has passed the next fence without rank " + rank;
                break;
            }
        }
        return String.format(Locale.ROOT,
            "rank %d iteration %d: own counter %d, waited %6.2f ms in the fence, then saw counters %s: %s",
            rank, iteration, own, fenceWaitNs / 1e6, Arrays.toString(seen), verdict);
    }

    /** The last line of each rank. */
    public static String finalLine(final int rank, final int counter)
    {
        return "rank " + rank + ": final counter " + counter;
    }
}
