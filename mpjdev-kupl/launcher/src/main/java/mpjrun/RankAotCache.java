package mpjrun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

import kupl.KuplEnv;

/**
 * Where the launcher keeps an ahead-of-time cache for rank JVMs (JDK 24+: classes loaded and linked,
 * JEP 483, and method profiles, JEP 515) of the library part of their class path: this project's jars and
 * MPJ Express's, which come first on every rank's class path, before the program's own entries.
 *
 * <p><b>Key.</b> A JVM uses a cache only with the JDK that made it and a class path that starts with the
 * cache's, each jar at the same path with the same size and modification time (it checks these, not the
 * content). The key is a hash of exactly that: the JDK ({@code java.home}, {@code java.vm.version}) and
 * each library jar's path, size and modification time. A rebuilt jar gets a new key and so a new cache;
 * nothing is read beyond the jars' attributes. A library entry that is a directory (classes straight from a
 * build, as in the build's own tests) cannot be in a cache (the JDK refuses them), so there is no key then.
 *
 * <p><b>Directory.</b> The launcher's ({@link LauncherCache}): {@code $XDG_CACHE_HOME/mpj-kupl}, else
 * {@code ~/.cache/mpj-kupl}, the user's alone.
 *
 * <p><b>Publishing.</b> A cache is written under a temporary name in the same directory and renamed to
 * its final name in one step, so a launcher sees either no cache or a complete one; a JVM that mapped
 * the old file keeps it. One launcher trains at a time ({@link #trainingLock()}); the others run their
 * job without the cache meanwhile. A failed training leaves a marker, so that it is not retried at
 * every launch. The {@value #KEPT} newest caches are kept, older ones (older builds) removed.
 */
final class RankAotCache
{
    /** The variable that switches the cache off ({@code off}) or on ({@code on}, the default). */
    static final String SWITCH = KuplEnv.KUPL_RANK_AOT_CACHE.name();
    /** Caches kept in the directory: those of the last few builds. */
    static final int KEPT = 3;
    /**
     * Options that make a JVM ignore, quietly, a cache it cannot use (truncated, from another JDK, another
     * collector's object layout): without them it prints errors and runs on without the cache anyway.
     * A user's own {@code -Xlog:aot} after them turns the messages back on.
     */
    static final List<String> QUIET = List.of("-Xlog:aot*=off", "-Xlog:cds*=off");

    private static final String PREFIX = "rank-jvm-";
    private static final String SUFFIX = ".aot";
    private static final String FAILED_SUFFIX = ".failed";
    private static final String LOCK_FILE = "training.lock";
    /** Bumped when what a cache holds changes in a way the jars' attributes would not show. */
    private static final String FORMAT = "1";

    private final Path directory;
    private final String key;

    RankAotCache(final Path directory, final String key)
    {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * Whether {@code environment} leaves the cache on.
     *
     * @throws kupl.KuplException naming the variable and its values if it is neither {@code on} nor {@code off}.
     */
    static boolean enabled(final Map<String, String> environment)
    {
        return KuplEnv.KUPL_RANK_AOT_CACHE.isOnIn(environment);
    }

    /**
     * Whether the user's JVM options choose class data sharing themselves (their own AOT cache or CDS
     * archive, or none): a JVM refuses {@code -XX:AOTCache} beside most of them, so the launcher's is left out.
     */
    static boolean chosenByUser(final List<String> userOptions)
    {
        return userOptions.stream().anyMatch(option -> option.startsWith("-Xshare") ||
            option.startsWith("-XX:AOT") || option.startsWith("-XX:SharedArchiveFile") ||
            option.startsWith("-XX:SharedClassListFile") || option.startsWith("-XX:DumpLoadedClassList") ||
            option.startsWith("-XX:ArchiveClassesAtExit") || option.endsWith("AutoCreateSharedArchive"));
    }

    /** The launcher's cache directory ({@link LauncherCache#directory}). */
    static Path directory(final Map<String, String> environment, final String userHome)
    {
        return LauncherCache.directory(environment, userHome);
    }

    /**
     * The key of a cache for these library entries on this JDK, or empty if one is not a regular jar file
     * (a class directory, or missing).
     */
    static Optional<String> key(final List<String> libraryClassPath, final String javaHome, final String vmVersion)
        throws IOException
    {
        return LauncherCache.key(libraryClassPath, FORMAT, javaHome, vmVersion);
    }

    /** The cache's file (it exists once trained). */
    Path file()
    {
        return directory.resolve(PREFIX + key + SUFFIX);
    }

    Path directory()
    {
        return directory;
    }

    boolean isTrained()
    {
        return Files.isRegularFile(file());
    }

    /** Whether a training for this key failed before (then it is not tried again). */
    boolean failedBefore()
    {
        return Files.exists(directory.resolve(PREFIX + key + FAILED_SUFFIX));
    }

    /** The options that give a rank JVM this cache, quietly ignored by a JVM that cannot use it. */
    List<String> rankOptions()
    {
        return Stream.concat(QUIET.stream(), Stream.of("-XX:AOTCache=" + file())).toList();
    }

    /**
     * Makes the directory (mode 0700) if needed and checks that only this user can write it.
     *
     * @return an empty string when usable, else why not (for a message).
     */
    String prepareDirectory() throws IOException
    {
        return LauncherCache.prepare(directory);
    }

    /** A new empty directory, inside the cache's, for a training job's output. */
    Path newTrainingDirectory() throws IOException
    {
        return Files.createTempDirectory(directory, "training-",
            PosixFilePermissions.asFileAttribute(LauncherCache.OWNER_ONLY));
    }

    /** The lock file that one launcher at a time holds while it trains. */
    Path trainingLock()
    {
        return directory.resolve(LOCK_FILE);
    }

    /**
     * Makes {@code trained} (a file in this cache's directory) the cache, in one rename: a launcher sees the
     * old cache or the new one, never part of one. Then removes all but the {@value #KEPT} newest caches.
     */
    void publish(final Path trained) throws IOException
    {
        LauncherCache.publish(trained, file(), PREFIX, SUFFIX, KEPT);
    }

    /** Notes that training failed for this key, so that later launches do not try again; the note's file. */
    Path markFailed() throws IOException
    {
        final Path marker = directory.resolve(PREFIX + key + FAILED_SUFFIX);
        Files.writeString(marker, "the training job failed; delete this file to try again\n");
        return marker;
    }
}
