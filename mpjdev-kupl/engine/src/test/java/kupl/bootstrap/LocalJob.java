package kupl.bootstrap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The engine tests' job: N JVMs on this node running one main class, with an {@link OobHub} that
 * serves their out-of-band allgather and barrier ({@link SocketOob}), each process's output
 * (stdout and stderr together) kept for the test to read. If a process dies, the hub drops every
 * connection, so the others' out-of-band calls fail instead of waiting for ever.
 *
 * <p>Plain {@link ProcessBuilder}s: the project's process kit belongs to the launcher
 * ({@code mpjrun.process}), which the engine must not depend on, and these tests need none of its
 * judging or process-tree tracking.
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
    /** The ranks' heaps together at most half the memory, each at most the JVM's default quarter. */
    private static final double JOB_HEAP_PERCENT = 50;
    private static final double JVM_DEFAULT_HEAP_PERCENT = 25;
    /** How long the output of a process that has exited may take to be read to its end. */
    private static final long DRAIN_MS = 5_000;

    private final OobHub hub;
    private final List<Process> processes = new ArrayList<>();
    private final List<ByteArrayOutputStream> outputs = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();

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
        if (size < 1)
        {
            throw new IllegalArgumentException("size=" + size + " must be at least 1");
        }
        // The hub waits as long as the processes will, which read their timeouts from the environment given here.
        final Map<String, String> processEnv = new HashMap<>(System.getenv());
        processEnv.putAll(env);
        final LocalJob job = new LocalJob(OobHub.start(size, BootstrapTimeouts.fromVariables(processEnv)));
        try
        {
            for (int rank = 0; rank < size; rank++)
            {
                job.startRank(rank, size, mainClass.getName(), env, args);
            }
        }
        catch (final IOException | RuntimeException e)
        {
            job.close();
            throw e;
        }
        return job;
    }

    private void startRank(final int rank, final int size, final String mainClass, final Map<String, String> env,
        final List<String> args) throws IOException
    {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"),
            // Neither is a secret: only this user can reach the socket (see OobHub).
            "-D" + SocketOob.SOCKET_PROPERTY + "=" + hub.socket(),
            "-D" + SocketOob.JOB_PROPERTY + "=" + hub.jobId(),
            "-D" + SocketOob.RANK_PROPERTY + "=" + rank,
            "-D" + SocketOob.SIZE_PROPERTY + "=" + size,
            // Several JVMs share this node's few cores and its memory: no parallel collector threads, small heaps.
            "-XX:+UseSerialGC",
            "-XX:MaxRAMPercentage=" + Math.min(JVM_DEFAULT_HEAP_PERCENT, JOB_HEAP_PERCENT / size),
            mainClass));
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        final Process process = builder.start();
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        processes.add(process);
        outputs.add(output);
        final Thread reader = Thread.ofPlatform().daemon().name("rank " + rank + " output")
            .start(() -> copy(process.getInputStream(), output));
        readers.add(reader);
        // The hub gives the job up if a rank that joined dies, so that the others' calls fail at once.
        process.onExit().thenAccept(ended -> hub.processExited(rank, ended.exitValue()));
    }

    private static void copy(final InputStream in, final ByteArrayOutputStream output)
    {
        final byte[] chunk = new byte[8192];
        try (in)
        {
            int read;
            while ((read = in.read(chunk)) >= 0)
            {
                synchronized (output)
                {
                    output.write(chunk, 0, read);
                }
            }
        }
        catch (final IOException e)
        {
            // A pipe that fails (the process killed under the reader) ends the output here: what was read is kept.
        }
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
        final ByteArrayOutputStream output = outputs.get(rank);
        synchronized (output)
        {
            return output.toString(StandardCharsets.UTF_8);
        }
    }

    /** All outputs, each line prefixed with {@code [rank r] }, and the hub's failure if any, for failure messages. */
    public String outputs()
    {
        final StringBuilder all = new StringBuilder();
        for (int rank = 0; rank < size(); rank++)
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
     * Waits for every process to exit and for its output to be read to its end.
     *
     * @return the exit codes, by rank.
     * @throws IllegalStateException with every process's output if one has not exited in time
     *         (all are killed then).
     */
    public int[] awaitExit(final Duration timeout) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        final int[] codes = new int[size()];
        for (int rank = 0; rank < size(); rank++)
        {
            final long leftNs = Math.max(0, deadlineNs - System.nanoTime());
            if (!processes.get(rank).waitFor(leftNs, TimeUnit.NANOSECONDS))
            {
                killAll();
                throw new IllegalStateException("the local job did not end within " + timeout +
                    " (every process was killed then); output:\n" + outputs());
            }
            codes[rank] = processes.get(rank).exitValue();
        }
        for (final Thread reader : readers)
        {
            reader.join(DRAIN_MS);
        }
        return codes;
    }

    private void killAll() throws InterruptedException
    {
        for (final Process process : processes)
        {
            process.destroyForcibly();
        }
        for (final Process process : processes)
        {
            process.waitFor();
        }
        for (final Thread reader : readers)
        {
            reader.join(DRAIN_MS);
        }
    }

    /** Kills any process still running and stops the hub. */
    @Override
    public void close()
    {
        try
        {
            killAll();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            hub.close();
        }
    }
}
