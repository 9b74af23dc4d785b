package faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;

/**
 * One fault trial: runs {@link FaultRank} as a real job through the job kit ({@link MpjJobs}), waits
 * until a randomly chosen rank is inside the phase, waits a random few milliseconds more, optionally
 * stops the launcher (SIGSTOP: it can then neither notice the death nor kill the others), kills the
 * rank with SIGKILL when ranks are processes (or has its thread throw, multicore), and watches how
 * the job ends. See {@link TrialResult} for what is measured.
 *
 * <p>The job's JVMs carry a marker option ({@code -Dkupl.faults.trial=...}) by which its processes are
 * found however they were started (MPJ Express's daemon starts niodev ranks, not the launcher), and run
 * with a private {@code java.io.tmpdir} (through {@code JAVA_TOOL_OPTIONS}) and a private
 * {@code KUPL_SHM_DIR} in {@code /dev/shm}, so that files left there are theirs. A trial runs alone: the
 * launcher is this JVM's child that appeared during the trial.
 */
final class FaultTrial
{
    /** How long the job may take to start and reach the phase (JVM starts on a loaded 2-core machine). */
    static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    /** A stopped launcher, once continued, must end within this. */
    private static final long CONTINUED_LAUNCHER_TIMEOUT_MS = 10_000;
    /** After the launcher has exited, how long the job's other processes may take to end before they are orphans. */
    private static final long ORPHAN_GRACE_MS = 2_000;
    /** The random wait after the victim is first inside the phase is below this. */
    private static final int MAX_DELAY_MS = 50;
    /** How long the victim may take to be inside an operation of the phase again (or, multicore, to obey). */
    private static final long KILL_TIMEOUT_MS = 10_000;
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final String MARKER_PROPERTY = "kupl.faults.trial";
    private static final Path DEV_SHM = Path.of("/dev/shm");
    private static final Pattern RANK_SAID_DEAD = Pattern.compile(
        "(?i)\\brank[\\s=#:]+(\\d+)\\b[^;.]{0,80}?\\b(died|dead|death|killed|gone|not alive)\\b");

    private final MpjDevice device;
    private final Phase phase;
    private final boolean launcherStopped;
    private final int processes;
    private final long seed;
    private final long hangLimitMs;

    FaultTrial(final MpjDevice device, final Phase phase, final boolean launcherStopped, final int processes,
        final long seed, final long hangLimitMs)
    {
        this.device = device;
        this.phase = phase;
        this.launcherStopped = launcherStopped;
        this.processes = processes;
        this.seed = seed;
        this.hangLimitMs = hangLimitMs;
    }

    /** Runs the trial; every process of the job is gone when it returns. */
    TrialResult run() throws IOException, InterruptedException
    {
        final Random random = new Random(seed);
        final int victim = random.nextInt(processes);
        final int delayMs = random.nextInt(MAX_DELAY_MS);
        final Path directory = Files.createTempDirectory("kupl-faults-");
        Path shmDirectoryToDelete = null;
        try (RankBoard board = RankBoard.open(directory.resolve("board"), processes))
        {
            final Path jobTemp = Files.createDirectory(directory.resolve("tmp"));
            final String marker = "-D" + MARKER_PROPERTY + "=" + directory.getFileName();
            // The engine's KUPL_SHM_DIR: a directory of the job's own on /dev/shm's tmpfs, so that what is left
            // there is this job's (tests of parallel builds make directories in /dev/shm too).
            final Path shmDirectory = Files.createTempDirectory(DEV_SHM, "kupl-faults-");
            shmDirectoryToDelete = shmDirectory;
            final Set<ProcessHandle> childrenBefore = new HashSet<>(ProcessHandle.current().children().toList());
            final JobSpec spec = new JobSpec(processes, MpjJobs.currentClassPath(), List.of(marker),
                FaultRank.class.getName(), List.of(directory.resolve("board").toString(), phase.cliName(),
                Integer.toString(victim)), false);
            final Duration jobTimeout = STARTUP_TIMEOUT.plusMillis(hangLimitMs + CONTINUED_LAUNCHER_TIMEOUT_MS)
                .plusSeconds(30);
            final FutureTask<JobResult> job = new FutureTask<>(() -> MpjJobs.run(device, spec, jobTimeout,
                MpjHome.defaultDirectory(), Map.of("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + jobTemp,
                "KUPL_SHM_DIR", shmDirectory.toString())));
            Thread.ofPlatform().daemon().name("kupl-faults-job").start(job);
            final Watch watch = new Watch(board, victim, childrenBefore, marker, job);
            try
            {
                watch.injectAndWait(delayMs);
            }
            finally
            {
                watch.release();
            }
            final JobResult result = awaitJob(job);
            // The kit ends the launcher's tree and the niodev daemon's ranks; anything else of the job goes too.
            Processes.withMarker(marker).forEach(ProcessHandle::destroyForcibly);
            final List<String> files = new ArrayList<>(entries(shmDirectory));
            files.addAll(entries(jobTemp));
            return new TrialResult(device, phase, launcherStopped, seed, victim, watch.hung,
                watch.hung ? -1 : TimeUnit.NANOSECONDS.toMillis(watch.endNs - watch.killNs),
                ranksSaidDead(result.output(), false), ranksSaidDead(result.output(), true), watch.orphans, files,
                result.output() + watch.hangStacks);
        }
        finally
        {
            deleteTree(directory);
            if (shmDirectoryToDelete != null)
            {
                deleteTree(shmDirectoryToDelete);
            }
        }
    }

    /** The state of one trial while the job runs. */
    private final class Watch
    {
        private final RankBoard board;
        private final int victim;
        private final Set<ProcessHandle> childrenBefore;
        private final String marker;
        private final FutureTask<JobResult> job;
        private List<ProcessHandle> launchers = List.of();
        private boolean stopped;
        private long killNs;
        private long endNs;
        private long launcherExitNs;
        private long allGoneNs;
        private boolean hung;
        private int orphans;
        private final StringBuilder hangStacks = new StringBuilder();

        Watch(final RankBoard board, final int victim, final Set<ProcessHandle> childrenBefore, final String marker,
            final FutureTask<JobResult> job)
        {
            this.board = board;
            this.victim = victim;
            this.childrenBefore = childrenBefore;
            this.marker = marker;
            this.job = job;
        }

        void injectAndWait(final int delayMs) throws IOException, InterruptedException
        {
            awaitPhase();
            launchers = ProcessHandle.current().children().filter(child -> !childrenBefore.contains(child)).toList();
            final ProcessHandle launcher = mainLauncher(launchers);
            final List<ProcessHandle> ranks = rankProcesses();
            Thread.sleep(delayMs);
            if (launcherStopped)
            {
                Processes.stop(launchers);
                stopped = true;
            }
            kill();
            final long deadlineNs = killNs + TimeUnit.MILLISECONDS.toNanos(hangLimitMs);
            if (launcherStopped)
            {
                // Only the survivors can end the job now: every rank process must be gone by itself.
                if (!awaitGone(ranks, deadlineNs))
                {
                    hung = true;
                    return;
                }
                endNs = System.nanoTime();
                Processes.resume(launchers);
                stopped = false;
                hung = !awaitLauncherAndOrphans(launcher, ranks,
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONTINUED_LAUNCHER_TIMEOUT_MS));
            }
            else
            {
                hung = !awaitLauncherAndOrphans(launcher, ranks, deadlineNs);
                // The job has ended once its last process has; with orphans, when its launcher exited.
                endNs = orphans == 0 ? allGoneNs : launcherExitNs;
            }
        }

        /**
         * Waits for the launcher to exit, then for the rank processes to be gone (the end of the job) and for no
         * process with the marker to be left (an orphan); false if the launcher did not exit by the deadline.
         */
        private boolean awaitLauncherAndOrphans(final ProcessHandle launcher, final List<ProcessHandle> ranks,
            final long deadlineNs)
        {
            while (Processes.isRunning(launcher))
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    return false;
                }
                LockSupport.parkNanos(POLL_NS);
            }
            launcherExitNs = System.nanoTime();
            final long graceEndNs = launcherExitNs + TimeUnit.MILLISECONDS.toNanos(ORPHAN_GRACE_MS);
            // The known rank processes first (cheap to poll), then every process with the marker (a scan of /proc).
            awaitGone(ranks, graceEndNs);
            allGoneNs = System.nanoTime();
            List<ProcessHandle> left = Processes.withMarker(marker);
            while (!left.isEmpty() && System.nanoTime() - graceEndNs < 0)
            {
                LockSupport.parkNanos(POLL_NS * 10);
                left = Processes.withMarker(marker);
            }
            orphans = left.size();
            return true;
        }

        private void awaitPhase() throws InterruptedException
        {
            final long deadlineNs = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
            while (board.state(victim) != RankBoard.INSIDE || !everyRankStarted())
            {
                if (job.isDone() || System.nanoTime() - deadlineNs > 0)
                {
                    throw new IllegalStateException("the job ended or took over " + STARTUP_TIMEOUT.toSeconds() +
                        " s before rank " + victim + " entered the " + phase.cliName() + " phase:\n" + outputIfDone());
                }
                LockSupport.parkNanos(POLL_NS);
                if (Thread.interrupted())
                {
                    throw new InterruptedException();
                }
            }
        }

        private boolean everyRankStarted()
        {
            for (int rank = 0; rank < board.ranks(); rank++)
            {
                if (board.state(rank) == RankBoard.NOT_STARTED)
                {
                    return false;
                }
            }
            return true;
        }

        /** The processes the ranks run in (one for multicore), less the victim's where it has its own. */
        private List<ProcessHandle> rankProcesses()
        {
            final Set<Long> pids = new HashSet<>();
            for (int rank = 0; rank < board.ranks(); rank++)
            {
                if (rank != victim || device == MpjDevice.MULTICORE)
                {
                    pids.add(board.pid(rank));
                }
            }
            final List<ProcessHandle> ranks = new ArrayList<>();
            for (final long pid : pids)
            {
                ProcessHandle.of(pid).ifPresent(ranks::add);
            }
            return ranks;
        }

        private void kill() throws InterruptedException
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_TIMEOUT_MS);
            if (device == MpjDevice.MULTICORE)
            {
                // A thread cannot be killed from outside: it throws at its next check (see FaultRank).
                board.orderToDie(victim);
                while (board.diedAtNs(victim) == 0)
                {
                    requireBefore(deadlineNs, "rank " + victim + "'s thread did not die when told to");
                    Thread.onSpinWait();
                }
                killNs = board.diedAtNs(victim);
                return;
            }
            final ProcessHandle process = ProcessHandle.of(board.pid(victim)).orElseThrow(() ->
                new IllegalStateException("rank " + victim + " (pid " + board.pid(victim) + ") ended before its kill"));
            // Spin, not park: allocation and free are milliseconds long, and the kill must land inside one.
            while (board.state(victim) != RankBoard.INSIDE)
            {
                requireBefore(deadlineNs, "rank " + victim + " did not come back into the " + phase.cliName() +
                    " phase");
                Thread.onSpinWait();
            }
            process.destroyForcibly();
            killNs = System.nanoTime();
        }

        private void requireBefore(final long deadlineNs, final String what)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException(what + " within " + KILL_TIMEOUT_MS + " ms");
            }
        }

        /** Continues a launcher still stopped, and kills what is left of a job that hung. */
        void release() throws IOException, InterruptedException
        {
            if (stopped)
            {
                Processes.resume(launchers);
                stopped = false;
            }
            if (hung)
            {
                // Where the survivors wait is what a report of the hang needs.
                for (final ProcessHandle survivor : Processes.running(rankProcesses()))
                {
                    hangStacks.append("[faults] rank JVM ").append(survivor.pid()).append(" at the hang limit:\n")
                        .append(Processes.programThreadStacks(survivor, FaultRank.class));
                }
            }
            if (hung || killNs == 0)
            {
                // A job that did not reach the kill: its launcher may not have been seen yet.
                final List<ProcessHandle> started = launchers.isEmpty() ? ProcessHandle.current().children()
                    .filter(child -> !childrenBefore.contains(child)).toList() : launchers;
                started.forEach(Processes::killTree);
                Processes.withMarker(marker).forEach(ProcessHandle::destroyForcibly);
            }
        }

        private String outputIfDone()
        {
            if (!job.isDone())
            {
                return "(the job is still running)";
            }
            try
            {
                return job.get().output();
            }
            catch (final ExecutionException | InterruptedException e)
            {
                return e.toString();
            }
        }
    }

    /** The launcher among the job's new children of this JVM: not the niodev daemon, which outlives jobs by design. */
    private static ProcessHandle mainLauncher(final List<ProcessHandle> launchers)
    {
        return launchers.stream().filter(process -> !process.info().commandLine().orElse("").contains("MPJDaemon"))
            .findFirst().orElseThrow(() -> new IllegalStateException("no launcher process among this JVM's children"));
    }

    private static boolean awaitGone(final List<ProcessHandle> processes, final long deadlineNs)
    {
        while (!Processes.running(processes).isEmpty())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                return false;
            }
            LockSupport.parkNanos(POLL_NS);
        }
        return true;
    }

    private static JobResult awaitJob(final FutureTask<JobResult> job) throws IOException, InterruptedException
    {
        try
        {
            return job.get();
        }
        catch (final ExecutionException e)
        {
            if (e.getCause() instanceof IOException io)
            {
                throw io;
            }
            throw new IllegalStateException("the job kit failed: " + e.getCause(), e.getCause());
        }
    }

    /**
     * The ranks that lines of {@code output} say died: "rank 2 died", "rank 2 (pid 77) has died", "rank=2 was
     * killed", by the number and a word of death in the same clause, not by an exact message ("rank 1 exited
     * with status 1" says how a rank ended, not that it died). Lines of the launcher
     * ({@code mpjrun: ...}) if {@code launcherLines}, else lines of the ranks; the job kit's own {@code [mpjrun]}
     * lines count as neither.
     */
    static Set<Integer> ranksSaidDead(final String output, final boolean launcherLines)
    {
        final Set<Integer> ranks = new TreeSet<>();
        output.lines().filter(line -> !line.startsWith("[mpjrun]"))
            .filter(line -> line.startsWith("mpjrun:") == launcherLines)
            .forEach(line ->
            {
                final Matcher matcher = RANK_SAID_DEAD.matcher(line);
                while (matcher.find())
                {
                    ranks.add(Integer.parseInt(matcher.group(1)));
                }
            });
        return ranks;
    }

    /** Files and directories under {@code directory}, itself left out. */
    private static List<String> entries(final Path directory) throws IOException
    {
        try (Stream<Path> paths = Files.walk(directory))
        {
            return paths.filter(path -> !path.equals(directory)).map(Path::toString).sorted().toList();
        }
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
            // The trial's own directory left in /tmp is harmless, and is not what a trial measures.
        }
    }
}
