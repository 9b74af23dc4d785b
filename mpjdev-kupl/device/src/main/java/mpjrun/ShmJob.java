package mpjrun;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import kupl.bootstrap.OobHub;
import xdev.shmdev.ShmConf;
import xdev.shmdev.ShmDevice;

/**
 * Runs an MPJ Express program on N local JVMs connected by the {@code shm} device
 * ({@code mpjrun -dev shm}).
 *
 * <p>Each rank runs {@link ShmRankMain} with the java of this JVM, with this project's jars,
 * MPJ Express's and the program's class path, and the environment variable {@code MPJ_HOME}
 * ({@code MPI.Init} reads {@code $MPJ_HOME/conf/mpjexpress.conf}; a private copy of
 * {@code /etc/mpj} is made if {@code MPJ_HOME} does not have one). The ranks find each other
 * through an out-of-band hub of this JVM ({@link OobHub}), named by the {@code conf} argument.
 *
 * <p>The ranks' output is copied here line by line. The job ends when every rank has exited;
 * as soon as one exits with a non-zero status (an exception, {@code System.exit}, a signal),
 * the others are killed and that status is the job's. Ranks also end themselves if this JVM
 * is killed. Shared memory is unnamed, so nothing is ever left in {@code /dev/shm}.
 *
 * <p>The ranks get the kupl agent jar as {@code -javaagent} when {@link AgentJar} finds it, so that MPJ
 * Express's collectives run through shared memory.
 */
public final class ShmJob
{
    static final String MPJ_LIB = "/usr/share/mpj/lib";
    static final String MPJ_CONF = "/etc/mpj";
    static final String LOG4J_JAR = "/usr/share/java/log4j-1.2.jar";

    private final JobSpec spec;
    private final PrintStream out;
    private final PrintStream err;
    private final List<Process> ranks = new ArrayList<>();
    private final List<Thread> forwarders = new ArrayList<>();
    /** The kupl agent jar the ranks get, so that their collectives run through shared memory; or null. */
    private Path agent;

    private ShmJob(final JobSpec spec, final PrintStream out, final PrintStream err)
    {
        this.spec = spec;
        this.out = out;
        this.err = err;
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
        return new ShmJob(spec, out, err).run();
    }

    private int run()
    {
        Path privateHome = null;
        final Thread killer = new Thread(this::killAll, "kupl-shm-job-shutdown");
        try (OobHub hub = OobHub.start(spec.processes()))
        {
            Path home = usableMpjHome(System.getenv("MPJ_HOME"));
            if (home == null)
            {
                privateHome = makeMpjHome();
                home = privateHome;
            }
            final ShmConf conf = new ShmConf(hub.port(), spec.processes(), hub.token());
            final String classPath = String.join(File.pathSeparator, rankClassPath(spec.classPath()));
            agent = AgentJar.locate(err);
            Runtime.getRuntime().addShutdownHook(killer);
            final LinkedBlockingQueue<Integer> exited = new LinkedBlockingQueue<>();
            for (int rank = 0; rank < spec.processes(); rank++)
            {
                final Process process = start(rank, conf, classPath, home);
                final int r = rank;
                synchronized (ranks)
                {
                    ranks.add(process);
                }
                process.onExit().thenRun(() ->
                {
                    hub.processExited(r);
                    exited.add(r);
                });
            }
            return awaitRanks(exited);
        }
        catch (final IOException e)
        {
            err.println("mpjrun: cannot start the job: " + e.getMessage());
            killAll();
            return ShmRankMain.FAILED;
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            killAll();
            return ShmRankMain.FAILED;
        }
        finally
        {
            killAll();
            for (final Thread forwarder : forwarders)
            {
                try
                {
                    forwarder.join(TimeUnit.SECONDS.toMillis(5));
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
            }
            try
            {
                Runtime.getRuntime().removeShutdownHook(killer);
            }
            catch (final IllegalStateException | IllegalArgumentException ignored)
            {
                // shutting down already, or the hook was never added
            }
            if (privateHome != null)
            {
                deleteTree(privateHome);
            }
        }
    }

    /** Waits for every rank; kills the others at the first failure and returns its status. */
    private int awaitRanks(final LinkedBlockingQueue<Integer> exited) throws InterruptedException
    {
        int failure = 0;
        for (int left = ranks.size(); left > 0; left--)
        {
            final int rank = exited.take();
            final int status = ranks.get(rank).exitValue();
            if (status != 0 && failure == 0)
            {
                failure = status;
                err.println("mpjrun: rank " + rank + " (pid " + ranks.get(rank).pid() + ") " + describe(status) +
                    (ranks.size() > 1 ? "; stopping the other ranks" : ""));
                err.flush();
                killAll();
            }
        }
        return failure;
    }

    private static String describe(final int status)
    {
        if (status > 128 && status < 128 + 65)
        {
            final int signal = status - 128;
            return "was killed by signal " + signal + (signal == 9 ? " (SIGKILL)" : signal == 15 ? " (SIGTERM)" : "") +
                ", exit status " + status;
        }
        return "exited with status " + status;
    }

    private Process start(final int rank, final ShmConf conf, final String classPath, final Path home)
        throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(javaCommand());
        // The engine maps shared memory through FFM downcalls.
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(spec.jvmArgs());
        if (agent != null && !String.valueOf(System.getenv("JAVA_TOOL_OPTIONS")).contains(agent.toString()))
        {
            // MPJ Express's collectives through shared memory (mpjrun.agent.CollectiveAdvice); a JVM given
            // the agent through JAVA_TOOL_OPTIONS already has it.
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
        builder.environment().put("MPJ_HOME", home.toString());
        // Standard input goes to rank 0, as with MPI launchers.
        builder.redirectInput(rank == 0 ? ProcessBuilder.Redirect.INHERIT :
            ProcessBuilder.Redirect.from(new File("/dev/null")));
        final Process process = builder.start();
        final String prefix = spec.prefixOutput() ? "[" + rank + "] " : null;
        forwarders.add(Thread.ofPlatform().daemon().name("kupl-shm-out-" + rank)
            .start(new OutputForwarder(process.getInputStream(), out, prefix)));
        forwarders.add(Thread.ofPlatform().daemon().name("kupl-shm-err-" + rank)
            .start(new OutputForwarder(process.getErrorStream(), err, prefix)));
        return process;
    }

    private void killAll()
    {
        final List<Process> started;
        synchronized (ranks)
        {
            started = List.copyOf(ranks);
        }
        for (final Process process : started)
        {
            if (process.isAlive())
            {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
    }

    /** The java of this JVM. */
    static String javaCommand()
    {
        return ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * The ranks' class path: this project's classes (this jar, the engine's and the {@code api} module's),
     * MPJ Express's {@code mpj.jar} and log4j 1.2, then the program's own entries.
     */
    static List<String> rankClassPath(final List<String> programClassPath)
    {
        final List<String> entries = new ArrayList<>();
        entries.add(codeSource(ShmJob.class));
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
        final String home = System.getenv("MPJ_HOME");
        entries.add(existing(home == null ? null : Path.of(home, "lib", "mpj.jar"), Path.of(MPJ_LIB, "mpj.jar")));
        entries.add(existing(home == null ? null : Path.of(home, "lib", "log4j-1.2.jar"), Path.of(LOG4J_JAR)));
        entries.addAll(programClassPath);
        return entries;
    }

    private static String existing(final Path preferred, final Path fallback)
    {
        return (preferred != null && Files.isRegularFile(preferred) ? preferred : fallback).toString();
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

    /** {@code home} if it holds {@code conf/mpjexpress.conf}, else null. */
    static Path usableMpjHome(final String home)
    {
        if (home == null || home.isBlank())
        {
            return null;
        }
        final Path path = Path.of(home);
        return Files.isRegularFile(path.resolve("conf/mpjexpress.conf")) ? path : null;
    }

    /** A private MPJ_HOME holding a copy of {@code /etc/mpj} (what {@code MPI.Init} reads). */
    private static Path makeMpjHome() throws IOException
    {
        final Path home = Files.createTempDirectory("kupl-mpj-home");
        final Path conf = Files.createDirectories(home.resolve("conf"));
        final Path installed = Path.of(MPJ_CONF, "mpjexpress.conf");
        if (Files.isRegularFile(installed))
        {
            Files.copy(installed, conf.resolve("mpjexpress.conf"));
        }
        else
        {
            Files.writeString(conf.resolve("mpjexpress.conf"), "mpjexpress.mpi.loglevel=OFF\n");
        }
        return home;
    }

    private static void deleteTree(final Path root)
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(path ->
            {
                try
                {
                    Files.deleteIfExists(path);
                }
                catch (final IOException e)
                {
                    throw new UncheckedIOException(e);
                }
            });
        }
        catch (final IOException | UncheckedIOException e)
        {
            // A temporary directory left behind is harmless; say nothing.
        }
    }
}
