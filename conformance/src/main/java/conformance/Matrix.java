package conformance;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;

/**
 * Runs the suite once per configuration, one job each, through the project's job kit ({@link MpjJobs}):
 * MPJ Express's starter for multicore and niodev, {@code bin/mpjrun}'s launcher for shm, a simulated
 * cluster made for the job when it spans nodes. The configuration's {@code KUPL_SHM_*} settings go into
 * every process's environment.
 */
public final class Matrix
{
    /** Time a job may take besides its cases' own limits: JVM start, MPI init, agreement. */
    private static final Duration JOB_OVERHEAD = Duration.ofSeconds(60);
    /** Bound on the cases' total when a job hangs everywhere: no case normally comes close. */
    private static final int CASES_ASSUMED_HANGING = 6;

    private final List<String> classPath;
    private final long caseTimeoutMs;
    private final List<String> only;
    private final List<String> rankArguments;

    public Matrix(final List<String> classPath, final long caseTimeoutMs, final List<String> only)
    {
        this(classPath, caseTimeoutMs, only, List.of());
    }

    /**
     * @param rankArguments more arguments for every rank's {@link ConformanceRank}, e.g.
     *                      {@code --message-fault=NAME}.
     */
    public Matrix(final List<String> classPath, final long caseTimeoutMs, final List<String> only,
        final List<String> rankArguments)
    {
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
        final String reason = MpjJobs.unavailableReason(configuration.device(), configuration.nodes());
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
        final JobSpec spec = new JobSpec(configuration.processes(), classPath, List.of(), ConformanceRank.class.getName(),
            args, false);
        final JobResult job = MpjJobs.run(configuration.device(), configuration.nodes(), spec, timeout,
            MpjHome.defaultDirectory(), configuration.environment());
        // Not job.exitCode(): the cases' own messages name exceptions, which the kit reads as a failed job.
        return ConfigurationRun.parse(configuration, job.output(), job.timedOut(),
            (System.nanoTime() - start) / 1_000_000);
    }
}
