package mpjrun;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Decides whether a {@code -dev shm} job's rank JVMs start from the launcher's AOT cache
 * ({@link RankAotCache}), and makes the cache the first time: a 2-rank job of {@link AotTrainingProgram},
 * whose rank 0 records the cache at its exit ({@code -XX:AOTCacheOutput}, JDK 25's one-step training).
 * The user's program never runs for it, so it never runs twice.
 *
 * <p>Nothing here can fail a job: with the cache switched off, a class directory among the library
 * entries, a cache directory that is not the user's alone, another launcher training at the same time,
 * or a training that failed (once; it is not retried for the same jars), the job runs without a cache.
 */
final class RankAotTraining
{
    /** Ranks of the training job: the device's and the collectives' classes are the same for any number. */
    static final int RANKS = 2;
    /** A training job still running after this long is stopped (it takes seconds; recording, up to a minute). */
    static final Duration TIME_LIMIT = Duration.ofMinutes(5);
    /** Lines of a failed training's output shown to the user. */
    private static final int SHOWN_LINES = 15;

    private RankAotTraining()
    {
    }

    /**
     * The options that give this job's rank JVMs the launcher's AOT cache, training it first when it does not
     * exist yet; none where there is no cache to give. Tells {@code err} when it trains, and why a cache could
     * not be made.
     *
     * @param libraryClassPath the class path every rank starts with, before the program's entries.
     * @param userOptions      the job's JVM options ({@code -jvmargs}).
     * @param environment      the launcher's environment ({@link RankAotCache#SWITCH}, {@code XDG_CACHE_HOME}).
     * @throws kupl.KuplException if {@link RankAotCache#SWITCH} is neither {@code on} nor {@code off}.
     */
    static List<String> rankOptions(final List<String> libraryClassPath, final List<String> userOptions,
        final Map<String, String> environment, final PrintStream err)
    {
        if (!RankAotCache.enabled(environment) || RankAotCache.chosenByUser(userOptions))
        {
            return List.of();
        }
        try
        {
            final Optional<String> key = RankAotCache.key(libraryClassPath, System.getProperty("java.home"),
                System.getProperty("java.vm.version"));
            if (key.isEmpty())
            {
                return List.of();
            }
            final RankAotCache cache = new RankAotCache(RankAotCache.directory(environment,
                System.getProperty("user.home")), key.get());
            if (cache.isTrained())
            {
                return cache.rankOptions();
            }
            if (cache.failedBefore())
            {
                return List.of();
            }
            final String unusable = cache.prepareDirectory();
            if (!unusable.isEmpty())
            {
                err.println("mpjrun: no AOT cache for the rank JVMs: " + unusable);
                return List.of();
            }
            return trainOnce(cache, err) ? cache.rankOptions() : List.of();
        }
        catch (final IOException | RuntimeException e)
        {
            // A cache is an optimisation: whatever went wrong with it, the job runs as it would without one.
            err.println("mpjrun: no AOT cache for the rank JVMs (" + e + "); " + RankAotCache.SWITCH +
                "=off stops trying");
            return List.of();
        }
    }

    /** Trains the cache unless another launcher is doing so; whether the cache exists afterwards. */
    private static boolean trainOnce(final RankAotCache cache, final PrintStream err) throws IOException
    {
        try (FileChannel channel = FileChannel.open(cache.trainingLock(), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE); FileLock lock = channel.tryLock())
        {
            if (lock == null)
            {
                // Another launcher is training: this job does not wait for it.
                return false;
            }
            // It may have finished between our look and our lock.
            return cache.isTrained() || train(cache, err);
        }
        catch (final OverlappingFileLockException e)
        {
            // This JVM already trains (another job of the same launcher JVM).
            return false;
        }
    }

    private static boolean train(final RankAotCache cache, final PrintStream err) throws IOException
    {
        err.println("mpjrun: making the rank JVMs' AOT cache " + cache.file() + ", once for this JDK and these " +
            "jars (" + RankAotCache.SWITCH + "=off skips it)");
        err.flush();
        final Path directory = cache.newTrainingDirectory();
        try
        {
            final Path recorded = directory.resolve("rank0.aot");
            final ByteArrayOutputStream output = new ByteArrayOutputStream();
            final long startNs = System.nanoTime();
            final int status;
            try (PrintStream log = new PrintStream(output, true, StandardCharsets.UTF_8))
            {
                status = ShmJob.runTraining(new JobSpec(RANKS, List.of(), List.of(),
                    AotTrainingProgram.class.getName(), List.of(), false), log,
                    rank -> rank == 0 ? List.of("-XX:AOTCacheOutput=" + recorded) : List.of(), TIME_LIMIT);
            }
            if (status == 0 && Files.isRegularFile(recorded) && Files.size(recorded) > 0)
            {
                cache.publish(recorded);
                err.println(String.format(Locale.ROOT, "mpjrun: AOT cache made in %.1f s",
                    (System.nanoTime() - startNs) / 1e9));
                return true;
            }
            final Path marker = cache.markFailed();
            final List<String> lines = output.toString(StandardCharsets.UTF_8).lines().toList();
            err.println("mpjrun: could not make the rank JVMs' AOT cache (training job status " + status +
                "); jobs run without it, and no job tries again until " + marker + " is deleted. " +
                "The training's output ends:");
            lines.subList(Math.max(0, lines.size() - SHOWN_LINES), lines.size())
                .forEach(line -> err.println("mpjrun:   " + line));
            return false;
        }
        finally
        {
            deleteTree(directory);
        }
    }

    private static void deleteTree(final Path directory) throws IOException
    {
        try (Stream<Path> files = Files.walk(directory))
        {
            for (final Path file : files.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(file);
            }
        }
    }
}
