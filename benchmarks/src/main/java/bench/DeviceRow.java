package bench;

import java.util.Locale;

import bench.report.Ratio;
import bench.report.Target;

/**
 * One row of {@link DeviceBenchmark}: a part of {@link DeviceRank}, on how many processes, its unit and the
 * scale from the rank's figure (ns or GB/s) to it, its target in the rank's units (NaN for none), and whether
 * it is compared with the engine's fence on as many processes. It makes the row's ratios, so that the table's
 * cells and the charts' bars come from one place.
 */
record DeviceRow(String label, String part, int processes, String unit, double scale, double target,
    boolean againstFence)
{
    DeviceRow(final String label, final String part, final int processes, final String unit, final double scale,
        final double target)
    {
        this(label, part, processes, unit, scale, target, part.equals("barrier") || part.equals("allreduce"));
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

    /** The target as the table prints it, e.g. {@code "<= 2 us"}; empty without one. */
    String targetText()
    {
        return !hasTarget() ? "" : (isRate() ? ">= " : "<= ") +
            String.format(Locale.ROOT, "%.0f", target * scale) + " " + unit;
    }

    /** shm's figure against {@code reference}'s as a time ratio (for rates, the reference's rate over ours). */
    Ratio ratio(final Stat shm, final Stat reference)
    {
        final double ours = shm == null ? Double.NaN : shm.median() * scale;
        final double theirs = reference == null ? Double.NaN : reference.median() * scale;
        return isRate() ? Ratio.ofRatesAsTimes(label, ours, theirs, unit) : Ratio.of(label, ours, theirs, unit);
    }

    /** shm's figure against its target, as a time ratio: at most 1 meets it. */
    Ratio againstTarget(final Stat shm)
    {
        final double ours = shm == null ? Double.NaN : shm.median() * scale;
        return (isRate() ? Ratio.ofRatesAsTimes(label, ours, target * scale, unit) :
            Ratio.of(label, ours, target * scale, unit)).against(Target.atMost(1));
    }
}
