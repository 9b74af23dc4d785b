package mpjrun;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A process whose stdout and stderr (merged) are read into memory as it runs, so that it never
 * blocks on a full pipe, and which is killed with everything it started if it outlives its time.
 */
final class CapturedProcess implements AutoCloseable
{
    /** How long to wait for the last output after the process has exited. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(5);
    /** How often the launcher's descendants are noted while it runs. */
    private static final long POLL_INTERVAL_MS = 50;

    private final Process process;
    /** Raw bytes, decoded as a whole so that no UTF-8 sequence is cut at a read boundary. */
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final Thread pump;
    private final long startNs = System.nanoTime();
    /** Every process the launcher was seen to have started, so that none outlives the job as an orphan. */
    private final Set<ProcessHandle> descendantsSeen = ConcurrentHashMap.newKeySet();

    private CapturedProcess(final Process process, final String name)
    {
        this.process = process;
        this.pump = Thread.ofPlatform().daemon().name("kupl-launch-output-" + name).start(this::pump);
    }

    /**
     * Starts {@code command} in {@code workingDirectory} with {@code environment} added to this JVM's.
     *
     * @param name names the output thread (for thread dumps).
     */
    static CapturedProcess start(final List<String> command, final Map<String, String> environment,
        final Path workingDirectory, final String name) throws IOException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .directory(workingDirectory.toFile());
        builder.environment().putAll(environment);
        return new CapturedProcess(builder.start(), name);
    }

    ProcessHandle handle()
    {
        return process.toHandle();
    }

    boolean isAlive()
    {
        return process.isAlive();
    }

    /** Everything printed so far. */
    String output()
    {
        synchronized (output)
        {
            return output.toString(StandardCharsets.UTF_8);
        }
    }

    private void append(final String note)
    {
        final byte[] bytes = note.getBytes(StandardCharsets.UTF_8);
        synchronized (output)
        {
            output.write(bytes, 0, bytes.length);
        }
    }

    /**
     * Waits for the process to end, at most {@code timeout}; past it, kills the process and
     * everything it started and appends a line saying so to the output.
     */
    JobResult await(final Duration timeout) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        boolean ended = false;
        while (!ended && System.nanoTime() - deadlineNs < 0)
        {
            // Noted while the launcher lives: once it has exited, what it started can no longer be found from it.
            process.toHandle().descendants().forEach(descendantsSeen::add);
            final long leftMs = Math.max(1, (deadlineNs - System.nanoTime()) / 1_000_000);
            ended = process.waitFor(Math.min(POLL_INTERVAL_MS, leftMs), TimeUnit.MILLISECONDS);
        }
        if (!ended)
        {
            final int killed = kill();
            pump.join(DRAIN_TIMEOUT);
            append("[mpjrun] the job did not end within " + timeout.toMillis() +
                " ms: killed it and everything it started (" + killed + " processes)\n");
        }
        else
        {
            // The launcher's exit does not mean its children are gone (a starter that dies leaves its
            // multicore JVM behind): end whatever is left, without counting it as a failure.
            kill();
            pump.join(DRAIN_TIMEOUT);
        }
        final Duration elapsed = Duration.ofNanos(System.nanoTime() - startNs);
        return JobResult.judge(ended ? process.exitValue() : JobResult.TIMED_OUT, !ended, output(), elapsed);
    }

    private int kill()
    {
        return ProcessTree.kill(process.toHandle()) + ProcessTree.killAll(descendantsSeen);
    }

    /** Kills the process and everything it started, if still running. */
    @Override
    public void close()
    {
        kill();
        try
        {
            pump.join(DRAIN_TIMEOUT);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void pump()
    {
        final byte[] chunk = new byte[8192];
        try (InputStream in = process.getInputStream())
        {
            for (int read = in.read(chunk); read >= 0; read = in.read(chunk))
            {
                synchronized (output)
                {
                    output.write(chunk, 0, read);
                }
            }
        }
        catch (final IOException e)
        {
            append("[mpjrun] reading the job's output failed: " + e + "\n");
        }
    }
}
