package bench.rma;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import bench.harness.CommandLine;
import bench.harness.Progress;
import bench.harness.ReportOptions;
import bench.harness.Samples;
import bench.harness.Stat;
import bench.report.Chart;
import bench.report.Ratio;
import bench.report.ReportRun;
import bench.report.Table;
import bench.report.Target;
import bench.report.Text;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;

/**
 * Measures {@code mpi.rma} shared windows in one run and prints two Markdown tables:
 * <ol>
 *   <li><b>Fence</b>: ns per {@code Win.fence(0)} beside the engine's raw fence on the same
 *   processes (target: at most {@value #FENCE_RATIO_TARGET}x) and MPJ Express's {@code Barrier}
 *   on the same device;</li>
 *   <li><b>Post, start, complete, wait</b>: ns per epoch of a ring of every process (each exposed to its
 *   left neighbour, accessing its right one, no RMA call) beside {@code Win.fence(0)} by turns, and ns per
 *   {@code start} on rank 0 once rank 1's post is done, without and with {@code MODE_NOCHECK};</li>
 *   <li><b>RMA latency</b>: put, get and accumulate (SUM of longs) of 8 B and 64 KiB from rank
 *   0 to rank 1, completed by a fence (all ranks fence each time) or by a flush inside lockAll;</li>
 *   <li><b>Strided put</b>: 1,000 doubles with a vector type of stride 2 on both sides against the
 *   contiguous put of the same 8,000 B, by turns in one job (target: at most
 *   {@value #STRIDED_RATIO_TARGET}x);</li>
 *   <li><b>Window allocation</b>: {@code Win.allocateShared} + {@code free} of 4 KiB and 1 MiB per
 *   process on 2 processes, beside the page reservation alone and Open MPI's
 *   {@code MPI_Win_allocate_shared} + {@code MPI_Win_free} ({@link OpenMpiReference}, where
 *   {@code mpicc} exists);</li>
 *   <li><b>Other flavours on one node</b> (with shm among the devices, 2 processes):
 *   {@code Win.allocate} against {@code Win.allocateShared}, put and get of 8 B + flush
 *   ({@link AllocateWindowRank}, target: at most {@value #ALLOCATE_RATIO_TARGET}x), and {@code Win.create}
 *   over a {@code double[]} against the shm device's ping-pong ({@link CreateWindowRank}, target: put of
 *   8 B + flush at most {@value #CREATE_RATIO_TARGET}x the round trip);</li>
 *   <li><b>Across two simulated nodes</b> (with niodev among the devices, where network namespaces can be
 *   made): {@code Win.create} with rank 0 and rank 1 on different nodes ({@link CreateWindowRank} on
 *   {@link SimulatedCluster}), put, get and accumulate of 8 B + flush against niodev's 8 B round trip
 *   (target: at most {@value #ACROSS_NODES_LATENCY_TARGET}x), a put of 1 MiB + flush against one way of its
 *   1 MiB ping-pong (target: at least {@value #ACROSS_NODES_BANDWIDTH_TARGET}x the bandwidth), and a fence
 *   of both against its {@code Barrier} (target: at most {@value #ACROSS_NODES_FENCE_TARGET}x).</li>
 * </ol>
 * One MPJ Express job per device and process count ({@link RmaBenchRank}); a figure is the median
 * over the repetitions (a collective one counts as long as its slowest rank).
 * <pre>
 * --quick                 smoke run: every row, figures not meaningful
 * --devices d1,d2         some of multicore,niodev,shm (default multicore,niodev,shm)
 * --report DIR            also write DIR/rma.md and its charts (bench.harness.ReportOptions); --notes FILE
 * </pre>
 * Charts: every ratio of the tables (Win.fence, post-start-complete-wait, the strided put, allocation, the other
 * flavours and the simulated nodes against their references), each with its target where it has one. Run it
 * with {@code bin/bench rma}.
 */
public final class RmaBenchmark
{
    private static final Progress PROGRESS = new Progress("bench-rma: ");

    static final double FENCE_RATIO_TARGET = 1.5;
    static final double STRIDED_RATIO_TARGET = 2.0;
    static final double ALLOCATE_RATIO_TARGET = 1.5;
    static final double CREATE_RATIO_TARGET = 2.0;
    static final double ACROSS_NODES_LATENCY_TARGET = 1.5;
    static final double ACROSS_NODES_BANDWIDTH_TARGET = 0.8;
    static final double ACROSS_NODES_FENCE_TARGET = 1.5;
    /** What Win.allocateShared + free of shm may take on top of the pages' reservation, us. */
    static final double ALLOCATION_ALLOWANCE_US = 150;
    private static final int[] PROCESSES = {2, 4};
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);
    private static final String[] OPS = {"put", "get", "acc"};

    private final boolean quick;
    private final List<MpjDevice> devices;
    private final ReportRun report;

    private RmaBenchmark(final boolean quick, final List<MpjDevice> devices, final ReportRun report)
    {
        this.quick = quick;
        this.devices = devices;
        this.report = report;
    }

    public static void main(final String[] args) throws Exception
    {
        CommandLine.main(args, commandLine ->
        {
            final RmaOptions options = RmaOptions.parse(commandLine);
            return run(options.quick, options.devices, options.report, System.out) ? 0 : 1;
        });
    }

    /** Runs the jobs on {@code devices} and prints the tables to {@code out}; false if a job failed. */
    static boolean run(final boolean quick, final List<MpjDevice> devices, final PrintStream out) throws Exception
    {
        return run(quick, devices, ReportOptions.none(new String[0], RmaBenchmark.class), out);
    }

    /** As {@link #run(boolean, List, PrintStream)}, writing the report where {@code options} say. */
    static boolean run(final boolean quick, final List<MpjDevice> devices, final ReportOptions options,
        final PrintStream out) throws Exception
    {
        final RmaBenchmark benchmark = new RmaBenchmark(quick, devices, start(quick, options, out));
        final boolean ok = benchmark.run();
        benchmark.report.finish();
        return ok;
    }

    /** Runs only the part across two simulated nodes and prints its table (or why not) to {@code out}. */
    static boolean runAcrossNodes(final boolean quick, final PrintStream out) throws Exception
    {
        final RmaBenchmark benchmark = new RmaBenchmark(quick, List.of(MpjDevice.NIODEV),
            start(quick, ReportOptions.none(new String[0], RmaBenchmark.class), out));
        final boolean ok = new RmaFlavours(benchmark.report, quick, JOB_TIMEOUT).addAcrossNodes();
        benchmark.report.finish();
        return ok;
    }

    private static ReportRun start(final boolean quick, final ReportOptions options, final PrintStream out)
    {
        final ReportRun report = ReportRun.start("rma", "mpi.rma benchmark" +
            (quick ? " (--quick: smoke run, figures not meaningful)" : ""), options, out, List.of(
            "one MPJ Express job per device and process count (bench.rma.RmaBenchRank), " + (quick ?
            "3 repetitions of about 1 ms" : "7 repetitions of about 50 ms") + " each; the ranks' JVMs with each " +
            "device's defaults"));
        if (quick)
        {
            report.note("Run with --quick: every row, tiny repetitions; the figures are not meaningful.");
        }
        return report;
    }

    /** Result of one job: its output, parsed per metric. */
    private record Job(MpjDevice device, int processes, String output)
    {
        /** The job's bar label, e.g. {@code "shm, 2 processes"}. */
        String label()
        {
            return device.deviceName() + ", " + processes + " processes";
        }

        double collective(final String metric)
        {
            return Stat.median(Samples.maxOverRanks(Samples.parse(output, metric), processes));
        }

        double rankZero(final String metric)
        {
            final List<Samples.Line> lines = Samples.parse(output, metric);
            if (lines.size() != 1)
            {
                throw new IllegalStateException("expected rank 0's line of " + metric + ", got " + lines.size());
            }
            return Stat.median(lines.getFirst().values());
        }
    }

    /** Runs every job and prints the tables; returns false if a job failed. */
    boolean run() throws Exception
    {
        final List<Job> jobs = new ArrayList<>();
        boolean ok = true;
        for (final MpjDevice device : devices)
        {
            for (final int processes : PROCESSES)
            {
                PROGRESS.say(device.deviceName() + ", " + processes + " processes");
                final JobSpec spec = new JobSpec(processes, MpjJobs.currentClassPath(), List.of(),
                    RmaBenchRank.class.getName(), List.of(quick ? "3" : "7", quick ? "1000000" : "50000000"), false);
                final JobResult result = MpjJobs.run(device, spec, JOB_TIMEOUT);
                if (!result.succeeded())
                {
                    PROGRESS.say("the " + device.deviceName() + " job of " + processes +
                        " processes failed:\n" + result.summary());
                    report.note("The " + device.deviceName() + " job of " + processes + " processes failed (its " +
                        "columns are missing): " + result.summary().lines().findFirst().orElse(""));
                    ok = false;
                    continue;
                }
                jobs.add(new Job(device, processes, result.output()));
            }
        }
        printFences(jobs);
        printPscw(jobs);
        printLatencies(jobs);
        printStridedPuts(jobs);
        printAllocations(jobs, OpenMpiReference.measure(RmaBenchRank.ALLOC_BYTES, quick ? 3 : 7,
            quick ? 1_000_000 : 50_000_000));
        if (devices.contains(MpjDevice.SHM))
        {
            ok &= new RmaFlavours(report, quick, JOB_TIMEOUT).addOneNode();
        }
        if (devices.contains(MpjDevice.NIODEV))
        {
            ok &= new RmaFlavours(report, quick, JOB_TIMEOUT).addAcrossNodes();
        }
        return ok;
    }

    private void printFences(final List<Job> jobs)
    {
        final Table table = new Table("device", "processes", "engine fence", "Win.fence",
            "ratio (target <= " + FENCE_RATIO_TARGET + ")", "MPJ Barrier");
        final List<Ratio> ratios = new ArrayList<>();
        for (final Job job : jobs)
        {
            final double engine = job.collective("engine-fence");
            final double win = job.collective("win-fence");
            final Ratio ratio = Ratio.of(job.label(), win, engine, "ns").against(Target.atMost(FENCE_RATIO_TARGET));
            ratios.add(ratio);
            table.row(job.device().deviceName(), Integer.toString(job.processes()), nanos(engine), nanos(win),
                String.format(Locale.ROOT, "%.2f", ratio.value()), nanos(job.collective("mpj-barrier")));
        }
        report.add(Text.heading(2, "Win.fence against the engine's fence and MPJ Express's Barrier (ns, median)"));
        report.add(table);
        report.add(new Chart("fence", "Win.fence against the engine's fence on the same processes",
            "Win.fence time / engine fence time (above 1: Win.fence takes longer)", ratios));
    }

    private void printPscw(final List<Job> jobs)
    {
        final Table table = new Table("device", "processes", "Win.fence", "post+start+complete+wait (ring)", "ratio",
            "start after the post (rank 0)", "start, MODE_NOCHECK");
        final List<Ratio> ratios = new ArrayList<>();
        for (final Job job : jobs)
        {
            final double fence = job.collective("pscw-fence");
            final double ring = job.collective("pscw-ring");
            final Ratio ratio = Ratio.of(job.label(), ring, fence, "ns");
            ratios.add(ratio);
            table.row(job.device().deviceName(), Integer.toString(job.processes()), nanos(fence), nanos(ring),
                String.format(Locale.ROOT, "%.2f", ratio.value()), nanos(job.rankZero("pscw-start")),
                nanos(job.rankZero("pscw-start-nocheck")));
        }
        report.add(Text.heading(2, "post + start + complete + wait against Win.fence, and start alone (ns, median)"));
        report.add(table);
        report.add(new Chart("pscw", "An epoch of post, start, complete and wait against Win.fence",
            "ring epoch time / Win.fence time (above 1: the epoch takes longer)", ratios));
    }

    private void printLatencies(final List<Job> jobs)
    {
        final List<String> header = new ArrayList<>(List.of("operation"));
        jobs.forEach(job -> header.add(job.device().deviceName() + ", " + job.processes()));
        final Table table = new Table(header);
        for (final String sync : new String[] {"fence", "flush"})
        {
            for (final int bytes : new int[] {RmaBenchRank.SMALL_BYTES, RmaBenchRank.LARGE_BYTES})
            {
                for (final String op : OPS)
                {
                    final String metric = op + "-" + sync + "-" + bytes;
                    final List<String> row = new ArrayList<>(List.of((op.equals("acc") ? "accumulate" : op) + " " +
                        (bytes == RmaBenchRank.SMALL_BYTES ? "8 B" : "64 KiB") + " + " +
                        (sync.equals("fence") ? "fence" : "flush (lockAll)")));
                    for (final Job job : jobs)
                    {
                        row.add(nanos(sync.equals("fence") ? job.collective(metric) : job.rankZero(metric)));
                    }
                    table.row(row);
                }
            }
        }
        report.add(Text.heading(2, "put / get / accumulate from rank 0 to rank 1, with completion (ns per operation, " +
            "median)"));
        report.add(table);
    }

    private void printStridedPuts(final List<Job> jobs)
    {
        final int bytes = RmaBenchRank.STRIDED_DOUBLES * Double.BYTES;
        final Table table = new Table("device", "processes", "contiguous " + String.format(Locale.ROOT, "%,d", bytes) +
            " B", "vector", "ratio (target <= " + STRIDED_RATIO_TARGET + ")");
        final List<Ratio> ratios = new ArrayList<>();
        for (final Job job : jobs)
        {
            final double contiguous = job.rankZero("put-contiguous-" + bytes);
            final double vector = job.rankZero("put-vector-" + bytes);
            final Ratio ratio = Ratio.of(job.label(), vector, contiguous, "ns")
                .against(Target.atMost(STRIDED_RATIO_TARGET));
            ratios.add(ratio);
            table.row(job.device().deviceName(), Integer.toString(job.processes()), nanos(contiguous), nanos(vector),
                String.format(Locale.ROOT, "%.2f", ratio.value()));
        }
        report.add(Text.heading(2, "put of " + String.format(Locale.ROOT, "%,d", RmaBenchRank.STRIDED_DOUBLES) +
            " doubles, vector of stride " + RmaBenchRank.STRIDE + " on both sides against contiguous, + flush " +
            "(lockAll), rank 0 to 1 (ns, median)"));
        report.add(table);
        report.add(new Chart("strided", "Strided put (vector of stride " + RmaBenchRank.STRIDE + ") against the " +
            "contiguous put of the same bytes", "vector put time / contiguous put time (above 1: the vector takes " +
            "longer)", ratios));
    }

    private void printAllocations(final List<Job> jobs, final Optional<String> openMpi)
    {
        final List<Job> pairs = jobs.stream().filter(job -> job.processes() == OpenMpiReference.PROCESSES).toList();
        final List<String> header = new ArrayList<>(List.of("per process"));
        pairs.forEach(job -> header.add(job.device().deviceName()));
        header.add("Open MPI");
        header.add("page reservation alone (" + (pairs.isEmpty() ? "-" : pairs.getFirst().device().deviceName()) +
            ", rank 0)");
        header.add("target");
        final Table table = new Table(header);
        final List<Ratio> againstOpenMpi = new ArrayList<>();
        final List<Ratio> againstTarget = new ArrayList<>();
        for (final long bytes : RmaBenchRank.ALLOC_BYTES)
        {
            final String size = bytes < (1 << 20) ? bytes / 1024 + " KiB" : bytes / (1 << 20) + " MiB";
            final Optional<double[]> ompi = openMpi.map(output -> Samples.maxOverRanks(Samples.parse(output,
                "ompi-alloc-free-" + bytes), OpenMpiReference.PROCESSES));
            final double[] reserve = pairs.isEmpty() ? null :
                Samples.parse(pairs.getFirst().output(), "reserve-" + bytes).getFirst().values();
            final List<String> row = new ArrayList<>(List.of(size));
            String met = "";
            for (final Job job : pairs)
            {
                final double[] ns = Samples.maxOverRanks(Samples.parse(job.output(), "alloc-free-" + bytes),
                    job.processes());
                row.add(micros(ns));
                ompi.ifPresent(reference -> againstOpenMpi.add(Ratio.of(job.device().deviceName() + ", " + size,
                    Stat.median(ns) / 1000, Stat.median(reference) / 1000, "us")));
                if (job.device() == MpjDevice.SHM && reserve != null)
                {
                    final double limitUs = ALLOCATION_ALLOWANCE_US + (bytes < (1 << 20) ? 0 :
                        Stat.median(reserve) / 1000);
                    final Ratio ratio = Ratio.of("shm, " + size, Stat.median(ns) / 1000, limitUs, "us")
                        .against(Target.atMost(1));
                    againstTarget.add(ratio);
                    met = ": " + ratio.metText();
                }
            }
            row.add(ompi.map(RmaBenchmark::micros).orElse("-"));
            row.add(reserve == null ? "-" : micros(reserve));
            row.add((bytes < (1 << 20) ? "<= 150 us (shm)" : "<= reservation + 150 us (shm)") + met);
            table.row(row);
        }
        report.add(Text.heading(2, "Win.allocateShared + free, 2 processes (us, median; min-max)"));
        report.add(table);
        if (!againstTarget.isEmpty())
        {
            report.add(new Chart("allocation", "Win.allocateShared + free on shm against its target",
                "time / target time (for 1 MiB, the target is the reservation + 150 us): at most 1 meets it",
                againstTarget));
        }
        if (!againstOpenMpi.isEmpty())
        {
            report.add(new Chart("allocation-openmpi", "Win.allocateShared + free against Open MPI's " +
                "MPI_Win_allocate_shared + MPI_Win_free", "time / Open MPI's time (above 1: slower than Open MPI)",
                againstOpenMpi));
        }
        else
        {
            report.note("Open MPI's allocation not measured: mpicc or mpirun is not installed.");
        }
    }

    /** ns, to the nanosecond with thousands separators. */
    private static String nanos(final double ns)
    {
        return String.format(Locale.ROOT, "%,.0f", ns);
    }

    /** Median and range of ns values, in us. */
    private static String micros(final double[] ns)
    {
        return String.format(Locale.ROOT, "%.1f (%.1f-%.1f)", Stat.median(ns) / 1000, Stat.min(ns) / 1000,
            Stat.max(ns) / 1000);
    }
}
