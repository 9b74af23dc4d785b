package kupl;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;

import kupl.bootstrap.LocalJob;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What the failure and resource tests share: local jobs of {@link FaultRank}-style children
 * with a fully specified {@code KUPL_*} environment, waiting for what a rank prints, exit
 * times, a private tmpfs and a watch on a directory.
 */
final class FailureJobs
{
    /** Upper bound for any one job; a hang becomes a failure with every rank's output. */
    static final Duration JOB_TIMEOUT = Duration.ofSeconds(40);
    /** How long survivors may take to notice a dead rank and exit (docs/design.md#dead-processes-are-detected: "within a few seconds"). */
    static final Duration DEATH_NOTICE = Duration.ofSeconds(5);
    /** Exit code of a child whose engine call failed with a {@link KuplException}. */
    static final int KUPL_ERROR_EXIT = 3;

    private FailureJobs()
    {
    }

    /**
     * The environment of a job: every engine variable set, so that the caller's environment
     * cannot change the scenario. {@code overrides} holds name, value pairs.
     */
    static Map<String, String> env(final Path shmDir, final String... overrides)
    {
        final Map<String, String> env = new TreeMap<>();
        env.put("KUPL_SHM_DIR", shmDir.toString());
        env.put("KUPL_SHM_TYPE", "posix");
        env.put("KUPL_SHM_FENCE_ALGORITHM", "2");
        env.put("KUPL_SHM_ENABLE_HUGEPAGE", "n");
        env.put("KUPL_SHM_ON_PACKAGE", "n");
        env.put("KUPL_SHM_LIVENESS_MS", "");
        env.put("KUPL_SHM_WAIT_SPINS", "");
        env.put("KUPL_SHM_WAIT_YIELD_US", "");
        for (int i = 0; i < overrides.length; i += 2)
        {
            env.put(overrides[i], overrides[i + 1]);
        }
        return env;
    }

    static LocalJob start(final Class<?> main, final int size, final Map<String, String> env, final String... args)
        throws IOException
    {
        return LocalJob.start(main, size, env, List.of(args));
    }

    /** Waits until {@code rank} has printed {@code text}; fails with every output if it does not in time. */
    static void awaitOutput(final LocalJob job, final int rank, final String text, final Duration timeout)
        throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        long exitedAtNs = 0;
        while (!job.output(rank).contains(text))
        {
            final long nowNs = System.nanoTime();
            if (!job.process(rank).isAlive() && exitedAtNs == 0)
            {
                exitedAtNs = nowNs;
            }
            // Output reaches us through a pump thread: give it a moment after the exit.
            final boolean exitedLongAgo = exitedAtNs != 0 && nowNs - exitedAtNs > TimeUnit.MILLISECONDS.toNanos(500);
            if (exitedLongAgo || nowNs - deadlineNs > 0)
            {
                Assertions.fail("rank " + rank + " did not print \"" + text + "\" " +
                    (exitedLongAgo ? "before it exited" : "within " + timeout) + "; output:\n" + job.outputs());
            }
            Thread.sleep(2);
        }
    }

    /**
     * The output of {@code rank} once it contains {@code text}, or as it is a second from now:
     * a process's last lines reach us through a pump thread a moment after it has exited.
     */
    static String outputWith(final LocalJob job, final int rank, final String text) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        String output = job.output(rank);
        while (!output.contains(text) && System.nanoTime() - deadlineNs < 0)
        {
            Thread.sleep(5);
            output = job.output(rank);
        }
        return output;
    }

    /** Waits until every rank in {@code ranks} has printed {@code text}. */
    static void awaitOutput(final LocalJob job, final List<Integer> ranks, final String text) throws InterruptedException
    {
        for (final int rank : ranks)
        {
            awaitOutput(job, rank, text, JOB_TIMEOUT);
        }
    }

    static List<Integer> allRanks(final LocalJob job)
    {
        final List<Integer> ranks = new ArrayList<>();
        for (int rank = 0; rank < job.size(); rank++)
        {
            ranks.add(rank);
        }
        return ranks;
    }

    static List<Integer> ranksBut(final LocalJob job, final int excluded)
    {
        final List<Integer> ranks = allRanks(job);
        ranks.remove(Integer.valueOf(excluded));
        return ranks;
    }

    /** Writes one line to the standard input of {@code rank} (a held {@link FaultRank} goes on at "go"). */
    static void sendLine(final LocalJob job, final int rank, final String line) throws IOException
    {
        final OutputStream in = job.process(rank).getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        in.flush();
    }

    static void releaseAll(final LocalJob job) throws IOException
    {
        for (int rank = 0; rank < job.size(); rank++)
        {
            sendLine(job, rank, "go");
        }
    }

    /** Records when each process of a job exits, from the moment this is created. */
    static final class ExitTimes
    {
        private final AtomicLongArray exitNs;
        private final List<CompletableFuture<Void>> recorded = new ArrayList<>();

        ExitTimes(final LocalJob job)
        {
            exitNs = new AtomicLongArray(job.size());
            for (int rank = 0; rank < job.size(); rank++)
            {
                final int r = rank;
                recorded.add(job.process(rank).onExit().thenRun(() -> exitNs.set(r, System.nanoTime())));
            }
        }

        /** Milliseconds from {@code sinceNs} to the exit of {@code rank}, which must have exited. */
        long millisSince(final int rank, final long sinceNs)
        {
            try
            {
                // The exit is noticed on another thread, a moment after waitFor returns.
                recorded.get(rank).get(5, TimeUnit.SECONDS);
            }
            catch (final InterruptedException | ExecutionException | TimeoutException e)
            {
                Assertions.fail("rank " + rank + " has not exited", e);
            }
            return TimeUnit.NANOSECONDS.toMillis(exitNs.get(rank) - sinceNs);
        }
    }

    /** A new directory under /dev/shm to be one test class's {@code KUPL_SHM_DIR}. */
    static Path createShmDir(final String prefix) throws IOException
    {
        return Files.createTempDirectory(Path.of("/dev/shm"), prefix);
    }

    /** Deletes a directory of {@link #createShmDir} (if made), failing if anything was left in it. */
    static void removeShmDir(final Path dir) throws IOException
    {
        if (dir != null)
        {
            final List<String> left = listing(dir);
            Files.delete(dir);
            org.junit.jupiter.api.Assertions.assertEquals(List.of(), left, "files left in KUPL_SHM_DIR=" + dir);
        }
    }

    /** Entries of {@code dir}, sorted. */
    static List<String> listing(final Path dir) throws IOException
    {
        try (Stream<Path> entries = Files.list(dir))
        {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** Bytes in use on the file system of {@code dir} (what {@code df} shows as used). */
    static long usedBytes(final Path dir) throws IOException
    {
        final FileStore store = Files.getFileStore(dir);
        return store.getTotalSpace() - store.getUnallocatedSpace();
    }

    /** Lines of {@code /proc/<pid>/maps} that map a file whose path contains {@code text}. */
    static List<String> mappingsOf(final long pid, final String text) throws IOException
    {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps")).stream()
            .filter(line -> line.contains(text)).toList();
    }

    /**
     * Watches a directory for any entry appearing, however briefly: inotify's create events
     * (through {@link WatchService}) catch a file created and unlinked at once, and a listing
     * every few milliseconds backs them up.
     */
    static final class DirectoryWatch implements AutoCloseable
    {
        private final Path dir;
        private final WatchService watcher;
        private final Set<String> seen = new ConcurrentSkipListSet<>();
        private final Thread thread;
        private volatile boolean running = true;

        DirectoryWatch(final Path dir) throws IOException
        {
            this.dir = dir;
            this.watcher = FileSystems.getDefault().newWatchService();
            dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE);
            this.thread = Thread.ofPlatform().daemon().name("kupl-test-dir-watch").start(this::run);
        }

        private void run()
        {
            try
            {
                while (running)
                {
                    final WatchKey key = watcher.poll(3, TimeUnit.MILLISECONDS);
                    if (key != null)
                    {
                        for (final WatchEvent<?> event : key.pollEvents())
                        {
                            seen.add(event.kind() == StandardWatchEventKinds.OVERFLOW ? "(inotify overflow)" :
                                "created " + event.context());
                        }
                        key.reset();
                    }
                    listing(dir).forEach(name -> seen.add("listed " + name));
                }
            }
            catch (final IOException | InterruptedException | java.nio.file.ClosedWatchServiceException e)
            {
                if (running)
                {
                    seen.add("(watch failed: " + e + ")");
                }
            }
        }

        /** Everything seen so far: "created NAME", "listed NAME" or a note of a failure. */
        Set<String> seen()
        {
            return Set.copyOf(seen);
        }

        @Override
        public void close() throws IOException
        {
            running = false;
            try
            {
                thread.join(1000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
            watcher.close();
        }
    }

    /** Whether this JVM runs as root (needed to mount a tmpfs and to change nr_hugepages). */
    static boolean isRoot()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("Uid:"))
                {
                    return "0".equals(line.substring(4).trim().split("\\s+")[0]);
                }
            }
        }
        catch (final IOException e)
        {
            return false;
        }
        return false;
    }

    /** Runs a command; returns its exit code and output. */
    static String[] run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            return new String[]{"timeout", output};
        }
        return new String[]{Integer.toString(process.exitValue()), output};
    }

    /**
     * A tmpfs of its own, mounted on a fresh directory under the temp dir, so that its used
     * space is this test's alone. Skips the caller (through {@link Assumptions}) where it
     * cannot be mounted.
     */
    static final class PrivateTmpfs implements AutoCloseable
    {
        private final Path dir;

        private PrivateTmpfs(final Path dir)
        {
            this.dir = dir;
        }

        static PrivateTmpfs mount(final String size) throws IOException, InterruptedException
        {
            Assumptions.assumeTrue(isRoot(), "mounting a private tmpfs needs root; this JVM is not root");
            final Path dir = Files.createTempDirectory("kupl-failure-tmpfs-");
            final String[] result = run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0700", "tmpfs", dir.toString());
            if (!"0".equals(result[0]))
            {
                Files.deleteIfExists(dir);
                Assumptions.abort("cannot mount a " + size + " tmpfs on " + dir + " (exit " + result[0] + "): " + result[1]);
            }
            return new PrivateTmpfs(dir);
        }

        Path dir()
        {
            return dir;
        }

        long usedBytes() throws IOException
        {
            return FailureJobs.usedBytes(dir);
        }

        long totalBytes() throws IOException
        {
            return Files.getFileStore(dir).getTotalSpace();
        }

        /** Unmounts (lazily if something still holds it) and removes the mount point. */
        @Override
        public void close() throws IOException
        {
            String[] result;
            try
            {
                result = run("umount", dir.toString());
                if (!"0".equals(result[0]))
                {
                    result = run("umount", "-l", dir.toString());
                }
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while unmounting " + dir, e);
            }
            Files.deleteIfExists(dir);
            if (!"0".equals(result[0]))
            {
                throw new IOException("cannot unmount " + dir + ": " + result[1]);
            }
        }
    }
}
