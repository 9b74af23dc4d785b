package bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;
import mpjrun.SimulatedCluster;

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
 * </pre>
 * Run it with {@code bin/bench-rma}.
 */
public final class RmaBenchmark
{
    static final double FENCE_RATIO_TARGET = 1.5;
    static final double STRIDED_RATIO_TARGET = 2.0;
    static final double ALLOCATE_RATIO_TARGET = 1.5;
    static final double CREATE_RATIO_TARGET = 2.0;
    static final double ACROSS_NODES_LATENCY_TARGET = 1.5;
    static final double ACROSS_NODES_BANDWIDTH_TARGET = 0.8;
    static final double ACROSS_NODES_FENCE_TARGET = 1.5;
    private static final int[] PROCESSES = {2, 4};
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);
    private static final String[] OPS = {"put", "get", "acc"};

    private final boolean quick;
    private final List<MpjDevice> devices;
    private final PrintStream out;

    private RmaBenchmark(final boolean quick, final List<MpjDevice> devices, final PrintStream out)
    {
        this.quick = quick;
        this.devices = devices;
        this.out = out;
    }

    public static void main(final String[] args) throws Exception
    {
        boolean quick = false;
        List<MpjDevice> devices = List.of(MpjDevice.MULTICORE, MpjDevice.NIODEV, MpjDevice.SHM);
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--quick" -> quick = true;
                case "--devices" ->
                {
                    if (i + 1 == args.length)
                    {
                        usage("--devices needs a value, e.g. multicore,niodev");
                    }
                    devices = new ArrayList<>();
                    for (final String name : args[++i].split(","))
                    {
                        devices.add(device(name));
                    }
                }
                default -> usage("unknown option " + args[i]);
            }
        }
        if (!run(quick, devices, System.out))
        {
            System.exit(1);
        }
    }

    /** Runs the jobs on {@code devices} and prints the tables to {@code out}; false if a job failed. */
    static boolean run(final boolean quick, final List<MpjDevice> devices, final PrintStream out) throws Exception
    {
        return new RmaBenchmark(quick, devices, out).run();
    }

    /** Runs only the part across two simulated nodes and prints its table (or why not) to {@code out}. */
    static boolean runAcrossNodes(final boolean quick, final PrintStream out) throws Exception
    {
        return new RmaBenchmark(quick, List.of(MpjDevice.NIODEV), out).printAcrossNodes();
    }

    private static MpjDevice device(final String name)
    {
        for (final MpjDevice device : MpjDevice.values())
        {
            if (device.name().equalsIgnoreCase(name.trim()))
            {
                return device;
            }
        }
        usage("unknown device " + name + ": give multicore, niodev or shm");
        return null;
    }

    private static void usage(final String problem)
    {
        System.err.println("RmaBenchmark: " + problem + "\nusage: bin/bench-rma [--quick] [--devices multicore,niodev,shm]");
        System.exit(2);
    }

    /** Result of one job: its output, parsed per metric. */
    private record Job(MpjDevice device, int processes, String output)
    {
        double collective(final String metric)
        {
            return Samples.median(Samples.maxOverRanks(Samples.parse(output, metric), processes));
        }

        double rankZero(final String metric)
        {
            final List<Samples.Line> lines = Samples.parse(output, metric);
            if (lines.size() != 1)
            {
                throw new IllegalStateException("expected rank 0's line of " + metric + ", got " + lines.size());
            }
            return Samples.median(lines.getFirst().values());
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
                System.err.printf("bench-rma: %s, %d processes%n", device.deviceName(), processes);
                final JobSpec spec = new JobSpec(processes, MpjJobs.currentClassPath(), List.of(),
                    RmaBenchRank.class.getName(), List.of(quick ? "3" : "7", quick ? "1000000" : "50000000"), false);
                final JobResult result = MpjJobs.run(device, spec, JOB_TIMEOUT);
                if (!result.succeeded())
                {
                    System.err.println("bench-rma: the " + device.deviceName() + " job of " + processes +
                        " processes failed:\n" + result.summary());
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
            ok &= printOtherFlavours();
        }
        if (devices.contains(MpjDevice.NIODEV))
        {
            ok &= printAcrossNodes();
        }
        return ok;
    }

    /** Win.allocate and Win.create on one node (shm, 2 processes): each rank program prints its own table. */
    private boolean printOtherFlavours() throws Exception
    {
        boolean ok = true;
        final String[][] programs = {
            {"Win.allocate against Win.allocateShared (us per operation; target: allocate <= " +
                ALLOCATE_RATIO_TARGET + "x allocateShared)", AllocateWindowRank.class.getName()},
            {"Win.create over a double[] against the device's ping-pong (us per operation; target: put 8 B + " +
                "flush <= " + CREATE_RATIO_TARGET + "x the 8 B round trip)", CreateWindowRank.class.getName()}};
        for (final String[] program : programs)
        {
            System.err.println("bench-rma: shm, 2 processes, " + program[1]);
            final JobSpec spec = otherFlavourJob(program[1]);
            ok &= printRankTable(program[0] + ", shm, 2 processes", program[1],
                MpjJobs.run(MpjDevice.SHM, spec, JOB_TIMEOUT));
        }
        return ok;
    }

    /**
     * Win.create across two simulated nodes (niodev, rank 0 on one node and rank 1 on the other) against
     * MPJ Express's own ping-pong, Barrier and bandwidth in the same job; where network namespaces cannot be
     * made, says why instead.
     */
    private boolean printAcrossNodes() throws Exception
    {
        final String title = "Win.create across two simulated nodes against niodev (us per operation; targets: put, " +
            "get and accumulate of 8 B + flush <= " + ACROSS_NODES_LATENCY_TARGET + "x the 8 B round trip, put of " +
            "1 MiB + flush >= " + ACROSS_NODES_BANDWIDTH_TARGET + "x the one-way bandwidth, fence <= " +
            ACROSS_NODES_FENCE_TARGET + "x the Barrier), niodev, 2 processes on 2 nodes";
        final String unavailable = SimulatedCluster.unavailableReason();
        if (unavailable != null)
        {
            out.println("### " + title);
            out.println();
            out.println("Not measured: " + unavailable + ".");
            out.println();
            return true;
        }
        System.err.println("bench-rma: niodev, 2 processes on 2 simulated nodes, " + CreateWindowRank.class.getName());
        return printRankTable(title, CreateWindowRank.class.getName(), MpjJobs.runOnSimulatedCluster(
            otherFlavourJob(CreateWindowRank.class.getName()), 2, JOB_TIMEOUT));
    }

    private JobSpec otherFlavourJob(final String mainClass)
    {
        return new JobSpec(2, MpjJobs.currentClassPath(), List.of(), mainClass, List.of(quick ? "3" : "15"), false);
    }

    /** Prints the table a rank program printed under {@code title}; false (and the job's summary) if it failed. */
    private boolean printRankTable(final String title, final String program, final JobResult result)
    {
        if (!result.succeeded())
        {
            System.err.println("bench-rma: the job of " + program + " failed:\n" + result.summary());
            return false;
        }
        out.println("### " + title);
        out.println();
        result.output().lines().filter(line -> line.startsWith("|")).forEach(out::println);
        out.println();
        return true;
    }

    private void printFences(final List<Job> jobs)
    {
        out.println("### Win.fence against the engine's fence and MPJ Express's Barrier (ns, median)");
        out.println();
        out.println("| device | processes | engine fence | Win.fence | ratio (target <= " + FENCE_RATIO_TARGET +
            ") | MPJ Barrier |");
        out.println("|---|---|---|---|---|---|");
        for (final Job job : jobs)
        {
            final double engine = job.collective("engine-fence");
            final double win = job.collective("win-fence");
            out.printf(Locale.ROOT, "| %s | %d | %,.0f | %,.0f | %.2f | %,.0f |%n", job.device().deviceName(),
                job.processes(), engine, win, win / engine, job.collective("mpj-barrier"));
        }
        out.println();
    }

    private void printPscw(final List<Job> jobs)
    {
        out.println("### post + start + complete + wait against Win.fence, and start alone (ns, median)");
        out.println();
        out.println("| device | processes | Win.fence | post+start+complete+wait (ring) | ratio | " +
            "start after the post (rank 0) | start, MODE_NOCHECK |");
        out.println("|---|---|---|---|---|---|---|");
        for (final Job job : jobs)
        {
            final double fence = job.collective("pscw-fence");
            final double ring = job.collective("pscw-ring");
            out.printf(Locale.ROOT, "| %s | %d | %,.0f | %,.0f | %.2f | %,.0f | %,.0f |%n", job.device().deviceName(),
                job.processes(), fence, ring, ring / fence, job.rankZero("pscw-start"),
                job.rankZero("pscw-start-nocheck"));
        }
        out.println();
    }

    private void printLatencies(final List<Job> jobs)
    {
        out.println("### put / get / accumulate from rank 0 to rank 1, with completion (ns per operation, median)");
        out.println();
        final StringBuilder header = new StringBuilder("| operation |");
        final StringBuilder rule = new StringBuilder("|---|");
        for (final Job job : jobs)
        {
            header.append(' ').append(job.device().deviceName()).append(", ").append(job.processes()).append(" |");
            rule.append("---|");
        }
        out.println(header);
        out.println(rule);
        for (final String sync : new String[] {"fence", "flush"})
        {
            for (final int bytes : new int[] {RmaBenchRank.SMALL_BYTES, RmaBenchRank.LARGE_BYTES})
            {
                for (final String op : OPS)
                {
                    final String metric = op + "-" + sync + "-" + bytes;
                    final StringBuilder row = new StringBuilder("| " + (op.equals("acc") ? "accumulate" : op) + " " +
                        (bytes == RmaBenchRank.SMALL_BYTES ? "8 B" : "64 KiB") + " + " +
                        (sync.equals("fence") ? "fence" : "flush (lockAll)") + " |");
                    for (final Job job : jobs)
                    {
                        final double ns = sync.equals("fence") ? job.collective(metric) : job.rankZero(metric);
                        row.append(String.format(Locale.ROOT, " %,.0f |", ns));
                    }
                    out.println(row);
                }
            }
        }
        out.println();
    }

    private void printStridedPuts(final List<Job> jobs)
    {
        final int bytes = RmaBenchRank.STRIDED_DOUBLES * Double.BYTES;
        out.println("### put of " + String.format(Locale.ROOT, "%,d", RmaBenchRank.STRIDED_DOUBLES) +
            " doubles, vector of stride " + RmaBenchRank.STRIDE + " on both sides against contiguous, + flush " +
            "(lockAll), rank 0 to 1 (ns, median)");
        out.println();
        out.println("| device | processes | contiguous " + String.format(Locale.ROOT, "%,d", bytes) +
            " B | vector | ratio (target <= " + STRIDED_RATIO_TARGET + ") |");
        out.println("|---|---|---|---|---|");
        for (final Job job : jobs)
        {
            final double contiguous = job.rankZero("put-contiguous-" + bytes);
            final double vector = job.rankZero("put-vector-" + bytes);
            out.printf(Locale.ROOT, "| %s | %d | %,.0f | %,.0f | %.2f |%n", job.device().deviceName(), job.processes(),
                contiguous, vector, vector / contiguous);
        }
        out.println();
    }

    private void printAllocations(final List<Job> jobs, final Optional<String> openMpi)
    {
        out.println("### Win.allocateShared + free, 2 processes (us, median; min-max)");
        out.println();
        final StringBuilder header = new StringBuilder("| per process |");
        final StringBuilder rule = new StringBuilder("|---|");
        final List<Job> pairs = jobs.stream().filter(job -> job.processes() == OpenMpiReference.PROCESSES).toList();
        for (final Job job : pairs)
        {
            header.append(' ').append(job.device().deviceName()).append(" |");
            rule.append("---|");
        }
        header.append(" Open MPI |");
        rule.append("---|");
        header.append(" page reservation alone (")
            .append(pairs.isEmpty() ? "-" : pairs.getFirst().device().deviceName()).append(", rank 0) | target |");
        rule.append("---|---|");
        out.println(header);
        out.println(rule);
        for (final long bytes : RmaBenchRank.ALLOC_BYTES)
        {
            final StringBuilder row = new StringBuilder("| " + (bytes < (1 << 20) ? bytes / 1024 + " KiB" :
                bytes / (1 << 20) + " MiB") + " |");
            for (final Job job : pairs)
            {
                row.append(' ').append(micros(Samples.maxOverRanks(Samples.parse(job.output(),
                    "alloc-free-" + bytes), job.processes()))).append(" |");
            }
            row.append(' ').append(openMpi.map(output -> micros(Samples.maxOverRanks(Samples.parse(output,
                "ompi-alloc-free-" + bytes), OpenMpiReference.PROCESSES))).orElse("-")).append(" |");
            row.append(' ').append(pairs.isEmpty() ? "-" : micros(Samples.parse(pairs.getFirst().output(),
                "reserve-" + bytes).getFirst().values())).append(" |");
            row.append(bytes < (1 << 20) ? " <= 150 us (shm) |" : " <= reservation + 150 us (shm) |");
            out.println(row);
        }
        out.println();
    }

    /** Median and range of ns values, in us. */
    private static String micros(final double[] ns)
    {
        return String.format(Locale.ROOT, "%.1f (%.1f-%.1f)", Samples.median(ns) / 1000, Samples.min(ns) / 1000,
            Samples.max(ns) / 1000);
    }
}
