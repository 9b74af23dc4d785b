package bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one line each rank prints with its measurements, and the statistics over them.
 *
 * <p>A rank prints its figures only after its measured loops, in one {@code println}, so
 * that printing costs nothing inside a loop and lines of different ranks (threads of one
 * JVM under MPJ Express) never interleave:
 * <pre>
 * bench &lt;metric&gt; rank=&lt;rank&gt; ops=&lt;operations per repetition&gt; &lt;value&gt; &lt;value&gt; ...
 * </pre>
 */
public final class Samples
{
    private static final String PREFIX = "bench ";

    private Samples()
    {
    }

    /** Prints one sample line; {@code values} are one per repetition. */
    public static void print(final String metric, final int rank, final long opsPerRepetition, final double[] values)
    {
        final StringBuilder line = new StringBuilder(PREFIX).append(metric).append(" rank=").append(rank)
            .append(" ops=").append(opsPerRepetition);
        for (final double value : values)
        {
            line.append(' ').append(String.format(Locale.ROOT, "%.3f", value));
        }
        System.out.println(line);
    }

    /** One rank's line of one metric, parsed back. */
    public record Line(String metric, int rank, long opsPerRepetition, double[] values)
    {
    }

    /** Every line of {@code metric} in {@code output}, in the order printed. */
    public static List<Line> parse(final String output, final String metric)
    {
        final List<Line> lines = new ArrayList<>();
        for (final String text : output.split("\n"))
        {
            final String trimmed = text.strip();
            if (!trimmed.startsWith(PREFIX + metric + " "))
            {
                continue;
            }
            final String[] words = trimmed.split(" ");
            final int rank = Integer.parseInt(words[2].substring("rank=".length()));
            final long ops = Long.parseLong(words[3].substring("ops=".length()));
            final double[] values = new double[words.length - 4];
            for (int i = 0; i < values.length; i++)
            {
                values[i] = Double.parseDouble(words[4 + i]);
            }
            lines.add(new Line(metric, rank, ops, values));
        }
        return lines;
    }

    /**
     * For each repetition, the largest value any rank reported: a collective repetition lasts
     * as long as its slowest process.
     *
     * @throws IllegalStateException unless exactly {@code ranks} lines of equal length are given.
     */
    public static double[] maxOverRanks(final List<Line> lines, final int ranks)
    {
        if (lines.size() != ranks)
        {
            throw new IllegalStateException("expected one line from each of " + ranks + " ranks, got " + lines.size());
        }
        final double[] max = lines.getFirst().values().clone();
        for (final Line line : lines)
        {
            if (line.values().length != max.length)
            {
                throw new IllegalStateException("rank " + line.rank() + " reported " + line.values().length +
                    " repetitions, rank " + lines.getFirst().rank() + " " + max.length);
            }
            for (int i = 0; i < max.length; i++)
            {
                max[i] = Math.max(max[i], line.values()[i]);
            }
        }
        return max;
    }

    /**
     * Operations per repetition such that one lasts about {@code repetitionTargetNs}, judged
     * from {@code measuredOps} operations that took {@code measuredNs}; at least 100.
     */
    public static long opsPerRepetition(final long repetitionTargetNs, final long measuredOps, final long measuredNs)
    {
        final double nsPerOp = Math.max(1.0, (double)measuredNs / measuredOps);
        return Math.max(100, Math.min(50_000_000L, (long)(repetitionTargetNs / nsPerOp)));
    }




    /**
     * Microseconds per operation of rows {@code 0..rows-1}, one per round, from rank 0's only line of each metric
     * {@code metricPrefix + row} in {@code output} (printed in nanoseconds).
     *
     * @throws IllegalStateException if a row has no line or several.
     */
    public static double[][] rank0Microseconds(final String output, final String metricPrefix, final int rows)
    {
        final double[][] microseconds = new double[rows][];
        for (int row = 0; row < rows; row++)
        {
            final List<Line> lines = parse(output, metricPrefix + row);
            if (lines.size() != 1)
            {
                throw new IllegalStateException("expected rank 0's line of " + metricPrefix + row + ", got " +
                    lines.size() + " in:\n" + output);
            }
            microseconds[row] = lines.getFirst().values().clone();
            for (int round = 0; round < microseconds[row].length; round++)
            {
                microseconds[row][round] /= 1e3;
            }
        }
        return microseconds;
    }
}
