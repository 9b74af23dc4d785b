package bench.apps;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import bench.harness.CommandLine;
import bench.harness.Jobs;
import bench.harness.ReportOptions;

/**
 * {@link AppBenchmark}'s command line: {@code --quick}, {@code --np 2,4}, {@code --only KERNELS},
 * {@code --reps N}, {@code --variants NAMES}, {@code --mpj-home DIR}, {@code --no-multicore}, {@code --no-niodev}.
 */
final class AppOptions
{
    static final String USAGE = "usage: AppBenchmark [--quick] [--np 2,4] [--only " +
        String.join(",", Arrays.stream(Kernels.values()).map(Kernels::shortName).toList()) +
        "] [--reps N] [--variants " + String.join(",", AppBenchmark.VARIANTS.stream()
        .map(AppBenchmark.ShmVariant::name).toList()) + "] [--mpj-home DIR] [--no-multicore] [--no-niodev] " +
        ReportOptions.USAGE;

    boolean quick;
    List<Integer> processCounts = List.of(2, 4);
    List<Kernels> kernels = List.of(Kernels.values());
    /** As {@code --reps} gave it, or null for the default of a full or quick run. */
    Integer repetitions;
    List<AppBenchmark.ShmVariant> variants = AppBenchmark.DEFAULT_VARIANTS;
    Path mpjHome = Jobs.defaultMpjHome();
    boolean multicore = true;
    boolean niodev = true;
    ReportOptions report;

    private AppOptions()
    {
    }

    /** @throws bench.harness.UsageException if an argument is not understood. */
    static AppOptions parse(final String[] args)
    {
        final AppOptions options = new AppOptions();
        options.report = new CommandLine(USAGE)
            .flag("--quick", () -> options.quick = true)
            .option("--np", counts -> options.processCounts = CommandLine.positives("--np", counts))
            .option("--only", names -> options.kernels = Kernels.parse(names))
            .option("--reps", count -> options.repetitions = CommandLine.positive("--reps", count))
            .option("--variants", names -> options.variants = Arrays.stream(names.split(","))
                .map(AppOptions::variant).toList())
            .option("--mpj-home", dir -> options.mpjHome = Path.of(dir).toAbsolutePath())
            .flag("--no-multicore", () -> options.multicore = false)
            .flag("--no-niodev", () -> options.niodev = false)
            .parse(args, AppBenchmark.class);
        return options;
    }

    /** Repetitions of each kernel in each job: {@code --reps}, else the default of a full or quick run. */
    int repetitions()
    {
        return repetitions != null ? repetitions : quick ? AppBenchmark.QUICK_REPETITIONS :
            AppBenchmark.FULL_REPETITIONS;
    }

    private static AppBenchmark.ShmVariant variant(final String name)
    {
        return AppBenchmark.VARIANTS.stream().filter(variant -> variant.name().equals(name.strip())).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("--variants: " + name + " is not one of " +
                AppBenchmark.VARIANTS.stream().map(AppBenchmark.ShmVariant::name).toList()));
    }
}
