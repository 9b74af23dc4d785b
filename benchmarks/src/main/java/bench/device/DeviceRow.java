package bench.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import bench.harness.Stat;
import bench.report.Ratio;
import bench.report.Target;

/**
 * One row of {@link DeviceBenchmark}: a part of {@link DeviceRank} (or of {@link PlainPingPong}, for a part
 * {@code plain:<bytes>}), on how many processes, its unit and the scale from the rank's figure (ns or GB/s) to
 * it, its targets (NaN for none): an absolute one in the rank's units, and the most shm may take as a time
 * ratio to Open MPI's C library and to the multicore device in the same run; and whether it is compared with
 * the engine's fence on as many processes. It makes the row's ratios, so that the table's cells and the charts'
 * bars come from one place.
 */
record DeviceRow(String label, String part, int processes, String unit, double scale, double target,
    double cTarget, double multicoreTarget, boolean againstFence)
{
    static final double NONE = Double.NaN;
    private static final String PLAIN = "plain:";

    DeviceRow(final String label, final String part, final int processes, final String unit, final double scale,
        final double target, final double cTarget, final double multicoreTarget)
    {
        this(label, part, processes, unit, scale, target, cTarget, multicoreTarget,
            part.equals("barrier") || part.equals("allreduce"));
    }

    /** Whether the row is measured by {@link PlainPingPong}, a ping-pong written as users write one. */
    boolean isPlain()
    {
        return part.startsWith(PLAIN);
    }

    /** The message size of a {@link PlainPingPong} row. */
    int plainBytes()
    {
        return Integer.parseInt(part.substring(PLAIN.length()));
    }

    /** The part of Open MPI's C programs this row is held against: a plain ping-pong against C's ping-pong. */
    String cPart()
    {
        return isPlain() ? "pingpong:" + part.substring(PLAIN.length()) : part;
    }

    /** Whether a larger figure is better (a rate), rather than a smaller one (a time). */
    boolean isRate()
    {
        return unit.equals("GB/s");
    }

    boolean hasTarget()
    {
        return !Double.isNaN(target);
    }

    /** Every target as the table prints it, e.g. {@code "<= 2 us; <= 1.5x C"}; empty without one. */
    List<String> targetTexts()
    {
        final List<String> texts = new ArrayList<>();
        if (hasTarget())
        {
            texts.add((isRate() ? ">= " : "<= ") + String.format(Locale.ROOT, "%.0f", target * scale) + " " + unit);
        }
        if (!Double.isNaN(cTarget))
        {
            texts.add(ratioText(cTarget) + " C");
        }
        if (!Double.isNaN(multicoreTarget))
        {
            texts.add(ratioText(multicoreTarget) + " multicore");
        }
        return texts;
    }

    /** "<= 1.5x" for a time ratio; for a rate, ">= " its inverse ("at or above" for 1). */
    private String ratioText(final double timeRatio)
    {
        return isRate() ? ">= " + String.format(Locale.ROOT, "%sx", trim(1 / timeRatio)) :
            "<= " + String.format(Locale.ROOT, "%sx", trim(timeRatio));
    }

    private static String trim(final double figure)
    {
        return figure == Math.rint(figure) ? Long.toString((long)figure) : Double.toString(figure);
    }

    /**
     * "median (min-max)" in the row's unit, or "n/a" for none: times under 10 us with two decimals, since the
     * 2-process collectives and the fence they are held against take 0.1-0.3 us, where one decimal would hide
     * the ratio.
     */
    String figure(final Stat stat)
    {
        if (stat == null)
        {
            return "n/a";
        }
        final boolean fine = !isRate() && stat.median() * scale < 10;
        return stat.format(isRate() || fine ? "%.2f" : "%,.1f", scale);
    }

    /** shm's figure against {@code reference}'s as a time ratio (for rates, the reference's rate over ours). */
    Ratio ratio(final Stat shm, final Stat reference)
    {
        final double ours = shm == null ? Double.NaN : shm.median() * scale;
        final double theirs = reference == null ? Double.NaN : reference.median() * scale;
        return isRate() ? Ratio.ofRatesAsTimes(label, ours, theirs, unit) : Ratio.of(label, ours, theirs, unit);
    }

    /** shm's figure against its absolute target, as a time ratio: at most 1 meets it. */
    Ratio againstTarget(final Stat shm)
    {
        final double ours = shm == null ? Double.NaN : shm.median() * scale;
        return (isRate() ? Ratio.ofRatesAsTimes(label, ours, target * scale, unit) :
            Ratio.of(label, ours, target * scale, unit)).against(Target.atMost(1));
    }
}
