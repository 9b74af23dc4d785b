package mpjrun;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import mpjrun.process.OutputForwarder;
import mpjrun.process.ProcessTree;

/**
 * The Java side of {@code bin/mpjrun}: runs an MPJ Express program on N ranks. {@code -dev shm}
 * goes to the shm device's launcher ({@code mpjrun.ShmJob}); any other device goes to MPJ
 * Express's own starter, unchanged, with a complete MPJ_HOME ({@link MpjHome}) and this JVM's
 * {@code java} first on its PATH. See {@link MpjRunArguments#USAGE} for the command line.
 *
 * <p>Exit status: the job's; {@value #EXIT_USAGE} for a bad command line (with a message and
 * the usage on stderr); 1 if the job could not be started. MPJ Express's starter exits with 0
 * even when a rank fails, so a job it runs is judged by what its ranks report, never by the words of
 * their output ({@link StarterVerdict}): every program, a {@code -jar} one by its manifest's
 * {@code Main-Class}, runs under {@link StarterRankMain}. A multicore job's ranks write how they ended
 * to a {@link RankReport}: a rank that throws, a JVM killed before every rank finished, or a rank's
 * {@code System.exit} that cut others off ends the launcher non-zero with an {@code mpjrun:} line naming
 * the rank. Ranks in JVMs of their own (niodev, hybdev) are watched ({@link JobWatch}): one that dies
 * or throws ends the whole job within seconds, on every node, with its {@code System.exit} status or 1.
 */
public final class MpjRun
{
    /** Exit status for a bad command line. */
    public static final int EXIT_USAGE = 2;
    /** Exit status when the job cannot be started (no shm device, no MPJ Express, ...). */
    public static final int EXIT_NOT_STARTED = 1;
    /** How long the ranks of a starter-run job have to connect to the job watch (JVM starts on a loaded node). */
    static final Duration WATCH_STARTUP_TIMEOUT = Duration.ofSeconds(90);

    private MpjRun()
    {
    }

    public static void main(final String[] args)
    {
        System.exit(run(System.out, System.err, args));
    }

    /** Runs the command line {@code args}; returns the exit status. */
    static int run(final PrintStream out, final PrintStream err, final String... args)
    {
        if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help")))
        {
            out.print(MpjRunArguments.USAGE);
            out.print(MpjRunArguments.rankJvmDefaultsHelp(Runtime.getRuntime().availableProcessors()));
            return 0;
        }
        final MpjRunArguments arguments;
        try
        {
            if (args.length == 0)
            {
                throw new UsageException("no arguments: give at least -np N and the main class, e.g. " +
                    "mpjrun -np 2 -cp my/classes my.Main");
            }
            arguments = MpjRunArguments.parse(args);
            if (arguments.mainClass() != null && !classFileFound(arguments.mainClass(), arguments.classPath()))
            {
                throw new UsageException("class " + arguments.mainClass() + " not found in the class path " +
                    (arguments.classPath().isEmpty() ? "(no -cp given; looked in the working directory)"
                        : String.join(File.pathSeparator, arguments.classPath())) + "; give -cp with its classes");
            }
        }
        catch (final UsageException e)
        {
            err.println("mpjrun: " + e.getMessage());
            err.print(MpjRunArguments.USAGE);
            return EXIT_USAGE;
        }
        if (MpjRunArguments.SHM.equals(arguments.device()) && !arguments.spansNodes())
        {
            return runShm(arguments.toJobSpec());
        }
        try
        {
            if (arguments.nodes() > 0)
            {
                return runOnSimulatedCluster(ClusterDevice.named(arguments.device()), arguments, out, err);
            }
            final Path home = MpjHome.forJob();
            return runStarter(arguments, home, List.of(), command -> command,
                LaunchEnvironment.environment(home, LaunchEnvironment.java(), Map.of()),
                () -> JobWatch.addressFor(machines(arguments.starterOptions())), out, err);
        }
        catch (final IllegalStateException | IOException e)
        {
            err.println("mpjrun: " + e.getMessage());
            return EXIT_NOT_STARTED;
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            err.println("mpjrun: interrupted");
            return EXIT_NOT_STARTED;
        }
    }

    /**
     * Runs {@code spec} on the shm device ({@link ShmJob}); also what MPJ Express's starter does for
     * {@code -dev shm} under the agent.
     *
     * @return the job's exit code (the first failing rank's, or 0).
     */
    public static int runShm(final JobSpec spec)
    {
        return ShmJob.run(spec);
    }

    /** {@code jvmArgs} as one {@code -jvmargs} value; none may contain white space, since that splits them. */
    static String joinJvmArgs(final List<String> jvmArgs)
    {
        for (final String arg : jvmArgs)
        {
            if (arg.isBlank() || arg.chars().anyMatch(Character::isWhitespace))
            {
                throw new IllegalArgumentException("jvmArgs entry '" + arg + "' is empty or contains white space, " +
                    "which -jvmargs cannot carry");
            }
        }
        return String.join(" ", jvmArgs);
    }

    /**
     * {@code -nodes N}: a {@link SimulatedCluster} of N nodes made for the job, the starter run inside its
     * first node on {@code device} with the cluster's machines file, and everything removed afterwards (also on
     * Ctrl-C).
     */
    private static int runOnSimulatedCluster(final ClusterDevice device, final MpjRunArguments arguments,
        final PrintStream out, final PrintStream err) throws IOException, InterruptedException
    {
        try (SimulatedCluster cluster = SimulatedCluster.start(arguments.nodes(), MpjHome.forJob(), Map.of()))
        {
            err.println("mpjrun: simulated cluster " + String.join(", ", cluster.hostNames()) + " (" +
                cluster.address(1) + " and up), " + switch (device)
                {
                    case HYBDEV -> "hybdev: one JVM per node, its ranks threads, niodev between them";
                    case SHM -> "shm: shared memory within each node, niodev between them";
                    case NIODEV -> "niodev between them";
                });
            return runStarter(arguments, cluster.home(), cluster.starterOptions(device),
                command -> cluster.inNode(1, command), cluster.starterEnvironment(), cluster::launcherAddress, out, err);
        }
    }

    /**
     * MPJ Express's starter with the command line as given (only {@code -jvmargs} is ours: its options
     * go before the class, where the starter takes JVM options), native access for the engine, and
     * this project's jars after the program's class path.
     */
    private static int runStarter(final MpjRunArguments arguments, final Path home, final List<String> clusterOptions,
        final UnaryOperator<List<String>> placement, final Map<String, String> environment,
        final WatchAddress watchAddress, final PrintStream out, final PrintStream err)
        throws IOException, InterruptedException
    {
        final Path java = LaunchEnvironment.java();
        final List<String> command = new ArrayList<>(List.of(java.toString(), "-jar",
            home.resolve("lib/starter.jar").toString(), "-np", Integer.toString(arguments.processes())));
        if (clusterOptions.isEmpty())
        {
            command.addAll(List.of("-dev", arguments.starterDevice()));
        }
        command.addAll(clusterOptions);
        command.addAll(arguments.starterOptions());
        command.add(LaunchEnvironment.NATIVE_ACCESS);
        if (arguments.spansNodes())
        {
            command.addAll(ClusterDevice.SHM.rankOptions(err));
        }
        command.addAll(arguments.jvmArgs());
        // The program runs under StarterRankMain, which tells how each rank ended; a -jar program too, by its
        // manifest's Main-Class, its jar first on the class path (the loader follows the jar's own Class-Path).
        final String mainClass = arguments.jar() == null ? arguments.mainClass() : mainClassOf(arguments.jar());
        final List<String> programClassPath = new ArrayList<>();
        if (arguments.jar() != null)
        {
            programClassPath.add(arguments.jar());
        }
        programClassPath.addAll(arguments.classPath());
        // For multicore, the ranks report how they ended in a file, so that a killed JVM or a rank's System.exit
        // is not taken for success.
        final Path report = MpjDevice.MULTICORE.deviceName().equals(arguments.device()) ?
            Files.createTempFile("mpjrun-ranks-", ".txt") : null;
        command.add("-D" + StarterRankMain.MAIN_PROPERTY + "=" + mainClass);
        if (report != null)
        {
            command.add("-D" + StarterRankMain.REPORT_PROPERTY + "=" + report);
        }
        // Ranks in JVMs of their own (niodev, hybdev) are watched, so that one rank's death ends the whole job; a
        // multicore job is one JVM, which ends as a whole.
        final JobWatch watch = report == null ?
            JobWatch.start(watchAddress.get(), arguments.processes(), WATCH_STARTUP_TIMEOUT) : null;
        if (watch != null)
        {
            command.addAll(watch.rankOptions());
        }
        // The program's class path, then this project's (the launcher's own, MPJ Express left out: the
        // starter adds its own), so that programs using the engine or mpi.rma need no more than -cp.
        final Set<String> classPath = new LinkedHashSet<>();
        if (report != null)
        {
            // multicore loads MPJ Express in each rank's own loader, over these entries before its mpi.jar: the
            // corrected classes come first there, so that the agent's corrections of MPJ Express apply (docs/faults.md).
            wovenClasses(home, arguments.jvmArgs(), err).ifPresent(woven -> classPath.add(woven.toString()));
        }
        classPath.addAll(programClassPath);
        classPath.addAll(MpjHome.withoutMpjExpress(
            List.of(System.getProperty("java.class.path").split(File.pathSeparator))));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(StarterRankMain.class.getName());
        command.addAll(arguments.appArgs());
        try
        {
            return runJudged(placement.apply(command), environment, new StarterVerdict(arguments.processes(), report),
                watch, out, err);
        }
        finally
        {
            if (watch != null)
            {
                watch.close();
            }
            if (report != null)
            {
                Files.deleteIfExists(report);
            }
        }
    }

    /**
     * Runs the starter, its output copied live to {@code out} and {@code err} and judged on the way. With a
     * {@code watch}, a rank's death (or ranks that never connect) ends the job: the survivors end themselves
     * after their grace, then the starter and what it started are killed.
     */
    private static int runJudged(final List<String> command, final Map<String, String> environment,
        final StarterVerdict verdict, final JobWatch watch, final PrintStream out, final PrintStream err)
        throws IOException, InterruptedException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(environment);
        final Process starter = builder.start();
        // Ctrl-C on mpjrun must not leave the starter's multicore JVM or its ranks running.
        final Thread stop = new Thread(() -> ProcessTree.kill(starter.toHandle()), "mpjrun-stop-starter");
        Runtime.getRuntime().addShutdownHook(stop);
        final Thread stdout = Thread.ofPlatform().name("mpjrun-stdout")
            .start(new OutputForwarder(starter.getInputStream(), null, out, ""));
        final Thread stderr = Thread.ofPlatform().name("mpjrun-stderr")
            .start(new OutputForwarder(starter.getErrorStream(), null, err, ""));
        final JobWatch.Failure failure = watch == null ? null : awaitStarterOrFailure(starter, watch);
        final int starterExitCode = failure != null ? 0 : starter.waitFor();
        ProcessTree.kill(starter.toHandle());
        // The pipes close once the starter and what it started are gone: the last lines are in then.
        stdout.join();
        stderr.join();
        Runtime.getRuntime().removeShutdownHook(stop);
        final JobWatch.Failure lateFailure = failure != null || watch == null ? failure : watch.failure().getNow(null);
        if (lateFailure != null)
        {
            err.println("mpjrun: " + lateFailure.message());
            return lateFailure.exitCode();
        }
        final List<String> problems = new ArrayList<>();
        final int exitCode = verdict.exitCode(starterExitCode, problems);
        problems.forEach(problem -> err.println("mpjrun: " + problem));
        return exitCode;
    }

    /**
     * Waits for the starter to exit or the watch to fail, whichever comes first. After a failure, waits for the
     * ranks told of it to end themselves (their grace, then a moment for the starter to see it) before the
     * caller kills what is left; after a good exit, for the ranks' last words, which may come a moment later.
     *
     * @return the watch's failure, or null if the starter exited first and no rank died.
     */
    private static JobWatch.Failure awaitStarterOrFailure(final Process starter, final JobWatch watch)
        throws InterruptedException
    {
        CompletableFuture.anyOf(starter.onExit(), watch.failure()).exceptionally(e -> null).join();
        if (watch.failure().isDone())
        {
            watch.awaitQuiet(Duration.ofMillis(JobWatchClient.GRACE_MS + 1000));
            starter.waitFor(1, TimeUnit.SECONDS);
            return watch.failure().join();
        }
        watch.awaitQuiet(Duration.ofSeconds(2));
        return watch.failure().getNow(null);
    }

    /** MPJ Express's classes with the kupl agent's corrections, if the agent jar is there ({@link WovenMpjClasses}). */
    private static Optional<Path> wovenClasses(final Path home, final List<String> jvmArgs, final PrintStream err)
    {
        final Path agent = AgentJar.locate(err);
        return agent == null ? Optional.empty() :
            WovenMpjClasses.prepareCorrections(agent, MpjHome.mpjJar(home), jvmArgs, System.getenv(), err);
    }

    /** The {@code Main-Class} of {@code jar}'s manifest, as MPJ Express's starter reads it for {@code -jar}. */
    static String mainClassOf(final String jar) throws IOException
    {
        try (JarFile file = new JarFile(jar))
        {
            final Manifest manifest = file.getManifest();
            final String mainClass = manifest == null ? null :
                manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (mainClass == null || mainClass.isBlank())
            {
                throw new IOException("-jar " + jar + ": its manifest names no Main-Class; give -cp " + jar +
                    " and the main class instead");
            }
            return mainClass.strip();
        }
        catch (final java.nio.file.NoSuchFileException | java.io.FileNotFoundException e)
        {
            throw new IOException("-jar " + jar + ": no such file", e);
        }
    }

    /**
     * The host names of the starter's {@code -machinesfile} in {@code starterOptions}, one a line (MPJ Express
     * reads the first word); empty without one: the job runs on this host.
     */
    static List<String> machines(final List<String> starterOptions) throws IOException
    {
        final int option = starterOptions.indexOf(StarterOption.MACHINESFILE.text());
        if (option < 0 || option + 1 >= starterOptions.size())
        {
            return List.of();
        }
        return Files.readAllLines(Path.of(starterOptions.get(option + 1))).stream().map(String::strip)
            .filter(line -> !line.isEmpty() && !line.startsWith("#")).map(line -> line.split("\\s+")[0]).toList();
    }

    /** Where the job watch listens: an address every rank reaches. */
    @FunctionalInterface
    private interface WatchAddress
    {
        InetAddress get() throws IOException;
    }

    /**
     * Whether {@code mainClass}'s class file is in {@code classPath}, the working directory (where MPJ
     * Express's starter also looks) or this project's jars; looked up as a resource, so nothing is loaded.
     */
    private static boolean classFileFound(final String mainClass, final List<String> classPath)
    {
        final String resource = mainClass.replace('.', '/') + ".class";
        if (MpjRun.class.getClassLoader().getResource(resource) != null)
        {
            return true;
        }
        final List<URL> urls = new ArrayList<>();
        try
        {
            for (final String entry : classPath)
            {
                urls.add(Path.of(entry).toAbsolutePath().toUri().toURL());
            }
            urls.add(Path.of(System.getProperty("user.dir")).toUri().toURL());
        }
        catch (final MalformedURLException | RuntimeException e)
        {
            return false;
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), null))
        {
            return loader.getResource(resource) != null;
        }
        catch (final IOException e)
        {
            return false;
        }
    }
}
