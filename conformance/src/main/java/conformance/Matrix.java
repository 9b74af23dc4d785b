package conformance;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs the suite once per configuration, one job each, through a {@link JobLauncher}. */
public final class Matrix
{
    /** Time a job may take besides its cases' own limits: JVM start, MPI init, agreement. */
    private static final Duration JOB_OVERHEAD = Duration.ofSeconds(60);
    /** Bound on the cases' total when a job hangs everywhere: no case normally comes close. */
    private static final int CASES_ASSUMED_HANGING = 6;

    private final JobLauncher launcher;
    private final List<String> classPath;
    private final long caseTimeoutMs;
    private final List<String> only;
    private final List<String> rankArguments;

    public Matrix(final JobLauncher launcher, final List<String> classPath, final long caseTimeoutMs,
        final List<String> only)
    {
        this(launcher, classPath, caseTimeoutMs, only, List.of());
    }

    /**
     * @param rankArguments more arguments for every rank's {@link ConformanceRank}, e.g.
     *                      {@code --message-fault=NAME}.
     */
    public Matrix(final JobLauncher launcher, final List<String> classPath, final long caseTimeoutMs,
        final List<String> only, final List<String> rankArguments)
    {
        this.launcher = launcher;
        this.classPath = List.copyOf(classPath);
        this.caseTimeoutMs = caseTimeoutMs;
        this.only = List.copyOf(only);
        this.rankArguments = List.copyOf(rankArguments);
    }

    public List<ConfigurationRun> run(final List<Configuration> configurations) throws IOException, InterruptedException
    {
        final List<ConfigurationRun> runs = new ArrayList<>();
        for (final Configuration configuration : configurations)
        {
            runs.add(run(configuration));
        }
        return runs;
    }

    public ConfigurationRun run(final Configuration configuration) throws IOException, InterruptedException
    {
        final String reason = launcher.unavailableReason(configuration.device(), configuration.nodes());
        if (reason != null)
        {
            return ConfigurationRun.unavailable(configuration, reason);
        }
        final List<String> args = new ArrayList<>(List.of("--provider=" + configuration.provider(),
            "--timeout-ms=" + caseTimeoutMs, "--flavour=" + configuration.flavour().call(),
            "--nodes=" + configuration.nodes()));
        if (!only.isEmpty())
        {
            args.add("--only=" + String.join(",", only));
        }
        args.addAll(rankArguments);
        final Duration timeout = JOB_OVERHEAD.plusMillis(caseTimeoutMs * CASES_ASSUMED_HANGING);
        final long start = System.nanoTime();
        final JobLauncher.JobOutput job = launcher.run(configuration.device(), configuration.processes(),
            configuration.nodes(), classPath,
            ConformanceRank.class.getName(), args, configuration.environment(), timeout);
        return ConfigurationRun.parse(configuration, job, (System.nanoTime() - start) / 1_000_000);
    }
}
