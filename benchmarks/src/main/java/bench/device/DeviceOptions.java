package bench.device;

import java.nio.file.Path;
import java.util.List;

import bench.harness.CommandLine;
import bench.harness.Jobs;
import bench.harness.ReportOptions;

/**
 * {@link DeviceBenchmark}'s command line: {@code --quick}, {@code --mpj-home DIR}, {@code --only PART,...},
 * {@code --no-multicore}, {@code --no-niodev}, {@code --no-openmpi}.
 */
final class DeviceOptions
{
    static final String USAGE = "usage: DeviceBenchmark [--quick] [--mpj-home DIR] [--only PART,...] " +
        "[--no-multicore] [--no-niodev] [--no-openmpi] " + ReportOptions.USAGE;

    DeviceBenchmark.Settings settings = DeviceBenchmark.FULL;
    Path mpjHome = Jobs.defaultMpjHome();
    List<DeviceRow> rows = DeviceBenchmark.ROWS;
    boolean multicore = true;
    boolean niodev = true;
    boolean openMpi = true;
    ReportOptions report;

    private DeviceOptions()
    {
    }

    /** @throws bench.harness.UsageException if an argument is not understood. */
    static DeviceOptions parse(final String[] args)
    {
        final DeviceOptions options = new DeviceOptions();
        options.report = new CommandLine(USAGE)
            .flag("--quick", () -> options.settings = DeviceBenchmark.QUICK)
            .option("--mpj-home", "a directory", dir -> options.mpjHome = Path.of(dir).toAbsolutePath())
            .option("--only", "parts", only -> options.rows = rows(only))
            .flag("--no-multicore", () -> options.multicore = false)
            .flag("--no-niodev", () -> options.niodev = false)
            .flag("--no-openmpi", () -> options.openMpi = false)
            .parse(args, DeviceBenchmark.class);
        return options;
    }

    private static List<DeviceRow> rows(final String only)
    {
        final List<String> parts = List.of(only.split(","));
        final List<String> known = DeviceBenchmark.ROWS.stream().map(DeviceRow::part).distinct().toList();
        for (final String part : parts)
        {
            if (!known.contains(part))
            {
                throw new IllegalArgumentException("--only names " + part + ", which is no part of " + known);
            }
        }
        return DeviceBenchmark.ROWS.stream().filter(row -> parts.contains(row.part())).toList();
    }
}
