package kupl.bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * N JVMs on this node running one main class, with a hub that serves their out-of-band
 * allgather and barrier ({@link SocketOob}). Each process's output is captured (and may be
 * echoed with a {@code [rank r]} prefix). If a process dies, the hub drops every connection,
 * so the others' out-of-band calls fail instead of waiting for ever.
 *
 * <pre>{@code
 * try (LocalJob job = LocalJob.start(MyRank.class, 4, Map.of("KUPL_SHM_TYPE", "sls"), List.of("arg")))
 * {
 *     job.awaitExit(Duration.ofSeconds(30));   // exit codes, one per rank
 * }
 * }</pre>
 */
public final class LocalJob implements AutoCloseable
{
    private final List<Process> processes = new ArrayList<>();
    private final List<StringBuffer> outputs = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();
    private final OobHub hub;

    private LocalJob(final OobHub hub)
    {
        this.hub = hub;
    }

    /**
     * Starts {@code size} JVMs running {@code mainClass} with this JVM's class path.
     *
     * @param env  variables added to each process's environment.
     * @param args arguments of each process's {@code main}.
     */
    public static LocalJob start(final Class<?> mainClass, final int size, final Map<String, String> env,
        final List<String> args) throws IOException
    {
        return start(mainClass.getName(), size, env, List.of(), args, false);
    }

    /**
     * Starts {@code size} JVMs running {@code mainClass}.
     *
     * @param jvmArgs extra JVM options (before the main class).
     * @param echo    copy each process's output to this one's, prefixed with its rank.
     */
    public static LocalJob start(final String mainClass, final int size, final Map<String, String> env,
        final List<String> jvmArgs, final List<String> args, final boolean echo) throws IOException
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("size=" + size + " must be at least 1");
        }
        // The hub waits as long as the processes will, which read their timeouts from the environment given here.
        final Map<String, String> processEnv = new HashMap<>(System.getenv());
        processEnv.putAll(env);
        final LocalJob job = new LocalJob(OobHub.start(size, BootstrapTimeouts.fromVariables(processEnv)));
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try
        {
            for (int rank = 0; rank < size; rank++)
            {
                final List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                    "-XX:+UseSerialGC", "-Xshare:auto",
                    "-cp", System.getProperty("java.class.path"),
                    // Neither is a secret: only this user can reach the socket (see OobHub).
                    "-D" + SocketOob.SOCKET_PROPERTY + "=" + job.hub.socket(),
                    "-D" + SocketOob.JOB_PROPERTY + "=" + job.hub.jobId(),
                    "-D" + SocketOob.RANK_PROPERTY + "=" + rank,
                    "-D" + SocketOob.SIZE_PROPERTY + "=" + size));
                command.addAll(jvmArgs);
                command.add(mainClass);
                command.addAll(args);
                final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
                builder.environment().putAll(env);
                final Process process = builder.start();
                final int exitedRank = rank;
                process.onExit().thenRun(() -> job.hub.processExited(exitedRank));
                final StringBuffer output = new StringBuffer();
                job.processes.add(process);
                job.outputs.add(output);
                final int r = rank;
                job.pumps.add(Thread.ofPlatform().daemon().name("kupl-local-output-" + rank)
                    .start(() -> pump(process.getInputStream(), output, echo ? "[rank " + r + "] " : null)));
            }
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
        return processes.get(rank).pid();
    }

    public Process process(final int rank)
    {
        return processes.get(rank);
    }

    /** Everything process {@code rank} has printed so far (stdout and stderr). */
    public String output(final int rank)
    {
        return outputs.get(rank).toString();
    }

    /** All outputs, each line prefixed with its rank, for failure messages. */
    public String outputs()
    {
        final StringBuilder all = new StringBuilder();
        for (int rank = 0; rank < outputs.size(); rank++)
        {
            for (final String line : output(rank).split("\n"))
            {
                all.append("[rank ").append(rank).append("] ").append(line).append('\n');
            }
        }
        if (hub.failure() != null)
        {
            all.append("[hub] ").append(hub.failure()).append('\n');
        }
        return all.toString();
    }

    /** Kills process {@code rank} with SIGKILL. */
    public void kill(final int rank)
    {
        processes.get(rank).destroyForcibly();
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
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        final int[] codes = new int[processes.size()];
        for (int rank = 0; rank < processes.size(); rank++)
        {
            final Process process = processes.get(rank);
            if (!process.waitFor(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS))
            {
                close();
                throw new IllegalStateException("rank " + rank + " of the local job did not exit within " + timeout +
                    "; output:\n" + outputs());
            }
            codes[rank] = process.exitValue();
        }
        // A process's exit does not mean its last lines have been read: wait for each pump to reach end of stream.
        for (final Thread pump : pumps)
        {
            pump.join(Duration.ofSeconds(5));
        }
        return codes;
    }

    /** Kills any process still running and stops the hub. */
    @Override
    public void close()
    {
        for (final Process process : processes)
        {
            process.destroyForcibly();
        }
        for (final Process process : processes)
        {
            try
            {
                process.waitFor(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        hub.close();
    }

    private static void pump(final InputStream stream, final StringBuffer output, final String echoPrefix)
    {
        try (InputStream in = stream)
        {
            final byte[] buffer = new byte[8192];
            final StringBuilder line = new StringBuilder();
            for (int n; (n = in.read(buffer)) > 0; )
            {
                final String text = new String(buffer, 0, n, StandardCharsets.UTF_8);
                output.append(text);
                if (echoPrefix != null)
                {
                    line.append(text);
                    for (int newline; (newline = line.indexOf("\n")) >= 0; line.delete(0, newline + 1))
                    {
                        System.out.println(echoPrefix + line.substring(0, newline));
                    }
                }
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
