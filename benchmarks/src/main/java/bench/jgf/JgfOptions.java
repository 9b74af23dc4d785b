package bench.jgf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import bench.harness.CommandLine;
import bench.harness.FixedWait;
import bench.harness.Jobs;
import bench.harness.ReportOptions;
import bench.harness.UsageException;
import mpjrun.MpjDevice;

/**
 * {@link JgfBenchmark}'s command line: {@code --quick}, {@code --np 2,4}, {@code --sizes A,B}, {@code --only KERNELS},
 * {@code --reps N}, {@code --runs N}, {@code --no-multicore}, {@code --no-niodev}, {@code --no-fixed-wait},
 * {@code --mpj-home DIR}, and the folder of JGF's MPJ benchmarks.
 */
final class JgfOptions
{
    static final String USAGE = "usage: bin/bench jgf [--quick] [--np 2,4] [--sizes A,B] " +
        "[--only lufact,sor,sparse,crypt] [--reps N] [--runs N] [--no-multicore] [--no-niodev] [--no-fixed-wait] " +
        "[--mpj-home DIR] " + ReportOptions.USAGE + " DIR (DIR: the test/jgf_mpj_benchmarks folder of a clone of " +
        "https://github.com/mpjexpress-project/mpjexpress)";

    List<Integer> processCounts = List.of(2, 4);
    List<String> sizes = List.of("A", "B");
    List<JgfBenchmark.Kernel> kernels = List.of(JgfBenchmark.Kernel.values());
    int repetitions = JgfBenchmark.FULL_REPETITIONS;
    int runs = 1;
    boolean multicore = true;
    boolean niodev = true;
    boolean fixedWait = true;
    Path mpjHome = Jobs.defaultMpjHome();
    Path sources;
    ReportOptions report;

    private JgfOptions()
    {
    }

    /** @throws UsageException if an argument is not understood. */
    static JgfOptions parse(final String[] args)
    {
        final JgfOptions options = new JgfOptions();
        options.report = new CommandLine(USAGE)
            .flag("--quick", () ->
            {
                options.processCounts = List.of(2);
                options.sizes = List.of("A");
                options.repetitions = 1;
            })
            .option("--np", counts -> options.processCounts = CommandLine.positives("--np", counts))
            .option("--sizes", sizes -> options.sizes = Arrays.stream(sizes.split(",")).map(JgfOptions::size)
                .toList())
            .option("--only", names -> options.kernels = Arrays.stream(names.split(",")).map(JgfOptions::kernel)
                .toList())
            .option("--reps", count -> options.repetitions = CommandLine.positive("--reps", count))
            .option("--runs", count -> options.runs = CommandLine.positive("--runs", count))
            .flag("--no-multicore", () -> options.multicore = false)
            .flag("--no-niodev", () -> options.niodev = false)
            .flag("--no-fixed-wait", () -> options.fixedWait = false)
            .option("--mpj-home", dir -> options.mpjHome = Path.of(dir).toAbsolutePath())
            .operand(dir -> options.sources = Path.of(dir).toAbsolutePath())
            .parse(args, JgfBenchmark.class);
        return options;
    }

    /**
     * What the command line asks to measure: its columns in table order.
     *
     * @throws UsageException if the folder is not named, is missing or is not a copy of JGF's MPJ benchmarks.
     */
    JgfBenchmark.Plan plan()
    {
        final List<JgfBenchmark.Column> columns = new ArrayList<>();
        columns.add(new JgfBenchmark.Column("shm", MpjDevice.SHM, false));
        if (fixedWait)
        {
            columns.add(new JgfBenchmark.Column(FixedWait.COLUMN, MpjDevice.SHM, true));
        }
        if (multicore)
        {
            columns.add(new JgfBenchmark.Column("multicore", MpjDevice.MULTICORE, false));
        }
        if (niodev)
        {
            columns.add(new JgfBenchmark.Column("niodev", MpjDevice.NIODEV, false));
        }
        return new JgfBenchmark.Plan(checkedSources(), processCounts, sizes, kernels, repetitions, runs, columns,
            mpjHome);
    }

    private Path checkedSources()
    {
        if (sources == null)
        {
            throw new UsageException("name the folder of the JGF MPJ benchmarks", USAGE);
        }
        if (!Files.isDirectory(sources))
        {
            throw new UsageException("no folder " + sources + ": clone " +
                "https://github.com/mpjexpress-project/mpjexpress and name its test/jgf_mpj_benchmarks", USAGE);
        }
        if (!Files.isRegularFile(sources.resolve(JgfBenchmark.MARKER)))
        {
            throw new UsageException(sources + " is not a copy of MPJ Express's test/jgf_mpj_benchmarks (" +
                JgfBenchmark.MARKER + " is missing)", USAGE);
        }
        return sources;
    }

    private static String size(final String value)
    {
        final String size = value.strip().toUpperCase(Locale.ROOT);
        if (!List.of("A", "B", "C").contains(size))
        {
            throw new IllegalArgumentException("--sizes " + value + ": each size is A, B or C");
        }
        return size;
    }

    private static JgfBenchmark.Kernel kernel(final String value)
    {
        return Arrays.stream(JgfBenchmark.Kernel.values()).filter(kernel -> kernel.shortName.equals(value.strip()))
            .findFirst().orElseThrow(() -> new IllegalArgumentException("--only " + value + " is not one of " +
                Arrays.stream(JgfBenchmark.Kernel.values()).map(kernel -> kernel.shortName).toList()));
    }
}
