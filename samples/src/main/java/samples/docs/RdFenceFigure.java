package samples.docs;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import kupl.RecursiveDoublingSteps;
import kupl.RecursiveDoublingSteps.Step;

/**
 * The rounds of the recursive-doubling fence for {@value #RANKS} processes, drawn from the
 * engine's own schedule: one lane per process, one column per round, an arrow per signal (from
 * the process that raises a flag to the one that waits for it).
 */
final class RdFenceFigure
{
    static final int RANKS = 6;

    private static final int LANE_HEIGHT = 56;
    private static final int TOP = 76;
    private static final int LABEL_WIDTH = 170;
    private static final int COLUMN_WIDTH = 170;
    private static final int ARROW_SHIFT = 7;
    private static final int PAIR_SPACING = 18;
    private static final String CORE_FILL = "#cfe2f3";
    private static final String EXTRA_FILL = "#fff2cc";

    private RdFenceFigure()
    {
    }

    static String render()
    {
        final int rounds = RecursiveDoublingSteps.rounds(RANKS);
        final int core = 1 << rounds;
        final int columns = rounds + 2;
        final int width = LABEL_WIDTH + columns * COLUMN_WIDTH + 20;
        final int height = TOP + RANKS * LANE_HEIGHT + 40;
        final Svg svg = new Svg(width, height, "Rounds of the rd fence for " + RANKS + " processes");
        svg.text(20, 24, "start", "rd fence, " + RANKS + " processes: " + core + " core processes exchange in " +
            rounds + " rounds; " + (RANKS - core) + " extra ones hand in before and are released after");

        for (int column = 0; column < columns; column++)
        {
            final int x = columnCentre(column);
            svg.text(x, 52, "middle", columnTitle(column, rounds));
        }
        for (int rank = 0; rank < RANKS; rank++)
        {
            final int y = laneCentre(rank);
            final boolean extra = rank >= core;
            svg.rect(20, y - 16, LABEL_WIDTH - 40, 32, extra ? EXTRA_FILL : CORE_FILL, false)
                .text(20 + (LABEL_WIDTH - 40) / 2, y + 5, "middle", "process " + rank + (extra ? " (extra)" : ""))
                .line(LABEL_WIDTH - 20, y, width - 20, y, "#999", false, true);
        }
        // Each pair of processes of a column gets its own x, so that crossing exchanges stay apart.
        final Map<Integer, TreeSet<Integer>> pairsByColumn = new TreeMap<>();
        for (int rank = 0; rank < RANKS; rank++)
        {
            for (final Step step : RecursiveDoublingSteps.of(RANKS, rank))
            {
                pairsByColumn.computeIfAbsent(step.round(), round -> new TreeSet<>()).add(Math.min(rank, step.peer()));
            }
        }
        for (int rank = 0; rank < RANKS; rank++)
        {
            for (final Step step : RecursiveDoublingSteps.of(RANKS, rank))
            {
                if (step.isWait())
                {
                    continue;
                }
                final TreeSet<Integer> pairs = pairsByColumn.get(step.round());
                final int pair = pairs.headSet(Math.min(rank, step.peer())).size();
                final int pairX = columnCentre(step.round()) + (2 * pair - (pairs.size() - 1)) * PAIR_SPACING;
                // Downward signals left of the pair's x, upward ones right: an exchange shows as two arrows.
                final boolean down = step.peer() > rank;
                final int x = pairX + (down ? -ARROW_SHIFT : ARROW_SHIFT);
                final int from = laneCentre(rank) + (down ? 6 : -6);
                final int to = laneCentre(step.peer()) + (down ? -6 : 6);
                svg.line(x, from, x, to, "#333", true, false);
            }
        }
        svg.text(20, height - 14, "start", "an arrow goes from the process that raises a flag to the one waiting for it " +
            "(flags hold epochs that only grow)");
        return svg.end();
    }

    private static String columnTitle(final int column, final int rounds)
    {
        if (column == 0)
        {
            return "pre: extras hand in";
        }
        if (column == rounds + 1)
        {
            return "post: extras released";
        }
        return "round " + column + ": r with r xor " + (1 << (column - 1));
    }

    private static int columnCentre(final int column)
    {
        return LABEL_WIDTH + column * COLUMN_WIDTH + COLUMN_WIDTH / 2;
    }

    private static int laneCentre(final int rank)
    {
        return TOP + rank * LANE_HEIGHT + LANE_HEIGHT / 2;
    }
}
