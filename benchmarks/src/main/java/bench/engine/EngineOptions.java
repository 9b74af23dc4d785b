package bench.engine;

import java.nio.file.Path;
import java.util.List;

import bench.harness.CommandLine;
import bench.harness.Jobs;
import bench.harness.ReportOptions;

/** {@link EngineBenchmark}'s command line: {@code --quick}, {@code --mpj-home DIR}, {@code --only PARTS}. */
final class EngineOptions
{
    static final String USAGE = "usage: EngineBenchmark [--quick] [--mpj-home DIR] [--only fence,alloc,copy] " +
        ReportOptions.USAGE;

    EngineBenchmark.Settings settings = EngineBenchmark.FULL;
    Path mpjHome = Jobs.defaultMpjHome();
    List<String> parts = EngineBenchmark.PARTS;
    ReportOptions report;

    private EngineOptions()
    {
    }

    /** @throws bench.harness.UsageException if an argument is not understood. */
    static EngineOptions parse(final String[] args)
    {
        final EngineOptions options = new EngineOptions();
        final String onlyNeeds = "some of " + String.join(",", EngineBenchmark.PARTS);
        options.report = new CommandLine(USAGE)
            .flag("--quick", () -> options.settings = EngineBenchmark.QUICK)
            .option("--mpj-home", "a directory", dir -> options.mpjHome = Path.of(dir).toAbsolutePath())
            .option("--only", onlyNeeds, only ->
            {
                if (!EngineBenchmark.PARTS.containsAll(List.of(only.split(","))))
                {
                    throw new IllegalArgumentException("--only needs " + onlyNeeds);
                }
                options.parts = List.of(only.split(","));
            })
            .parse(args, EngineBenchmark.class);
        return options;
    }
}
