package mpjrun;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import kupl.KuplEnv;
import kupl.bootstrap.ExitStatus;

/**
 * MPJ Express's classes with the kupl agent's rank advice already applied (collectives through shared
 * memory, and the frees that release it; the corrections of MPJ Express's wrong answers, on any device): a jar
 * the launcher makes once per agent jar and {@code mpj.jar}, with the agent's own weaver (the agent jar's
 * {@code Main-Class}, {@link AgentJarContract}), and puts before {@code mpj.jar} on every shm rank's class path, so
 * that its ranks start without {@code -javaagent}. A second jar holds the corrections alone
 * ({@link #prepareCorrections}): the launcher puts it first on a multicore job's {@code -cp}, which each
 * rank's class loader reads before MPJ Express's {@code mpi.jar} (see {@code MpjRun}).
 *
 * <p><b>Why.</b> An agent weaves in every rank JVM at every start: loading Byte Buddy, building its type
 * pool and rewriting the classes took about 0.7 s of each rank's start on 2 cores (a 2-rank Hello job: the
 * program's {@code main} began 0.9-1.0 s after its JVM with the agent, 0.2 s with the woven classes; the
 * whole job 2.2-2.4 s against 1.3), and every rank's JIT then compiled Byte Buddy's code while the program
 * ran. The woven classes are the agent's output, byte for byte; they depend on nothing but the two jars.
 *
 * <p><b>Under MPJ Express's starter.</b> There the agent reaches every JVM through {@code JAVA_TOOL_OPTIONS};
 * the launcher takes it out of the ranks' copy of that variable when they get the woven classes, so that
 * {@code mpjrun.sh -dev shm} ranks start as fast as {@code bin/mpjrun}'s.
 *
 * <p><b>When not.</b> With {@link KuplEnv#KUPL_RANK_WOVEN_CLASSES}{@code =off}; when the job's own options give
 * the ranks the agent ({@code -javaagent}, the user's choice); when the agent jar or {@code mpj.jar} is not a
 * jar file; or when the cache directory is not the user's alone. In each case the ranks get the agent, as
 * before, and nothing fails. A weaving that fails says so once and leaves a marker, so that later jobs use the
 * agent without trying again until the marker is deleted.
 *
 * <p><b>Where.</b> In the launcher's cache directory ({@link LauncherCache}), named by a hash of the two jars'
 * paths, sizes and modification times; the {@value #KEPT} newest are kept.
 */
final class WovenMpjClasses
{
    /** Woven jars kept in the directory: those of the last few builds. */
    static final int KEPT = 3;
    /** A weaving still running after this long is stopped (it takes about a second). */
    static final Duration TIME_LIMIT = Duration.ofMinutes(2);
    private static final String PREFIX = "woven-mpj-";
    private static final String CORRECTIONS_PREFIX = "corrected-mpj-";
    private static final String SUFFIX = ".jar";
    private static final String FAILED_SUFFIX = ".failed";
    /** Bumped when what a woven jar holds changes in a way the jars' attributes would not show. */
    private static final String FORMAT = "1";
    /** Lines of a failed weaving's output shown to the user. */
    private static final int SHOWN_LINES = 10;

    private WovenMpjClasses()
    {
    }

    /**
     * The woven jar for this agent jar and {@code mpj.jar}, made now if it does not exist yet; empty where the
     * ranks should get the agent instead (see the class comment). Tells {@code err} when a weaving failed.
     *
     * @param agent       the kupl agent jar.
     * @param mpjJar      the {@code mpj.jar} the ranks run.
     * @param userOptions the job's JVM options ({@code -jvmargs}).
     * @param environment the launcher's environment.
     * @throws kupl.KuplException if {@link KuplEnv#KUPL_RANK_WOVEN_CLASSES} is neither {@code on} nor {@code off}.
     */
    static Optional<Path> prepare(final Path agent, final Path mpjJar, final List<String> userOptions,
        final Map<String, String> environment, final PrintStream err)
    {
        return prepare(false, agent, mpjJar, userOptions, environment, err);
    }

    /**
     * As {@link #prepare}, a jar of the agent's corrections of MPJ Express alone ({@code corrected-mpj-KEY.jar}):
     * for multicore ranks, which have no use for the shm device's advice. Where it is empty, the ranks run MPJ
     * Express uncorrected.
     */
    static Optional<Path> prepareCorrections(final Path agent, final Path mpjJar, final List<String> userOptions,
        final Map<String, String> environment, final PrintStream err)
    {
        return prepare(true, agent, mpjJar, userOptions, environment, err);
    }

    private static Optional<Path> prepare(final boolean correctionsOnly, final Path agent, final Path mpjJar,
        final List<String> userOptions, final Map<String, String> environment, final PrintStream err)
    {
        if (!KuplEnv.KUPL_RANK_WOVEN_CLASSES.isOnIn(environment) || AgentJar.givenIn(userOptions))
        {
            return Optional.empty();
        }
        final String prefix = correctionsOnly ? CORRECTIONS_PREFIX : PREFIX;
        try
        {
            final Optional<String> key = LauncherCache.key(List.of(agent.toString(), mpjJar.toString()), FORMAT);
            if (key.isEmpty())
            {
                return Optional.empty();
            }
            final Path directory = LauncherCache.directory(environment, System.getProperty("user.home"));
            final Path woven = directory.resolve(prefix + key.get() + SUFFIX);
            if (Files.isRegularFile(woven))
            {
                return Optional.of(woven);
            }
            final Path failed = directory.resolve(prefix + key.get() + FAILED_SUFFIX);
            if (Files.exists(failed) || !LauncherCache.prepare(directory).isEmpty())
            {
                return Optional.empty();
            }
            return weave(correctionsOnly, agent, mpjJar, woven, failed, err) ? Optional.of(woven) : Optional.empty();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        catch (final IOException | RuntimeException e)
        {
            // The woven classes save start-up time; whatever went wrong, the agent does the same work.
            err.println("mpjrun: " + (correctionsOnly ? "the ranks run MPJ Express's classes uncorrected" :
                "the ranks weave MPJ Express's classes themselves with the kupl agent") + " (" + e + ")");
            return Optional.empty();
        }
    }

    private static boolean weave(final boolean correctionsOnly, final Path agent, final Path mpjJar, final Path woven,
        final Path failed, final PrintStream err) throws IOException, InterruptedException
    {
        final String prefix = correctionsOnly ? CORRECTIONS_PREFIX : PREFIX;
        final Path made = Files.createTempFile(woven.getParent(), prefix, ".tmp");
        try
        {
            // The agent jar's main class is its weaver, in a JVM of its own: Byte Buddy is in the agent jar, not on
            // this class path (AgentJarContract).
            final List<String> command = new ArrayList<>(List.of(ShmJob.javaCommand(), "-jar", agent.toString(),
                mpjJar.toString(), made.toString()));
            if (correctionsOnly)
            {
                command.add(AgentJarContract.CORRECTIONS_ONLY);
            }
            final JobResult result = MpjJobs.runCommand(command, Map.of(), woven.getParent(), TIME_LIMIT);
            if (result.exitCode() == 0 && Files.size(made) > 0)
            {
                LauncherCache.publish(made, woven, prefix, SUFFIX, KEPT);
                return true;
            }
            Files.writeString(failed, "weaving MPJ Express's classes failed; delete this file to try again\n",
                StandardCharsets.UTF_8);
            final List<String> lines = result.output().lines().toList();
            err.println("mpjrun: could not weave MPJ Express's classes ahead of time (" +
                ExitStatus.describe(result.exitCode()) + "), so " + (correctionsOnly ? "the ranks run MPJ Express's " +
                "classes uncorrected" : "the ranks get the kupl agent, which weaves them at every start") +
                "; no job tries again until " + failed + " is deleted. The weaver's output ends:");
            lines.subList(Math.max(0, lines.size() - SHOWN_LINES), lines.size())
                .forEach(line -> err.println("mpjrun:   " + line));
            return false;
        }
        finally
        {
            Files.deleteIfExists(made);
        }
    }
}
