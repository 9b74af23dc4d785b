package mpjrun.process;

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
import java.util.function.IntFunction;

import kupl.ProcessIdentity;

/**
 * The process kit: N local processes (a job's ranks, or one launcher) started together, their
 * output forwarded and kept, waited for with a time limit, judged ({@link JobJudge}), and killed
 * with everything they started. Every launcher of this project starts processes through it:
 * {@link EngineJob}, the shm device's launcher, the MPJ Express job kit and its daemon.
 *
 * <pre>{@code
 * try (ProcessJob job = ProcessJob.start(4, rank -> new ProcessBuilder("java", "-cp", cp, "Main", "" + rank),
 *     ProcessJob.Options.forwarded(System.out, System.err, rank -> "[" + rank + "] ").stoppingAtFirstFailure(),
 *     (rank, status) -> { }))
 * {
 *     JobExit exit = job.awaitExit(Duration.ofMinutes(1));   // exit.exitCode(): 0, the first failure's, or 124
 * }
 * }</pre>
 *
 * <p>While the job runs, a shutdown hook kills it, so that no process outlives this JVM's
 * ordinary exit (Ctrl-C included); {@link #close()} kills whatever is left.
 *
 * <p><b>Who ended on their own.</b> When the kit stops a job (a failure, {@link #requestStop()},
 * the time limit), it first looks which processes have ended already without its noticing (this
 * JVM was stopped, or their exits are still being read): those ended on their own, whatever
 * order their exits are read in; only the others are killed. {@link JobExit} tells the two apart,
 * so that a launcher can name the process that really failed rather than one it killed.
 *
 * <p>Each process is waited for by a thread of its own ({@link Process#waitFor()}), never through
 * {@code Process.onExit()}, whose futures complete on the common fork-join pool: on two cores that
 * pool has one worker, which a callback that blocks can hold, and then no exit is seen at all.
 */
public final class ProcessJob implements AutoCloseable
{
    /** A time limit that never comes, for {@link #awaitExit} (a launcher whose user ends the job). */
    public static final Duration NO_TIME_LIMIT = Duration.ofDays(36_500);
    /** How long to wait for a process's last output after it has exited. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(5);
    /** How often descendants are noted while the job runs ({@link Options#trackingDescendants()}). */
    private static final long DESCENDANT_POLL_MS = 50;
    /** Put in {@link #exited} instead of a rank by {@link #requestStop()}. */
    private static final int STOP = -1;

    /** Told of each process's end, on the thread that waited for it, before {@link #awaitExit} sees it. */
    @FunctionalInterface
    public interface ExitListener
    {
        /**
         * Process {@code rank} has exited with {@code status} (128 + the signal's number if a signal killed it).
         * Called on that process's waiting thread: it must return quickly, and must not wait for other processes.
         */
        void exited(int rank, int status);
    }

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
    /** The ranks whose end was recorded before the kit killed anything, in the order they were recorded. */
    private final List<Integer> endedOnTheirOwn = new ArrayList<>();

    private ProcessJob(final Options options)
    {
        this.options = options;
    }

    /**
     * Starts {@code size} processes, rank {@code r} from {@code builderOfRank.apply(r)} (its command,
     * environment, directory and standard input; its output redirection is the kit's).
     *
     * @param onExit told of each process's exit, before {@link #awaitExit} sees it.
     * @throws IOException if a process cannot be started (those already started are killed).
     */
    public static ProcessJob start(final int size, final IntFunction<ProcessBuilder> builderOfRank,
        final Options options, final ExitListener onExit) throws IOException
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

    private void startRank(final int rank, final ProcessBuilder builder, final ExitListener onExit) throws IOException
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
        Thread.ofPlatform().daemon().name("kupl-job-exit-" + rank).start(() ->
        {
            try
            {
                onExit.exited(rank, awaitEnd(process));
            }
            finally
            {
                exited.add(rank);
            }
        });
    }

    /** The exit status of {@code process}, once it has ended; interrupts are not the end of a process. */
    private static int awaitEnd(final Process process)
    {
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    return process.waitFor();
                }
                catch (final InterruptedException e)
                {
                    interrupted = true;
                }
            }
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
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
     * kills the others; so does {@link #requestStop()}. Before it kills, it records as ended on
     * their own the processes that have ended already. Returns once the output of every process
     * has been read to its end.
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
        boolean timedOut = false;
        while (countUnrecorded() > 0)
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
            if (rank == null)
            {
                continue;
            }
            if (rank == STOP)
            {
                break;
            }
            if (!recorded[rank])
            {
                record(rank);
                if (exitCodes[rank] != 0 && options.stopAtFirstFailure())
                {
                    break;
                }
            }
        }
        recordThoseEndedAlready();
        // Whatever is left (a job past its limit or stopped, or what a launcher started and left behind) ends now.
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
        int firstFailedRank = -1;
        for (final int rank : endedOnTheirOwn)
        {
            if (exitCodes[rank] != 0)
            {
                firstFailedRank = rank;
                break;
            }
        }
        return new JobExit(exitCodes, firstFailedRank, timedOut, Duration.ofNanos(System.nanoTime() - startNs),
            List.copyOf(endedOnTheirOwn));
    }

    /**
     * Ends the job from any thread, as a failure would with {@link Options#stopAtFirstFailure()}: the
     * thread in {@link #awaitExit} (now or when it is called) kills every process still running.
     */
    public void requestStop()
    {
        exited.add(STOP);
    }

    private void record(final int rank) throws InterruptedException
    {
        recorded[rank] = true;
        // The process has ended (its waiting thread said so, or the kernel does): waitFor returns at once.
        exitCodes[rank] = processes.get(rank).waitFor();
        endedOnTheirOwn.add(rank);
    }

    /**
     * Records the processes that have ended but whose exit the kit has not read yet: after this JVM
     * was stopped (SIGSTOP) every exit is read at once, in no particular order, and a process that
     * died long ago must not be taken for one the kit killed.
     */
    private void recordThoseEndedAlready() throws InterruptedException
    {
        for (int rank = 0; rank < processes.size(); rank++)
        {
            final Process process = processes.get(rank);
            // A zombie (ended, not reaped yet) has no live /proc entry; once reaped, the Process says so itself.
            if (!recorded[rank] && (!process.isAlive() || ProcessIdentity.startTicks(process.pid()) < 0))
            {
                record(rank);
            }
        }
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
     * @param firstFailedRank the first rank of {@code endedOnTheirOwn} with a non-zero status, or -1.
     * @param timedOut        whether the job was killed at its time limit.
     * @param elapsed         from the start to the last exit.
     * @param endedOnTheirOwn the ranks that ended before the kit killed anything, in the order the kit
     *                        recorded them (as it noticed them, then those that had ended unnoticed, by rank);
     *                        every other rank was killed by the kit.
     */
    public record JobExit(int[] exitCodes, int firstFailedRank, boolean timedOut, Duration elapsed,
        List<Integer> endedOnTheirOwn)
    {
        public JobExit
        {
            exitCodes = exitCodes.clone();
            endedOnTheirOwn = List.copyOf(endedOnTheirOwn);
        }

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

        /** Whether the kit killed {@code rank} (it was still running when the job was stopped). */
        public boolean stoppedByKit(final int rank)
        {
            return !endedOnTheirOwn.contains(rank);
        }

        @Override
        public String toString()
        {
            return "JobExit[exitCodes=" + Arrays.toString(exitCodes) + ", firstFailedRank=" + firstFailedRank +
                ", timedOut=" + timedOut + ", elapsed=" + elapsed + ", endedOnTheirOwn=" + endedOnTheirOwn + "]";
        }
    }
}
