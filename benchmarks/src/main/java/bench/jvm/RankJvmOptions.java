package bench.jvm;

import java.util.List;

import bench.harness.CommandLine;
import bench.harness.ReportOptions;

/** {@link RankJvmBenchmark}'s command line: {@code --rounds N}, {@code --only NAME,...}, {@code --quick}. */
final class RankJvmOptions
{
    static final String USAGE = "usage: RankJvmBenchmark [--rounds N] [--only NAME,...] [--quick] " +
        ReportOptions.USAGE + "; names: " + names();

    int rounds = 5;
    boolean quick;
    List<RankJvmBenchmark.Candidate> candidates = RankJvmBenchmark.CANDIDATES;
    ReportOptions report;

    private RankJvmOptions()
    {
    }

    /** @throws bench.harness.UsageException if an argument is not understood. */
    static RankJvmOptions parse(final String[] args)
    {
        final RankJvmOptions options = new RankJvmOptions();
        options.report = new CommandLine(USAGE)
            .option("--rounds", count -> options.rounds = CommandLine.positive("--rounds", count))
            .flag("--quick", () -> options.quick = true)
            .option("--only", only ->
            {
                final List<String> wanted = List.of(only.split(","));
                for (final String name : wanted)
                {
                    if (!names().contains(name))
                    {
                        throw new IllegalArgumentException("--only names " + name + ", which is none of " + names());
                    }
                }
                options.candidates = RankJvmBenchmark.CANDIDATES.stream().filter(c -> wanted.contains(c.name()))
                    .toList();
            })
            .parse(args, RankJvmBenchmark.class);
        return options;
    }

    private static List<String> names()
    {
        return RankJvmBenchmark.CANDIDATES.stream().map(RankJvmBenchmark.Candidate::name).toList();
    }
}
