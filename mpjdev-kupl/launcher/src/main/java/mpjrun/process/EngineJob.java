package mpjrun.process;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import kupl.bootstrap.BootstrapTimeouts;
import kupl.bootstrap.OobHub;
import kupl.bootstrap.SocketOob;

/**
 * N JVMs on this node running one main class of the engine's (no MPI), with a hub that serves their
 * out-of-band allgather and barrier ({@link SocketOob}): the job kit of the engine's benchmarks. Each
 * process's output is captured (and may be echoed with a {@code [rank r]} prefix). If a process dies, the hub drops every connection,
 * so the others' out-of-band calls fail instead of waiting for ever. The processes are started,
 * watched and killed by the process kit ({@link ProcessJob}).
 *
 * <pre>{@code
 * try (EngineJob job = EngineJob.start(MyRank.class, 4, Map.of("KUPL_SHM_TYPE", "sls"), List.of("arg")))
 * {
 *     job.awaitExit(Duration.ofSeconds(30));   // exit codes, one per rank
 * }
 * }</pre>
 */
public final class EngineJob implements AutoCloseable
{
    private final OobHub hub;
    private ProcessJob processes;

    private EngineJob(final OobHub hub)
    {
        this.hub = hub;
    }

    /**
     * Starts {@code size} JVMs running {@code mainClass} with this JVM's class path.
     *
     * @param env  variables added to each process's environment.
     * @param args arguments of each process's {@code main}.
     */
    public static EngineJob start(final Class<?> mainClass, final int size, final Map<String, String> env,
        final List<String> args) throws IOException
    {
        return start(mainClass.getName(), size, env, List.of(), args, false);
    }

    /**
     * Starts {@code size} JVMs running {@code mainClass}.
     *
     * @param jvmArgs extra JVM options (before the main class), after {@link RankJvmDefaults}' and replacing
     *                those they also set.
     * @param echo    copy each process's output to this one's, prefixed with its rank.
     */
    public static EngineJob start(final String mainClass, final int size, final Map<String, String> env,
        final List<String> jvmArgs, final List<String> args, final boolean echo) throws IOException
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("size=" + size + " must be at least 1");
        }
        // The hub waits as long as the processes will, which read their timeouts from the environment given here.
        final Map<String, String> processEnv = new HashMap<>(System.getenv());
        processEnv.putAll(env);
        final EngineJob job = new EngineJob(OobHub.start(size, BootstrapTimeouts.fromVariables(processEnv)));
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final ProcessJob.Options options = echo
            ? ProcessJob.Options.captured().echoedTo(System.out, rank -> "[rank " + rank + "] ")
            : ProcessJob.Options.captured();
        try
        {
            job.processes = ProcessJob.start(size, rank ->
            {
                final List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"),
                    // Neither is a secret: only this user can reach the socket (see OobHub).
                    "-D" + SocketOob.SOCKET_PROPERTY + "=" + job.hub.socket(),
                    "-D" + SocketOob.JOB_PROPERTY + "=" + job.hub.jobId(),
                    "-D" + SocketOob.RANK_PROPERTY + "=" + rank,
                    "-D" + SocketOob.SIZE_PROPERTY + "=" + size));
                // The options every launcher of the project gives rank JVMs, then jvmArgs, which win.
                command.addAll(RankJvmDefaults.rankOptions(size, jvmArgs, processEnv));
                command.add(mainClass);
                command.addAll(args);
                final ProcessBuilder builder = new ProcessBuilder(command);
                builder.environment().putAll(env);
                return builder;
            }, options, job.hub::processExited);
        }
        catch (final IOException | RuntimeException e)
        {
            job.close();
            throw e;
        }
        return job;
    }

    public int size()
    {
        return processes.size();
    }

    public long pid(final int rank)
    {
        return processes.pid(rank);
    }

    public Process process(final int rank)
    {
        return processes.process(rank);
    }

    /** Everything process {@code rank} has printed so far (stdout and stderr). */
    public String output(final int rank)
    {
        return processes.output(rank);
    }

    /** All outputs, each line prefixed with its rank, for failure messages. */
    public String outputs()
    {
        final String all = processes.outputs();
        return hub.failure() == null ? all : all + "[hub] " + hub.failure() + "\n";
    }

    /** Kills process {@code rank} with SIGKILL. */
    public void kill(final int rank)
    {
        processes.kill(rank);
    }

    /**
     * Waits for every process to exit.
     *
     * @return the exit codes, by rank.
     * @throws IllegalStateException with every process's output if one has not exited in time
     *         (all are killed then).
     */
    public int[] awaitExit(final Duration timeout) throws InterruptedException
    {
        final ProcessJob.JobExit exit = processes.awaitExit(timeout);
        if (exit.timedOut())
        {
            throw new IllegalStateException("the local job did not end within " + timeout +
                " (every process was killed then); output:\n" + outputs());
        }
        return exit.exitCodes();
    }

    /** Kills any process still running and stops the hub. */
    @Override
    public void close()
    {
        if (processes != null)
        {
            processes.close();
        }
        hub.close();
    }
}
