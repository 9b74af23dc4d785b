package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import kupl.ProcessIdentity;
import mpjrun.process.ProcessTree;

/**
 * A launcher ({@code bin/mpjrun}, MPJ Express's starter) run as a process of its own, for tests that
 * signal it or its ranks while the job runs: its output (stdout and stderr merged) is collected as it
 * comes, the ranks' pids are read from their {@code pid <rank> <pid>} lines, and {@link #close()}
 * kills whatever of the job is left. Every wait has a time limit and fails with the output so far.
 */
public final class LaunchedJob implements AutoCloseable
{
    /** A generous bound for JVMs to start on two shared cores. */
    private static final Duration START_WITHIN = Duration.ofSeconds(40);
    private static final Pattern PID = Pattern.compile("^pid (\\d+) (\\d+)\n", Pattern.MULTILINE);
    private static final long POLL_MS = 10;

    private final Process launcher;
    private final StringBuffer output = new StringBuffer();
    private final Thread reader;

    private LaunchedJob(final Process launcher)
    {
        this.launcher = launcher;
        this.reader = Thread.ofPlatform().daemon().name("launched-job-output").start(this::collect);
    }

    /** Starts {@code command} with {@code environment} added to this JVM's. */
    public static LaunchedJob start(final List<String> command, final Map<String, String> environment)
        throws IOException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return new LaunchedJob(builder.start());
    }

    /** The launcher's process id. */
    public long pid()
    {
        return launcher.pid();
    }

    /** Everything printed so far. */
    public String output()
    {
        return output.toString();
    }

    /** Waits until each of the {@code ranks} ranks has printed its pid; returns them by rank. */
    public List<Long> awaitPids(final int ranks) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + START_WITHIN.toNanos();
        while (true)
        {
            final List<Long> pids = pids();
            if (pids.size() == ranks && !pids.contains(null))
            {
                return pids;
            }
            assertTrue(System.nanoTime() < deadlineNs, () -> "the ranks did not print their pids within " +
                START_WITHIN + ":\n" + output);
            Thread.sleep(POLL_MS);
        }
    }

    /** Waits until the output holds {@code text}. */
    public void awaitOutput(final String text) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + START_WITHIN.toNanos();
        while (!output.toString().contains(text))
        {
            assertTrue(System.nanoTime() < deadlineNs, () -> "no '" + text + "' within " + START_WITHIN + ":\n" +
                output);
            Thread.sleep(POLL_MS);
        }
    }

    /**
     * Waits for the launcher to exit, at most {@code within}, and for the rest of its output.
     *
     * @return its exit status.
     */
    public int awaitExit(final Duration within) throws InterruptedException
    {
        assertTrue(launcher.waitFor(within.toMillis(), TimeUnit.MILLISECONDS), () -> "the launcher did not end within " +
            within + ":\n" + output);
        reader.join(TimeUnit.SECONDS.toMillis(5));
        return launcher.exitValue();
    }

    /** Sends {@code signal} ("STOP", "CONT", "TERM", "KILL") to process {@code pid}, as {@code kill -SIGNAL pid}. */
    public static void signal(final long pid, final String signal) throws IOException, InterruptedException
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
            .start();
        final String said = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS), "kill -" + signal + " " + pid + " hung");
        assertEquals(0, kill.exitValue(), () -> "kill -" + signal + " " + pid + ": " + said);
    }

    /**
     * Waits until every process of {@code pids} has ended (a zombie has: its parent may be stopped and
     * not reap it), at most {@code within}.
     */
    public void awaitEnded(final List<Long> pids, final Duration within) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + within.toNanos();
        for (final long pid : pids)
        {
            while (ProcessIdentity.startTicks(pid) >= 0)
            {
                assertTrue(System.nanoTime() < deadlineNs, () -> "process " + pid + " still runs " + within +
                    " later:\n" + output);
                Thread.sleep(POLL_MS);
            }
        }
    }

    /** Kills the launcher with what it started, and any rank that printed its pid. */
    @Override
    public void close() throws InterruptedException
    {
        final List<ProcessHandle> ranks = pids().stream().filter(pid -> pid != null)
            .flatMap(pid -> ProcessHandle.of(pid).stream()).toList();
        ProcessTree.kill(launcher.toHandle());
        ProcessTree.killAll(ranks);
        reader.join(TimeUnit.SECONDS.toMillis(5));
    }

    /** The pids printed so far, by rank (null where a rank has not printed yet). */
    private List<Long> pids()
    {
        final List<Long> pids = new ArrayList<>();
        final Matcher matcher = PID.matcher(output);
        while (matcher.find())
        {
            final int rank = Integer.parseInt(matcher.group(1));
            while (pids.size() <= rank)
            {
                pids.add(null);
            }
            pids.set(rank, Long.parseLong(matcher.group(2)));
        }
        return pids;
    }

    private void collect()
    {
        try (InputStream in = launcher.getInputStream())
        {
            final byte[] buffer = new byte[4096];
            for (int n; (n = in.read(buffer)) > 0; )
            {
                output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            }
        }
        catch (final IOException e)
        {
            // The launcher is gone.
        }
    }
}
