package mpjrun;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import kupl.bootstrap.OobHub;
import mpjrun.process.ProcessJob;
import mpjrun.process.RankJvmDefaults;
import xdev.shmdev.ShmConf;
import xdev.shmdev.ShmDevice;

/**
 * Runs an MPJ Express program on N local JVMs connected by the {@code shm} device
 * ({@code mpjrun -dev shm}).
 *
 * <p>Each rank runs {@link ShmRankMain} with the java of this JVM, with this project's jars,
 * MPJ Express's and the program's class path, and the environment variable {@code MPJ_HOME}
 * ({@code MPI.Init} reads {@code $MPJ_HOME/conf/mpjexpress.conf}; see {@link MpjHome#forJob()}).
 * The ranks find each other through an out-of-band hub of this JVM ({@link OobHub}), named by the
 * {@code conf} argument: a Unix-domain socket that only this user can reach; a rank joins it in
 * {@code MPI.Init}. If a rank ends without joining while another has joined, or not every rank has
 * joined within {@code KUPL_SHM_ARRIVAL_MS} of the first, the job ends with status 1 and a message
 * naming those ranks; ranks that end with 0 without joining while none has joined are no failure
 * (a program that never calls {@code MPI.Init} runs as on MPJ Express's own devices). The process kit
 * ({@link ProcessJob}) starts, forwards and kills them. Each rank JVM gets {@link RankJvmDefaults}'
 * options, then the job's own ({@link JobSpec#jvmArgs()}).
 *
 * <p>The ranks' class path starts with the library jars (the agent's, this project's, MPJ Express's), the
 * program's entries after them, so that an ahead-of-time cache of the library ({@link RankAotCache}, made
 * once by {@link RankAotTraining}) serves every program: each rank JVM gets it unless
 * {@code KUPL_RANK_AOT_CACHE=off} or the job's options choose class sharing themselves.
 *
 * <p>When {@link AgentJar} finds the kupl agent jar, MPJ Express's collectives run through shared memory in
 * the ranks: their class path starts with MPJ Express's classes woven once with the agent's advice
 * ({@link WovenMpjClasses}), or, where those cannot be made or are switched off, the ranks get the agent as
 * {@code -javaagent} and weave the classes themselves.
 *
 * <p>The ranks' output is copied here line by line. The job ends when every rank has exited;
 * as soon as one exits with a non-zero status (an exception, {@code System.exit}, a signal),
 * the others are killed, and the status of the rank that failed first is the job's
 * ({@link ShmJobVerdict}: by the order the ranks ended in, not the order their exits are read in).
 * Ranks also end themselves if this JVM is killed. Shared memory is unnamed, so nothing is ever
 * left in {@code /dev/shm}.
 */
public final class ShmJob
{
    /** The variable through which MPJ Express's starter gives every JVM of a job the kupl agent. */
    private static final String JAVA_TOOL_OPTIONS = "JAVA_TOOL_OPTIONS";
    private final JobSpec spec;
    private final PrintStream out;
    private final PrintStream err;
    /** Whether the ranks may get the launcher's AOT cache (not while it is being trained). */
    private final boolean aotCache;
    /** Options of one rank's JVM beyond every rank's (a training job's rank 0 records the cache). */
    private final IntFunction<List<String>> rankExtraOptions;
    private final Duration timeLimit;
    /** The kupl agent jar the ranks get, so that their collectives run through shared memory; or null. */
    private Path agent;
    /** MPJ Express's classes woven with the agent's advice, first on the ranks' class path; or null. */
    private Path woven;
    /** The options that give each rank the launcher's AOT cache, or none. */
    private List<String> aotOptions = List.of();

    private ShmJob(final JobSpec spec, final PrintStream out, final PrintStream err, final boolean aotCache,
        final IntFunction<List<String>> rankExtraOptions, final Duration timeLimit)
    {
        this.spec = spec;
        this.out = out;
        this.err = err;
        this.aotCache = aotCache;
        this.rankExtraOptions = rankExtraOptions;
        this.timeLimit = timeLimit;
    }

    /**
     * Runs the job to its end, copying the ranks' output to this JVM's standard output and error.
     *
     * @return 0 if every rank exited with 0, else the exit status of the first rank that failed
     *         (128 + signal number for a rank killed by a signal).
     */
    public static int run(final JobSpec spec)
    {
        return run(spec, System.out, System.err);
    }

    /** As {@link #run(JobSpec)}, the ranks' output and the launcher's messages going to {@code out}, {@code err}. */
    public static int run(final JobSpec spec, final PrintStream out, final PrintStream err)
    {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        return new ShmJob(spec, out, err, true, rank -> List.of(), ProcessJob.NO_TIME_LIMIT).run();
    }

    /**
     * Runs a job that trains the launcher's AOT cache: its ranks get no cache, rank {@code r} gets
     * {@code rankOptions.apply(r)} after the job's options, and it is killed after {@code timeLimit}.
     */
    static int runTraining(final JobSpec spec, final PrintStream log, final IntFunction<List<String>> rankOptions,
        final Duration timeLimit)
    {
        return new ShmJob(spec, log, log, false, rankOptions, timeLimit).run();
    }

    private int run()
    {
        final ProcessJob.Options options = ProcessJob.Options.forwarded(out, err,
            rank -> spec.prefixOutput() ? "[" + rank + "] " : "").stoppingAtFirstFailure();
        final Path home;
        try
        {
            home = MpjHome.forJob();
        }
        catch (final IOException | IllegalStateException e)
        {
            err.println("mpjrun: cannot start the job: " + e.getMessage());
            return ShmRankMain.FAILED;
        }
        agent = AgentJar.locate(err);
        woven = agent == null ? null :
            WovenMpjClasses.prepare(agent, MpjHome.mpjJar(home), spec.jvmArgs(), System.getenv(), err).orElse(null);
        if (aotCache)
        {
            // Before the hub starts: the ranks' arrival time limit must not count a first job's training.
            aotOptions = RankAotTraining.rankOptions(rankClassPath(List.of(), home, agent, woven), spec.jvmArgs(),
                System.getenv(), err);
        }
        try (OobHub hub = OobHub.start(spec.processes()))
        {
            final ShmConf conf = new ShmConf(hub.socket(), spec.processes(), hub.jobId());
            final String classPath = String.join(File.pathSeparator,
                rankClassPath(spec.classPath(), home, agent, woven));
            final AtomicReference<String> startFailure = new AtomicReference<>();
            try (ProcessJob ranks = ProcessJob.start(spec.processes(), rank -> rankProcess(rank, conf, classPath, home),
                options, hub::processExited))
            {
                // A job that cannot start ends here. The hub says so on its own thread, holding its lock: only the
                // reason is noted there, and the kit's waiting thread does the killing (which waits for the ranks).
                hub.arrival().whenComplete((arrived, notStarted) ->
                {
                    if (notStarted != null)
                    {
                        startFailure.compareAndSet(null, hub.failure());
                        ranks.requestStop();
                    }
                });
                final ProcessJob.JobExit exit = ranks.awaitExit(timeLimit);
                final ShmJobVerdict verdict = ShmJobVerdict.judge(exit, startFailure.get(), hub::joined, ranks::pid);
                if (verdict.message() != null)
                {
                    err.println("mpjrun: " + verdict.message());
                    err.flush();
                }
                return verdict.status();
            }
        }
        catch (final IOException | IllegalStateException e)
        {
            err.println("mpjrun: cannot start the job: " + e.getMessage());
            return ShmRankMain.FAILED;
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return ShmRankMain.FAILED;
        }
    }

    private ProcessBuilder rankProcess(final int rank, final ShmConf conf, final String classPath, final Path home)
    {
        final List<String> command = new ArrayList<>();
        command.add(javaCommand());
        // The engine maps shared memory through FFM downcalls.
        command.add(LaunchEnvironment.NATIVE_ACCESS);
        // The library's AOT cache, before the user's options so that their own -Xlog:aot wins over its quiet.
        command.addAll(aotOptions);
        // The settings for many JVMs per node, the user's -jvmargs after them and replacing those they also set.
        command.addAll(RankJvmDefaults.rankOptions(spec.processes(), spec.jvmArgs(), System.getenv()));
        command.addAll(rankExtraOptions.apply(rank));
        if (agent != null && woven == null &&
            !String.valueOf(System.getenv(JAVA_TOOL_OPTIONS)).contains(agent.toString()))
        {
            // MPJ Express's collectives through shared memory (mpjrun.agent.CollectiveAdvice), woven at the rank's
            // start; a JVM given the agent through JAVA_TOOL_OPTIONS already has it.
            command.add("-javaagent:" + agent);
        }
        command.add("-D" + ShmRankMain.LAUNCHER_PID_PROPERTY + "=" + ProcessHandle.current().pid());
        command.add("-cp");
        command.add(classPath);
        command.add(ShmRankMain.class.getName());
        command.add(spec.mainClass());
        command.add(Integer.toString(rank));
        command.add(conf.toString());
        command.add(ShmDevice.NAME);
        command.addAll(spec.appArgs());
        final ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put(MpjHome.VARIABLE, home.toString());
        final String toolOptions = builder.environment().get(JAVA_TOOL_OPTIONS);
        if (woven != null && toolOptions != null)
        {
            // The woven classes do the agent's work: a rank that also got the agent would weave them again.
            final String withoutAgent = AgentJar.withoutAgent(toolOptions);
            if (withoutAgent.isEmpty())
            {
                builder.environment().remove(JAVA_TOOL_OPTIONS);
            }
            else
            {
                builder.environment().put(JAVA_TOOL_OPTIONS, withoutAgent);
            }
        }
        // Standard input goes to rank 0, as with MPI launchers.
        builder.redirectInput(rank == 0 ? ProcessBuilder.Redirect.INHERIT :
            ProcessBuilder.Redirect.from(new File("/dev/null")));
        return builder;
    }

    /** The java of this JVM. */
    static String javaCommand()
    {
        return ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * The ranks' class path: MPJ Express's woven classes (if not null), the agent jar (if not null), this
     * project's classes (this jar, the device's, the engine's and the {@code api} module's), MPJ Express's
     * {@code mpj.jar} and log4j 1.2 from {@code home}, then the program's own entries. The agent's jar comes
     * first although the JVM adds it for {@code -javaagent}: classes loaded from the end it is added at cannot
     * be in an AOT cache, and Byte Buddy's are a third of the classes of a rank that weaves.
     */
    static List<String> rankClassPath(final List<String> programClassPath, final Path home, final Path agent,
        final Path woven)
    {
        final List<String> entries = new ArrayList<>();
        if (woven != null)
        {
            // Before mpj.jar, so that its classes replace MPJ Express's own of the same names.
            entries.add(woven.toString());
        }
        if (agent != null)
        {
            entries.add(agent.toString());
        }
        final String launcher = codeSource(ShmJob.class);
        if (!entries.contains(launcher))
        {
            entries.add(launcher);
        }
        // The device's jar (the ranks run it), unless it is the same (the agent's jar carries it). ShmConf, the
        // job's settings the launcher hands the ranks, loads without MPJ Express, which this JVM may not have.
        final String device = codeSource(ShmConf.class);
        if (!entries.contains(device))
        {
            entries.add(device);
        }
        // The engine's jar, unless it is the same (the agent's jar carries both).
        final String engine = codeSource(kupl.ShmComm.class);
        if (!entries.contains(engine))
        {
            entries.add(engine);
        }
        try
        {
            final Class<?> api = Class.forName("mpi.rma.Win", false, ShmJob.class.getClassLoader());
            final String location = codeSource(api);
            if (!entries.contains(location))
            {
                entries.add(location);
            }
        }
        catch (final ClassNotFoundException | LinkageError e)
        {
            // The api module is not on this JVM's class path: programs that use it bring it with -cp.
        }
        entries.addAll(MpjHome.rankJars(home));
        entries.addAll(programClassPath);
        return entries;
    }

    private static String codeSource(final Class<?> type)
    {
        final CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null)
        {
            throw new IllegalStateException("cannot tell where " + type.getName() + " was loaded from");
        }
        try
        {
            return Path.of(source.getLocation().toURI()).toString();
        }
        catch (final URISyntaxException e)
        {
            throw new IllegalStateException("bad location of " + type.getName() + ": " + source.getLocation(), e);
        }
    }
}
