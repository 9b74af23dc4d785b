package bench.cluster;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import bench.harness.CommandLine;
import bench.harness.Jobs;
import bench.harness.ReportOptions;
import mpjrun.ClusterDevice;

/**
 * {@link ClusterBenchmark}'s command line: {@code --quick}, {@code --devices NAMES}, {@code --only ROWS},
 * {@code --mpj-home DIR}.
 */
final class ClusterOptions
{
    /** The devices a column can be measured on, in column order: every device the simulated cluster runs. */
    static final List<String> DEVICES = ClusterDevice.texts();

    static final String USAGE = "usage: ClusterBenchmark [--quick] [--devices " +
        String.join(",", DEVICES) + "] [--only " + String.join(",", ClusterBenchmark.options()) +
        "] [--mpj-home DIR] " + ReportOptions.USAGE;

    boolean quick;
    List<String> devices = DEVICES;
    List<ClusterRow> rows = ClusterBenchmark.ROWS;
    Path mpjHome = Jobs.defaultMpjHome();
    ReportOptions report;

    private ClusterOptions()
    {
    }

    /** @throws bench.harness.UsageException if an argument is not understood. */
    static ClusterOptions parse(final String[] args)
    {
        final ClusterOptions options = new ClusterOptions();
        options.report = new CommandLine(USAGE)
            .flag("--quick", () -> options.quick = true)
            .option("--devices", names -> options.devices = devices(names))
            .option("--only", names -> options.rows = only(names))
            .option("--mpj-home", dir -> options.mpjHome = Path.of(dir).toAbsolutePath())
            .parse(args, ClusterBenchmark.class);
        return options;
    }

    /** What the command line asks to measure. */
    ClusterBenchmark.Plan plan()
    {
        return new ClusterBenchmark.Plan(quick, devices, rows, mpjHome);
    }

    private static List<ClusterRow> only(final String names)
    {
        final Set<String> wanted = new LinkedHashSet<>();
        for (final String name : names.split(","))
        {
            final String option = name.strip();
            if (!ClusterBenchmark.options().contains(option))
            {
                throw new IllegalArgumentException("--only names " + option + ", which is no row of " +
                    ClusterBenchmark.options());
            }
            wanted.add(option);
        }
        return ClusterBenchmark.ROWS.stream()
            .filter(row -> wanted.contains(row.option()) || row.isKernel() && wanted.contains(ClusterBenchmark.APPS))
            .toList();
    }

    private static List<String> devices(final String names)
    {
        final Set<String> devices = new LinkedHashSet<>();
        for (final String name : names.split(","))
        {
            if (!DEVICES.contains(name.strip()))
            {
                throw new IllegalArgumentException("--devices names " + name.strip() + ", which is not one of " +
                    DEVICES);
            }
            devices.add(name.strip());
        }
        // Columns keep their order whatever the order given.
        return DEVICES.stream().filter(devices::contains).toList();
    }
}
