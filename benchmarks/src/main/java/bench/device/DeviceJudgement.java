package bench.device;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import bench.harness.Samples;
import bench.harness.Stat;
import bench.report.Ratio;
import bench.report.Target;

/**
 * The judging part of {@link DeviceBenchmark}: from what the jobs printed ({@link DeviceOutputs}), each row's
 * figures, its ratios to the engine's fence, Open MPI's C, multicore and niodev, and its targets, met or not; and
 * the bars of each chart. Nothing here runs a job or formats a page.
 *
 * @param rows             each row judged, in table order.
 * @param shmStats         each row's shm figure (null where none), for the floors' tables.
 * @param cStats           each row's Open MPI C figure (null where none), for the floors' tables.
 * @param compiling        each plain row's figure while it was still being compiled.
 * @param againstFence     shm against the engine's fence, with {@link DeviceBenchmark#FENCE_RATIO_TARGET}.
 * @param againstTargets   every target of every row.
 * @param againstC         shm against Open MPI's C, row by row.
 * @param againstMulticore shm against multicore, row by row.
 * @param againstNiodev    shm against niodev, row by row.
 */
record DeviceJudgement(List<Judged> rows, Map<DeviceRow, Stat> shmStats, Map<DeviceRow, Stat> cStats,
    Map<DeviceRow, Stat> compiling, List<Ratio> againstFence, List<Ratio> againstTargets, List<Ratio> againstC,
    List<Ratio> againstMulticore, List<Ratio> againstNiodev)
{
    /**
     * One row judged: its figure on each column (null where not measured), shm's ratio to the fence (with its
     * target) and to Open MPI's C, the texts of its targets and of those it met or missed.
     */
    record Judged(DeviceRow row, Stat shm, Stat multicore, Stat niodev, Stat fence, Stat c, Ratio fenceRatio,
        Ratio cRatio, List<String> targets, List<String> met)
    {
    }

    /** Judges each of {@code rows} from {@code outputs}. */
    static DeviceJudgement of(final List<DeviceRow> rows, final DeviceOutputs outputs)
    {
        final List<Judged> judged = new ArrayList<>();
        final List<Ratio> againstFence = new ArrayList<>();
        final List<Ratio> againstC = new ArrayList<>();
        final List<Ratio> againstMulticore = new ArrayList<>();
        final List<Ratio> againstNiodev = new ArrayList<>();
        final List<Ratio> againstTargets = new ArrayList<>();
        final Map<DeviceRow, Stat> shmStats = new LinkedHashMap<>();
        final Map<DeviceRow, Stat> cStats = new LinkedHashMap<>();
        final Map<DeviceRow, Stat> compiling = new LinkedHashMap<>();
        for (final DeviceRow row : rows)
        {
            final String key = DeviceMeasurement.jobKey(row);
            final Stat shm = stat(outputs.shm().get(key), row, row.part());
            final Stat multicore = stat(outputs.multicore().get(key), row, row.part());
            final Stat tcp = stat(outputs.niodev().get(key), row, row.part());
            final Stat fence = row.againstFence() ? fenceStat(outputs.fence().get(key), row.processes()) : null;
            final Stat inC = stat(outputs.c().get(row.processes() + " " + row.cPart()), row, row.cPart());
            shmStats.put(row, shm);
            cStats.put(row, inC);
            if (row.isPlain())
            {
                compiling.put(row, stat(outputs.shm().get(key), row, PlainPingPong.COMPILING + row.plainBytes()));
            }
            final Ratio fenceRatio = row.ratio(shm, fence).against(Target.atMost(DeviceBenchmark.FENCE_RATIO_TARGET));
            final Ratio cRatio = row.ratio(shm, inC);
            final Ratio multicoreRatio = row.ratio(shm, multicore);
            againstC.add(cRatio);
            againstMulticore.add(multicoreRatio);
            againstNiodev.add(row.ratio(shm, tcp));
            final List<String> met = new ArrayList<>();
            final List<String> targets = new ArrayList<>(row.targetTexts());
            final List<Ratio> goals = new ArrayList<>();
            if (row.hasTarget())
            {
                goals.add(row.againstTarget(shm));
            }
            if (!Double.isNaN(row.cTarget()))
            {
                goals.add(relabel(cRatio, row.label() + " (vs C)").against(Target.atMost(row.cTarget())));
            }
            if (!Double.isNaN(row.multicoreTarget()))
            {
                goals.add(relabel(multicoreRatio, row.label() + " (vs multicore)")
                    .against(Target.atMost(row.multicoreTarget())));
            }
            for (final Ratio goal : goals)
            {
                againstTargets.add(goal);
                if (goal.isMeasured())
                {
                    met.add(goal.metText());
                }
            }
            if (row.againstFence())
            {
                againstFence.add(fenceRatio);
                targets.add("<= " + DeviceBenchmark.FENCE_RATIO_TARGET + "x fence");
                if (fenceRatio.isMeasured())
                {
                    met.add(fenceRatio.metText());
                }
            }
            judged.add(new Judged(row, shm, multicore, tcp, fence, inC, fenceRatio, cRatio, List.copyOf(targets),
                List.copyOf(met)));
        }
        return new DeviceJudgement(judged, shmStats, cStats, compiling, againstFence, againstTargets, againstC,
            againstMulticore, againstNiodev);
    }

    private static Stat fenceStat(final String output, final int processes)
    {
        if (output == null)
        {
            return null;
        }
        final List<Samples.Line> lines = Samples.parse(output, "fence");
        return lines.isEmpty() ? null : Stat.overRanks(lines, processes);
    }

    /** The row's figure from a job's {@code output}, where its lines are those of {@code part}. */
    private static Stat stat(final String output, final DeviceRow row, final String part)
    {
        if (output == null)
        {
            return null;
        }
        final List<Samples.Line> lines = Samples.parse(output, part);
        if (lines.isEmpty())
        {
            return null;
        }
        final boolean pair = row.isPlain() || DeviceRank.isPointToPoint(row.part());
        return Stat.overRanks(lines, pair ? 1 : row.processes());
    }

    private static Ratio relabel(final Ratio ratio, final String label)
    {
        return new Ratio(label, ratio.measured(), ratio.reference(), ratio.unit(), ratio.value(), ratio.target());
    }
}
