package bench.device;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

import bench.harness.ReportOptions;
import bench.report.Chart;
import bench.report.Ratio;
import bench.report.ReportRun;
import bench.report.Table;
import bench.report.Text;
import mpjrun.process.RankJvmDefaults;

/**
 * The rendering part of {@link DeviceBenchmark}: the page's stamp, its table of every row judged
 * ({@link DeviceJudgement}), what the figures mean, the floors' tables, the notes and the charts. Nothing here runs
 * a job or judges a figure.
 */
final class DevicePage
{
    private DevicePage()
    {
    }

    /**
     * Starts the page (its stamp goes out now, before anything is measured).
     *
     * @param c       Open MPI, or null if it is not measured.
     * @param openMpi whether Open MPI was asked for (no {@code --no-openmpi}).
     */
    static ReportRun start(final DeviceBenchmark.Settings settings, final OpenMpiC c, final boolean openMpi,
        final ReportOptions options, final PrintStream out) throws IOException, InterruptedException
    {
        final boolean quick = settings == DeviceBenchmark.QUICK;
        final ReportRun report = ReportRun.start("device", "shm device benchmark" +
            (quick ? " (--quick: smoke run, figures not meaningful)" : ""), options, out, List.of(
            "ranks' JVMs: shm's with the launcher's defaults (" +
            String.join(" ", RankJvmDefaults.defaults(2, Runtime.getRuntime().availableProcessors())) +
            " for 2 ranks), MPJ Express's with the JDK's own", "settings: " + settings,
            "Open MPI C: " + (c == null ? (openMpi ? "not measured (see below)" : "--no-openmpi") :
            c.version() + ", mpirun " + c.runOptions())));
        if (quick)
        {
            report.note("Run with --quick: every row, tiny repetitions; the figures are not meaningful.");
        }
        return report;
    }

    /**
     * Adds the run's table, floors, notes and charts to {@code report} and finishes it.
     *
     * @param cMeasured whether Open MPI's C was measured at all; {@code openMpi} whether it was asked for.
     */
    static void finish(final ReportRun report, final DeviceBenchmark.Settings settings, final List<DeviceRow> rows,
        final DeviceOutputs outputs, final DeviceJudgement judgement, final boolean cMeasured, final boolean openMpi)
        throws IOException
    {
        final String cMissing = openMpi ? "not installed" : "not measured";
        final Table table = new Table("measurement", "shm", "multicore (smpdev)", "niodev", "engine fence",
            "shm / fence", "Open MPI C", "shm / C", "target", "met");
        for (final DeviceJudgement.Judged judged : judgement.rows())
        {
            final DeviceRow row = judged.row();
            table.row(row.label() + ", " + row.unit(),
                row.figure(judged.shm()),
                row.figure(judged.multicore()),
                row.figure(judged.niodev()),
                !row.againstFence() ? "" : row.figure(judged.fence()),
                judged.fenceRatio().textIfMeasured(),
                judged.c() != null ? row.figure(judged.c()) : !cMeasured ? cMissing : "n/a",
                judged.cRatio().textIfMeasured(),
                String.join("; ", judged.targets()), String.join(" / ", judged.met()));
        }
        report.add(table);
        report.add(new Text("Median over " + settings.repetitions() + " repetitions (min-max), each sized to last " +
            "about " + settings.repetitionTargetNs() / 1_000_000 + " ms; a collective repetition counts as long as " +
            "its slowest rank. Bandwidth: messages sent back to back with blocking Send, one acknowledgement at the " +
            "end. shm: one JVM per rank (mpjrun.ShmJob); multicore: one JVM, one thread per rank; niodev: one JVM " +
            "per rank over loopback TCP (mpjrun.MpjJobs, with a daemon of its own). Engine fence: kupl's raw " +
            "fence on a one-word window, one JVM per process (mpjrun.process.EngineJob), after " +
            settings.warmupMs() + " ms of warm-up. Open MPI C: our C programs (benchmarks/src/main/c, " +
            "mpicc -O2), the same loop, sizing and units as the Java ranks, blocking MPI_Send/MPI_Recv. " +
            "Plain ping-pong: bench.device.PlainPingPong, Send/Recv of a byte[] warmed up for " + settings.warmupMs() +
            " ms in batches of 1,000 round trips with a Bcast between them, then " + PlainPingPong.TIMED_BATCHES +
            " batches of about 100 ms (median, min-max), held against Open MPI C's ping-pong of the same size. " +
            "Ratios compare times (for GB/s rows, the inverse of the rates): above 1 means shm takes longer."));
        if (outputs.shortFloor() != null)
        {
            report.add(outputs.shortFloor().table(rows, judgement.shmStats(), judgement.cStats(),
                judgement.compiling()));
            report.add(ShortMessageFloor.explanation());
        }
        if (outputs.largeFloor() != null)
        {
            report.add(outputs.largeFloor().table(rows, judgement.shmStats(), judgement.cStats()));
            report.add(LargeMessageFloor.explanation());
        }
        final List<String> notes = outputs.notes();
        notes.forEach(note -> report.add(new Text(note)));
        notes.forEach(note -> report.note(note.lines().findFirst().orElse(note)));
        final String timeRatio = " (for GB/s rows, the inverse of the rates; above 1: shm takes longer)";
        addChart(report, new Chart("fence", "Barrier and Allreduce on shm against the engine's fence",
            "shm time / fence time" + timeRatio, judgement.againstFence()));
        addChart(report, new Chart("targets", "shm against its targets",
            "shm time / target time" + timeRatio + ": at most 1 meets the target", judgement.againstTargets()));
        addChart(report, new Chart("openmpi", "shm against Open MPI's C library",
            "shm time / Open MPI C time" + timeRatio, judgement.againstC()));
        addChart(report, new Chart("multicore", "shm against MPJ Express multicore (smpdev)",
            "shm time / multicore time" + timeRatio, judgement.againstMulticore()));
        addChart(report, new Chart("niodev", "shm against MPJ Express niodev (loopback TCP)",
            "shm time / niodev time" + timeRatio, judgement.againstNiodev()));
        report.finish();
    }

    /** Adds {@code chart} unless none of its bars could be measured (a reference that was not run). */
    private static void addChart(final ReportRun report, final Chart chart)
    {
        if (chart.bars().stream().anyMatch(Ratio::isMeasured) || chart.bars().stream().anyMatch(Ratio::hasTarget))
        {
            report.add(chart);
        }
    }
}
