package kupl.bootstrap;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * The process kit: N local processes (a job's ranks, or one launcher) started together, their
 * output forwarded and kept, waited for with a time limit, judged ({@link JobJudge}), and killed
 * with everything they started. Every launcher of this project starts processes through it:
 * {@link LocalJob}, the shm device's launcher, the MPJ Express job kit and its daemon.
 *
 * <pre>{@code
 * try (ProcessJob job = ProcessJob.start(4, rank -> new ProcessBuilder("java", "-cp", cp, "Main", "" + rank),
 *     ProcessJob.Options.forwarded(System.out, System.err, rank -> "[" + rank + "] ").stoppingAtFirstFailure(),
 *     rank -> { }))
 * {
 *     JobExit exit = job.awaitExit(Duration.ofMinutes(1));   // exit.exitCode(): 0, the first failure's, or 124
 * }
 * }</pre>
 *
 * <p>While the job runs, a shutdown hook kills it, so that no process outlives this JVM's
 * ordinary exit (Ctrl-C included); {@link #close()} kills whatever is left.
 */
public final class ProcessJob implements AutoCloseable
{
    /** A time limit that never comes, for {@link #awaitExit} (a launcher whose user ends the job). */
    public static final Duration NO_TIME_LIMIT = Duration.ofDays(36_500);
    /** How long to wait for a process's last output after it has exited. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(5);
    /** How often descendants are noted while the job runs ({@link Options#trackingDescendants()}). */
    private static final long DESCENDANT_POLL_MS = 50;

    /**
     * How a job's output is handled and when it stops.
     *
     * @param capture            keep each process's output ({@link #output(int)}).
     * @param out                where each line of standard output is copied, or null.
     * @param err                where each line of standard error is copied; null merges it into standard output.
     * @param prefix             the prefix of each copied line, by rank ({@code ""} for none).
     * @param stopAtFirstFailure kill the others as soon as one process exits with a non-zero status.
     * @param trackDescendants   note what each process starts while it runs, so that those are killed too
     *                           even after their parent has exited (for launchers that start JVMs of their own).
     */
    public record Options(boolean capture, PrintStream out, PrintStream err, IntFunction<String> prefix,
        boolean stopAtFirstFailure, boolean trackDescendants)
    {
        public Options
        {
            Objects.requireNonNull(prefix, "prefix");
            if (err != null && out == null)
            {
                throw new IllegalArgumentException("err is given without out: give both, or out alone to merge them");
            }
        }

        /** Output kept, copied nowhere; every process runs to its end. */
        public static Options captured()
        {
            return new Options(true, null, null, rank -> "", false, false);
        }

        /** Standard output and error copied line by line to {@code out} and {@code err}, each line prefixed. */
        public static Options forwarded(final PrintStream out, final PrintStream err, final IntFunction<String> prefix)
        {
            return new Options(false, Objects.requireNonNull(out, "out"), Objects.requireNonNull(err, "err"), prefix,
                false, false);
        }

        /** These options, each line (stdout and stderr merged) also copied to {@code echo} with {@code prefix}. */
        public Options echoedTo(final PrintStream echo, final IntFunction<String> linePrefix)
        {
            return new Options(capture, Objects.requireNonNull(echo, "echo"), null, linePrefix, stopAtFirstFailure,
                trackDescendants);
        }

        /** These options, the others killed as soon as one process fails. */
        public Options stoppingAtFirstFailure()
        {
            return new Options(capture, out, err, prefix, true, trackDescendants);
        }

        /** These options, with what each process starts noted and killed at the end. */
        public Options trackingDescendants()
        {
            return new Options(capture, out, err, prefix, stopAtFirstFailure, true);
        }
    }

    private final Options options;
    private final List<Process> processes = new ArrayList<>();
    private final List<CapturedOutput> outputs = new ArrayList<>();
    private final List<Thread> forwarders = new ArrayList<>();
    private final LinkedBlockingQueue<Integer> exited = new LinkedBlockingQueue<>();
    private final Set<ProcessHandle> descendantsSeen = ConcurrentHashMap.newKeySet();
    private final Thread shutdownHook = new Thread(this::killAll, "kupl-process-job-stop");
    private final long startNs = System.nanoTime();
    private int[] exitCodes;
    private boolean[] recorded;

    private ProcessJob(final Options options)
    {
        this.options = options;
    }

    /**
     * Starts {@code size} processes, rank {@code r} from {@code builderOfRank.apply(r)} (its command,
     * environment, directory and standard input; its output redirection is the kit's).
     *
     * @param onExit called with a process's rank when it exits, before {@link #awaitExit} sees it.
     * @throws IOException if a process cannot be started (those already started are killed).
     */
    public static ProcessJob start(final int size, final IntFunction<ProcessBuilder> builderOfRank,
        final Options options, final IntConsumer onExit) throws IOException
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("size=" + size + " must be at least 1");
        }
        Objects.requireNonNull(builderOfRank, "builderOfRank");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(onExit, "onExit");
        final ProcessJob job = new ProcessJob(options);
        job.exitCodes = new int[size];
        job.recorded = new boolean[size];
        Runtime.getRuntime().addShutdownHook(job.shutdownHook);
        try
        {
            for (int rank = 0; rank < size; rank++)
            {
                job.startRank(rank, Objects.requireNonNull(builderOfRank.apply(rank), "builderOfRank result"), onExit);
            }
        }
        catch (final IOException | RuntimeException e)
        {
            job.close();
            throw e;
        }
        return job;
    }

    private void startRank(final int rank, final ProcessBuilder builder, final IntConsumer onExit) throws IOException
    {
        final boolean merged = options.err() == null;
        builder.redirectErrorStream(merged);
        final Process process = builder.start();
        final CapturedOutput output = new CapturedOutput();
        synchronized (processes)
        {
            processes.add(process);
        }
        outputs.add(output);
        final CapturedOutput kept = options.capture() ? output : null;
        final String prefix = options.prefix().apply(rank);
        forwarders.add(Thread.ofPlatform().daemon().name("kupl-job-out-" + rank)
            .start(new OutputForwarder(process.getInputStream(), kept, options.out(), prefix)));
        if (!merged)
        {
            forwarders.add(Thread.ofPlatform().daemon().name("kupl-job-err-" + rank)
                .start(new OutputForwarder(process.getErrorStream(), kept, options.err(), prefix)));
        }
        process.onExit().thenRun(() ->
        {
            onExit.accept(rank);
            exited.add(rank);
        });
    }

    public int size()
    {
        return outputs.size();
    }

    public Process process(final int rank)
    {
        return processes.get(rank);
    }

    public long pid(final int rank)
    {
        return process(rank).pid();
    }

    /** Everything process {@code rank} has printed so far, if {@link Options#capture()}; else "". */
    public String output(final int rank)
    {
        return outputs.get(rank).text();
    }

    /** All captured outputs, each line prefixed with {@code [rank r] }, for failure messages. */
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
        return all.toString();
    }

    /** Appends a note of the launcher's own to the captured output of {@code rank}. */
    public void note(final int rank, final String line)
    {
        outputs.get(rank).append(line + "\n");
    }

    /**
     * Waits until every process has exited, at most {@code timeout}; past it, kills the job with
     * everything it started. With {@link Options#stopAtFirstFailure()}, the first non-zero exit
     * kills the others. Returns once the output of every process has been read to its end.
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive.
     */
    public JobExit awaitExit(final Duration timeout) throws InterruptedException
    {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero())
        {
            throw new IllegalArgumentException("timeout=" + timeout + " must be positive");
        }
        final long deadlineNs = System.nanoTime() + saturatedNanos(timeout);
        int firstFailedRank = -1;
        boolean timedOut = false;
        for (int left = countUnrecorded(); left > 0; )
        {
            noteDescendants();
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0)
            {
                timedOut = true;
                break;
            }
            final long pollNs = options.trackDescendants() ? Math.min(leftNs, TimeUnit.MILLISECONDS.toNanos(
                DESCENDANT_POLL_MS)) : leftNs;
            final Integer rank = exited.poll(pollNs, TimeUnit.NANOSECONDS);
            if (rank == null || recorded[rank])
            {
                continue;
            }
            recorded[rank] = true;
            exitCodes[rank] = processes.get(rank).exitValue();
            left--;
            if (exitCodes[rank] != 0 && firstFailedRank < 0)
            {
                firstFailedRank = rank;
                if (options.stopAtFirstFailure())
                {
                    killAll();
                }
            }
        }
        // Whatever is left (a job past its limit, or what a launcher started and left behind) ends now.
        killAll();
        for (int rank = 0; rank < processes.size(); rank++)
        {
            if (!recorded[rank])
            {
                recorded[rank] = true;
                exitCodes[rank] = processes.get(rank).waitFor();
            }
        }
        for (final Thread forwarder : forwarders)
        {
            forwarder.join(DRAIN_TIMEOUT);
        }
        return new JobExit(exitCodes.clone(), firstFailedRank, timedOut, Duration.ofNanos(System.nanoTime() - startNs));
    }

    /** {@code timeout} in nanoseconds, at most a century (so that {@link #NO_TIME_LIMIT} cannot overflow). */
    private static long saturatedNanos(final Duration timeout)
    {
        return timeout.compareTo(NO_TIME_LIMIT) >= 0 ? NO_TIME_LIMIT.toNanos() : timeout.toNanos();
    }

    private int countUnrecorded()
    {
        int left = 0;
        for (final boolean done : recorded)
        {
            left += done ? 0 : 1;
        }
        return left;
    }

    private void noteDescendants()
    {
        if (options.trackDescendants())
        {
            // Noted while the parent lives: once it has exited, what it started can no longer be found from it.
            for (final Process process : startedProcesses())
            {
                process.toHandle().descendants().forEach(descendantsSeen::add);
            }
        }
    }

    /** Kills process {@code rank} (with SIGKILL) and everything it started. */
    public void kill(final int rank)
    {
        ProcessTree.kill(process(rank).toHandle());
    }

    /**
     * Kills every process of the job, with everything each started.
     *
     * @return how many processes were killed.
     */
    public int killAll()
    {
        final int killed = ProcessTree.killTrees(startedProcesses().stream().map(Process::toHandle).toList());
        return killed + ProcessTree.killAll(descendantsSeen);
    }

    private List<Process> startedProcesses()
    {
        synchronized (processes)
        {
            return List.copyOf(processes);
        }
    }

    /** Kills whatever is still running and waits for the output to be read. */
    @Override
    public void close()
    {
        killAll();
        try
        {
            for (final Thread forwarder : forwarders)
            {
                forwarder.join(DRAIN_TIMEOUT);
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        try
        {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (final IllegalStateException shuttingDown)
        {
            // The hook runs anyway, harmlessly.
        }
    }

    /**
     * How a job ended.
     *
     * @param exitCodes       each process's exit status, by rank (137 for one killed at the time limit or by
     *                        {@link Options#stopAtFirstFailure()}).
     * @param firstFailedRank the rank that first exited with a non-zero status, or -1.
     * @param timedOut        whether the job was killed at its time limit.
     * @param elapsed         from the start to the last exit.
     */
    public record JobExit(int[] exitCodes, int firstFailedRank, boolean timedOut, Duration elapsed)
    {
        /** {@link JobJudge#TIMED_OUT} if timed out, else the first failing rank's status, else 0. */
        public int exitCode()
        {
            if (timedOut)
            {
                return JobJudge.TIMED_OUT;
            }
            return firstFailedRank < 0 ? 0 : exitCodes[firstFailedRank];
        }

        @Override
        public int[] exitCodes()
        {
            return exitCodes.clone();
        }

        @Override
        public String toString()
        {
            return "JobExit[exitCodes=" + Arrays.toString(exitCodes) + ", firstFailedRank=" + firstFailedRank +
                ", timedOut=" + timedOut + ", elapsed=" + elapsed + "]";
        }
    }
}
