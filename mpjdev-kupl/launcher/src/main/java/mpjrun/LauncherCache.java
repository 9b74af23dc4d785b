package mpjrun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The directory where the launcher keeps what it makes once for the rank JVMs and reuses at every job (the
 * AOT cache, {@link RankAotCache}; MPJ Express's woven classes, {@link WovenMpjClasses}), and the rules its
 * files follow.
 *
 * <p><b>Where.</b> {@code $XDG_CACHE_HOME/mpj-kupl}, else {@code ~/.cache/mpj-kupl}, made with mode 0700. A
 * rank JVM trusts these files as it trusts the jars, so a directory that another user owns or can write is
 * not used.
 *
 * <p><b>Keys.</b> A file is named by a hash of what it was made from: jars by path, size and modification
 * time (a rebuilt jar gets a new key, and nothing but the jars' attributes is read), and any other facts it
 * depends on (the JDK).
 *
 * <p><b>Publishing.</b> A file is written under a temporary name in the directory and renamed to its final
 * name in one step, so a launcher sees either none or a complete one; a JVM that opened the old file keeps
 * it. Only the newest few of each kind are kept.
 */
final class LauncherCache
{
    /** The directory's name under the user's cache directory. */
    static final String DIRECTORY_NAME = "mpj-kupl";
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private LauncherCache()
    {
    }

    /**
     * {@code $XDG_CACHE_HOME/mpj-kupl} if that variable holds an absolute path, else
     * {@code userHome/.cache/mpj-kupl}.
     */
    static Path directory(final Map<String, String> environment, final String userHome)
    {
        final String xdg = environment.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute())
        {
            return Path.of(xdg, DIRECTORY_NAME);
        }
        return Path.of(userHome, ".cache", DIRECTORY_NAME);
    }

    /**
     * Makes {@code directory} (mode 0700) if needed and checks that only this user can write it.
     *
     * @return an empty string when usable, else why not (for a message).
     */
    static String prepare(final Path directory) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        }
        final String owner = Files.getOwner(directory).getName();
        if (!owner.equals(System.getProperty("user.name")))
        {
            return directory + " belongs to " + owner;
        }
        final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory);
        if (permissions.contains(PosixFilePermission.GROUP_WRITE) ||
            permissions.contains(PosixFilePermission.OTHERS_WRITE))
        {
            return directory + " can be written by other users (" + PosixFilePermissions.toString(permissions) +
                "; chmod 700 it)";
        }
        return "";
    }

    /**
     * A key for a file made from {@code jars} and {@code facts}, or empty if one of the jars is not a regular
     * {@code .jar} file (a class directory, or missing).
     */
    static Optional<String> key(final List<String> jars, final String... facts) throws IOException
    {
        final MessageDigest digest = sha256();
        for (final String fact : facts)
        {
            update(digest, fact);
        }
        for (final String entry : jars)
        {
            final Path jar = Path.of(entry).toAbsolutePath();
            if (!Files.isRegularFile(jar) || !entry.endsWith(".jar"))
            {
                return Optional.empty();
            }
            update(digest, jar.toString());
            update(digest, Long.toString(Files.size(jar)));
            update(digest, Long.toString(Files.getLastModifiedTime(jar).toMillis()));
        }
        // 128 bits of the hash are plenty to tell builds apart and keep the file name short.
        return Optional.of(HexFormat.of().formatHex(digest.digest(), 0, 16));
    }

    /**
     * Renames {@code made} (a file in {@code target}'s directory) to {@code target} in one step, then removes
     * all but the {@code kept} newest files of the directory whose names start with {@code prefix} and end
     * with {@code suffix} ({@code target} always stays).
     */
    static void publish(final Path made, final Path target, final String prefix, final String suffix,
        final int kept) throws IOException
    {
        try
        {
            Files.move(made, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final AtomicMoveNotSupportedException e)
        {
            throw new IOException("cannot rename " + made + " to " + target + " in one step", e);
        }
        final List<Path> files;
        try (Stream<Path> listed = Files.list(target.getParent()))
        {
            files = listed.filter(f -> f.getFileName().toString().startsWith(prefix) &&
                f.getFileName().toString().endsWith(suffix)).sorted(Comparator.comparing(LauncherCache::modified)
                    .reversed()).toList();
        }
        for (final Path old : files.subList(Math.min(kept, files.size()), files.size()))
        {
            if (!old.equals(target))
            {
                // A JVM that opened it keeps it; a launcher that chose it and starts a rank now gets a JVM that
                // finds no file and starts without it.
                Files.deleteIfExists(old);
            }
        }
    }

    private static FileTime modified(final Path file)
    {
        try
        {
            return Files.getLastModifiedTime(file);
        }
        catch (final IOException e)
        {
            return FileTime.fromMillis(0);
        }
    }

    private static void update(final MessageDigest digest, final String text)
    {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
        digest.update((byte)0);
    }

    private static MessageDigest sha256()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException e)
        {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
