package mpjrun;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import mpjrun.process.ProcessJob;

/**
 * Runs an MPJ Express program as a real job, the way a user would, and returns how it ended:
 * for tests, conformance runs, samples and benchmarks.
 *
 * <pre>{@code
 * JobSpec spec = new JobSpec(4, MpjJobs.currentClassPath(), List.of(), "my.Program", List.of("arg"), false);
 * JobResult result = MpjJobs.run(MpjDevice.NIODEV, spec, Duration.ofSeconds(60));
 * result.requireSuccess();                     // AssertionError with the whole output otherwise
 * assertTrue(result.output().contains("rank 3 done"));
 * }</pre>
 *
 * <p><b>Devices.</b>
 * <ul>
 * <li>{@link MpjDevice#MULTICORE}: MPJ Express's starter,
 *     {@code java -jar $MPJ_HOME/lib/starter.jar -np N --enable-native-access=ALL-UNNAMED
 *     jvmArgs... -cp CP Main args...}: one JVM, one thread per rank.</li>
 * <li>{@link MpjDevice#NIODEV}: the starter in cluster mode on this node ({@code -dev niodev
 *     -machinesfile}), with an MPJ Express daemon of the job's own on free ports, stopped with
 *     every rank it started when the job ends (see {@code NiodevDaemon}).</li>
 * <li>{@link MpjDevice#SHM}: {@code bin/mpjrun}'s Java side ({@link MpjRun}) in a JVM of its own,
 *     which starts one JVM per rank over the shared-memory device.</li>
 * </ul>
 * Every JVM is this JVM's {@code java}, whose directory also goes first on the children's
 * {@code PATH} (MPJ Express starts ranks as plain {@code java}). MPJ_HOME is
 * {@link MpjHome#defaultDirectory()} unless given, made when missing.
 *
 * <p><b>Class path.</b> {@link JobSpec#classPath()} is the program's: its classes and whatever
 * else it needs. MPJ Express's own jars are left out of it ({@link #withoutMpjExpress}), since the
 * starter gives each rank its own copy; so {@link #currentClassPath()} (this JVM's, as a test
 * runs with it) is usually right.
 *
 * <p><b>Verdict.</b> {@link JobResult#exitCode()} is 0 only if the launcher exited with 0 in
 * time and no output line shows an exception or is a stack frame: MPJ Express's starter
 * exits with 0 even when a rank throws. At the time limit the launcher and everything it
 * started are killed ({@link JobResult#TIMED_OUT}). No process of the job outlives the call.
 *
 * <p>{@link JobSpec#prefixOutput()} is honoured by the shm device only: MPJ Express's starter
 * prints the ranks' output unprefixed.
 */
public final class MpjJobs
{
    private MpjJobs()
    {
    }

    /** Runs {@code spec} on {@code device} with MPJ_HOME in {@link MpjHome#defaultDirectory()}. */
    public static JobResult run(final MpjDevice device, final JobSpec spec, final Duration timeout)
        throws IOException, InterruptedException
    {
        return run(device, spec, timeout, MpjHome.defaultDirectory());
    }

    /**
     * Runs {@code spec} on {@code device} and waits for it to end, at most {@code timeout}.
     *
     * @param mpjHomeDirectory where MPJ_HOME is (made there if missing, see {@link MpjHome#prepare}).
     * @throws IllegalArgumentException if {@code timeout} is not positive.
     * @throws IOException              if a process cannot be started (or, for niodev, the daemon).
     */
    public static JobResult run(final MpjDevice device, final JobSpec spec, final Duration timeout,
        final Path mpjHomeDirectory) throws IOException, InterruptedException
    {
        return run(device, spec, timeout, mpjHomeDirectory, Map.of());
    }

    /**
     * As {@link #run(MpjDevice, JobSpec, Duration, Path)}, with {@code jobEnvironment} added to the
     * environment of every process of the job (the engine's {@code KUPL_SHM_*} settings, say).
     */
    public static JobResult run(final MpjDevice device, final JobSpec spec, final Duration timeout,
        final Path mpjHomeDirectory, final Map<String, String> jobEnvironment) throws IOException, InterruptedException
    {
        Objects.requireNonNull(jobEnvironment, "jobEnvironment");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(mpjHomeDirectory, "mpjHomeDirectory");
        requirePositive(timeout);
        final Path java = LaunchEnvironment.java();
        final List<String> classPath = MpjHome.withoutMpjExpress(spec.classPath());
        final Path home = MpjHome.prepare(mpjHomeDirectory);
        return switch (device)
        {
            case MULTICORE -> runCommand(starterCommand(java, home, spec, classPath, List.of()),
                LaunchEnvironment.environment(home, java, jobEnvironment), workingDirectory(), timeout);
            case NIODEV -> runNiodev(java, home, spec, classPath, timeout, jobEnvironment);
            case SHM -> runCommand(shmCommand(java, spec, classPath), LaunchEnvironment.environment(home, java, jobEnvironment),
                workingDirectory(), timeout);
        };
    }

    /**
     * Runs {@code spec} with {@code niodev} across a {@link SimulatedCluster} of {@code nodes} nodes, made for
     * this job and removed after it (ranks in blocks: {@code -np 4} on 2 nodes puts 0 and 1 on the first).
     *
     * @throws ClusterUnavailableException if namespaces cannot be made here; its message says why.
     */
    public static JobResult runOnSimulatedCluster(final JobSpec spec, final int nodes, final Duration timeout)
        throws IOException, InterruptedException
    {
        return runOnSimulatedCluster(spec, nodes, timeout, MpjHome.defaultDirectory(), Map.of());
    }

    /** As {@link #runOnSimulatedCluster(JobSpec, int, Duration)}, with MPJ_HOME and an environment for the job. */
    public static JobResult runOnSimulatedCluster(final JobSpec spec, final int nodes, final Duration timeout,
        final Path mpjHomeDirectory, final Map<String, String> jobEnvironment) throws IOException, InterruptedException
    {
        return runOnSimulatedCluster(ClusterDevice.NIODEV, spec, nodes, timeout, mpjHomeDirectory, jobEnvironment);
    }

    /** As {@link #runOnSimulatedCluster(JobSpec, int, Duration)}, on {@code device} (niodev or hybdev). */
    public static JobResult runOnSimulatedCluster(final ClusterDevice device, final JobSpec spec, final int nodes,
        final Duration timeout) throws IOException, InterruptedException
    {
        return runOnSimulatedCluster(device, spec, nodes, timeout, MpjHome.defaultDirectory(), Map.of());
    }

    /** As {@link #runOnSimulatedCluster(ClusterDevice, JobSpec, int, Duration)}, with MPJ_HOME and an environment. */
    public static JobResult runOnSimulatedCluster(final ClusterDevice device, final JobSpec spec, final int nodes,
        final Duration timeout, final Path mpjHomeDirectory, final Map<String, String> jobEnvironment)
        throws IOException, InterruptedException
    {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(spec, "spec");
        requirePositive(timeout);
        try (SimulatedCluster cluster = SimulatedCluster.start(nodes, MpjHome.prepare(mpjHomeDirectory),
            jobEnvironment))
        {
            return cluster.run(spec, timeout, device);
        }
    }

    /**
     * Runs {@code spec} on {@code device} across {@code nodes} nodes: this machine as it is for 1
     * ({@link #run(MpjDevice, JobSpec, Duration, Path, Map)}), else a {@link SimulatedCluster} made for the job
     * ({@link #runOnSimulatedCluster(ClusterDevice, JobSpec, int, Duration, Path, Map)}), where shm runs on each
     * node with niodev between them.
     *
     * @throws IllegalArgumentException    if {@code nodes} is below 1, or above 1 for a device that does not span
     *                                     nodes (multicore).
     * @throws ClusterUnavailableException if {@code nodes} is above 1 and namespaces cannot be made here.
     */
    public static JobResult run(final MpjDevice device, final int nodes, final JobSpec spec, final Duration timeout,
        final Path mpjHomeDirectory, final Map<String, String> jobEnvironment) throws IOException, InterruptedException
    {
        Objects.requireNonNull(device, "device");
        if (nodes < 1)
        {
            throw new IllegalArgumentException("nodes=" + nodes + " must be at least 1");
        }
        if (nodes == 1)
        {
            return run(device, spec, timeout, mpjHomeDirectory, jobEnvironment);
        }
        return runOnSimulatedCluster(clusterDevice(device), spec, nodes, timeout, mpjHomeDirectory, jobEnvironment);
    }

    /**
     * Why jobs cannot run on {@code device} across {@code nodes} nodes here (MPJ Express missing, or for more
     * than one node no simulated cluster), or null if they can.
     */
    public static String unavailableReason(final MpjDevice device, final int nodes)
    {
        if (!isAvailable(device))
        {
            return "MPJ Express is not installed (apt-get install libmpj-java)";
        }
        return nodes > 1 ? SimulatedCluster.unavailableReason() : null;
    }

    private static ClusterDevice clusterDevice(final MpjDevice device)
    {
        return switch (device)
        {
            case NIODEV -> ClusterDevice.NIODEV;
            case SHM -> ClusterDevice.SHM;
            case MULTICORE -> throw new IllegalArgumentException(device.deviceName() + " runs its ranks as threads " +
                "of one JVM, so it cannot span nodes: use niodev or shm for a job on more than one node");
        };
    }

    /**
     * Whether jobs can run on {@code device} here: MPJ Express installed ({@value MpjHome#MPJ_LIB}), which
     * every device needs (the shm device too: its ranks run MPJ Express's {@code mpi} classes).
     */
    public static boolean isAvailable(final MpjDevice device)
    {
        Objects.requireNonNull(device, "device");
        return MpjHome.unavailableReason() == null;
    }

    /**
     * Runs any command as a job: output captured, {@code environment} added to this JVM's, the whole
     * process tree killed at {@code timeout}, and judged as {@link JobResult} says. For testing
     * launchers themselves ({@code bin/mpjrun}, MPJ Express's starter with the agent).
     */
    public static JobResult runCommand(final List<String> command, final Map<String, String> environment,
        final Path workingDirectory, final Duration timeout) throws IOException, InterruptedException
    {
        requirePositive(timeout);
        try (ProcessJob launcher = startCaptured(command, environment, workingDirectory))
        {
            final ProcessJob.JobExit exit = launcher.awaitExit(timeout);
            if (exit.timedOut())
            {
                launcher.note(0, "[mpjrun] the job did not end within " + timeout.toMillis() +
                    " ms: killed it and everything it started");
            }
            return JobResult.judge(exit.timedOut() ? JobResult.TIMED_OUT : exit.exitCodes()[0], exit.timedOut(),
                launcher.output(0), exit.elapsed());
        }
    }

    /**
     * Starts {@code command} with its output (stdout and stderr merged) captured and what it starts
     * tracked, so that the launcher's children die with it (a starter that dies leaves its multicore
     * JVM behind).
     */
    static ProcessJob startCaptured(final List<String> command, final Map<String, String> environment,
        final Path workingDirectory) throws IOException
    {
        return ProcessJob.start(1, rank ->
        {
            final ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile());
            builder.environment().putAll(environment);
            return builder;
        }, ProcessJob.Options.captured().trackingDescendants(), (rank, status) -> { });
    }

    /** This JVM's class path, MPJ Express's jars left out: what a test passes as {@link JobSpec#classPath()}. */
    public static List<String> currentClassPath()
    {
        return withoutMpjExpress(Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)));
    }

    /**
     * {@code classPath} without MPJ Express's jars: the starter adds its own for each rank, and a second
     * copy would give a multicore rank's class loader {@code mpi.*} twice.
     */
    public static List<String> withoutMpjExpress(final List<String> classPath)
    {
        return MpjHome.withoutMpjExpress(classPath);
    }

    /** The {@code java} launcher of this JVM (a JDK 22+ since this project runs on it). */
    public static Path java()
    {
        return LaunchEnvironment.java();
    }

    /**
     * MPJ Express's starter: options before the class name go to the ranks' JVM ({@code -cp} is
     * turned by the starter into the ranks' class path).
     */
    static List<String> starterCommand(final Path java, final Path home, final JobSpec spec,
        final List<String> classPath, final List<String> deviceOptions)
    {
        final List<String> command = new ArrayList<>(List.of(java.toString(), "-jar",
            home.resolve("lib/starter.jar").toString(), StarterOption.NP.text(), Integer.toString(spec.processes())));
        command.addAll(deviceOptions);
        command.add(LaunchEnvironment.NATIVE_ACCESS);
        command.addAll(spec.jvmArgs());
        if (!classPath.isEmpty())
        {
            command.add(StarterOption.CP.text());
            command.add(String.join(File.pathSeparator, classPath));
        }
        command.add(spec.mainClass());
        command.addAll(spec.appArgs());
        return command;
    }

    private static JobResult runNiodev(final Path java, final Path sharedHome, final JobSpec spec,
        final List<String> classPath, final Duration timeout, final Map<String, String> jobEnvironment)
        throws IOException, InterruptedException
    {
        try (NiodevDaemon daemon = NiodevDaemon.start(sharedHome, java, jobEnvironment))
        {
            final List<String> command = starterCommand(java, daemon.home(), spec, classPath,
                List.of(StarterOption.DEV.text(), MpjDevice.NIODEV.deviceName(), StarterOption.MACHINESFILE.text(),
                    daemon.machinesFile().toString()));
            final JobResult result = runCommand(command, LaunchEnvironment.environment(daemon.home(), java,
                jobEnvironment),
                workingDirectory(), timeout);
            if (result.succeeded())
            {
                return result;
            }
            // What the daemon saw (a rank JVM that could not start, say) explains a failed job.
            final String daemonOutput = daemon.output().lines().map(line -> "[mpjrun] daemon: " + line + "\n")
                .reduce("", String::concat);
            return new JobResult(result.exitCode(), result.launcherExitCode(), result.timedOut(),
                result.failureLines(), result.output() + daemonOutput, result.elapsed());
        }
    }

    /** {@code bin/mpjrun -dev shm} in a JVM of its own, so that its output is captured and its tree can be killed. */
    private static List<String> shmCommand(final Path java, final JobSpec spec, final List<String> classPath)
    {
        final Set<String> launcherClassPath = new LinkedHashSet<>();
        launcherClassPath.add(ownLocation());
        launcherClassPath.addAll(Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)));
        final List<String> command = new ArrayList<>(List.of(java.toString(), LaunchEnvironment.NATIVE_ACCESS));
        final String agent = System.getProperty(AgentJar.PROPERTY);
        if (agent != null)
        {
            // The launcher gives its ranks the agent (collectives through shared memory), as bin/mpjrun's does.
            command.add("-D" + AgentJar.PROPERTY + "=" + agent);
        }
        command.addAll(List.of("-cp", String.join(File.pathSeparator, launcherClassPath), MpjRun.class.getName(),
            StarterOption.NP.text(), Integer.toString(spec.processes()), StarterOption.DEV.text(),
            MpjDevice.SHM.deviceName()));
        if (!classPath.isEmpty())
        {
            command.add(StarterOption.CP.text());
            command.add(String.join(File.pathSeparator, classPath));
        }
        if (!spec.jvmArgs().isEmpty())
        {
            command.add("-jvmargs");
            command.add(MpjRun.joinJvmArgs(spec.jvmArgs()));
        }
        if (spec.prefixOutput())
        {
            command.add("-prefix");
        }
        command.add(spec.mainClass());
        command.addAll(spec.appArgs());
        return command;
    }

    /** The jar or class directory this class was loaded from. */
    static String ownLocation()
    {
        try
        {
            return Path.of(MpjJobs.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        }
        catch (final URISyntaxException e)
        {
            throw new IllegalStateException("cannot locate the kupl-launcher classes: " + e.getMessage(), e);
        }
    }

    private static Path workingDirectory()
    {
        return Path.of(System.getProperty("user.dir"));
    }

    private static void requirePositive(final Duration timeout)
    {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero())
        {
            throw new IllegalArgumentException("timeout=" + timeout + " must be positive");
        }
    }
}
