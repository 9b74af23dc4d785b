package bench.scale;

import java.util.List;

import bench.harness.CommandLine;
import bench.harness.ReportOptions;

/** {@link ShmScaleBenchmark}'s command line: {@code --ranks 2,4,...}, {@code --repetitions N}. */
final class ScaleOptions
{
    static final String USAGE = "usage: bench scale [--ranks 2,4,8,16,32,64] [--repetitions N] " + ReportOptions.USAGE;

    List<Integer> ranks = List.of(2, 4, 8, 16, 32, 64);
    int repetitions = 1;
    ReportOptions report;

    private ScaleOptions()
    {
    }

    /** @throws bench.harness.UsageException if an argument is not understood. */
    static ScaleOptions parse(final String[] args)
    {
        final ScaleOptions options = new ScaleOptions();
        options.report = new CommandLine(USAGE)
            .option("--ranks", counts -> options.ranks = CommandLine.positives("--ranks", counts))
            .option("--repetitions", count -> options.repetitions = CommandLine.positive("--repetitions", count))
            .parse(args, ShmScaleBenchmark.class);
        return options;
    }
}
