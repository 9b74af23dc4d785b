package kupl.bootstrap;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * A directory of mode 0700 under {@code java.io.tmpdir} that holds one Unix-domain socket. Only
 * its owner (and root) may enter it, so the kernel refuses every other user's {@code connect}:
 * the socket's path may be shown to anyone. The directory is created with its mode (not
 * chmod-ed afterwards, which would leave a window), and removed by {@link #close()} or, if the
 * JVM ends first, by a shutdown hook.
 */
final class PrivateSocketDirectory implements AutoCloseable
{
    /** The longest path the kernel takes for a Unix-domain socket ({@code sun_path} less its terminating NUL). */
    static final int MAX_SOCKET_PATH_BYTES = 107;

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_AT_CREATION =
        PosixFilePermissions.asFileAttribute(OWNER_ONLY);

    private final Path directory;
    private final Path socket;
    private final UserPrincipal owner;
    private final Thread cleanup;

    private PrivateSocketDirectory(final Path directory) throws IOException
    {
        this.directory = directory;
        this.socket = directory.resolve("hub");
        this.owner = Files.getOwner(directory);
        this.cleanup = new Thread(this::delete, "kupl-oob-cleanup");
    }

    /**
     * Creates a fresh directory.
     *
     * @throws IOException if it cannot be made private, or the socket's path would be too long.
     */
    static PrivateSocketDirectory create() throws IOException
    {
        final Path base = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        final Path directory;
        try
        {
            directory = Files.createTempDirectory(base, "kupl-oob-", OWNER_ONLY_AT_CREATION);
        }
        catch (final UnsupportedOperationException e)
        {
            throw new IOException("java.io.tmpdir=" + base + " has no POSIX permissions; the job's hub needs a " +
                "directory only its user can enter: point java.io.tmpdir at one that has (e.g. /tmp)", e);
        }
        final PrivateSocketDirectory created = new PrivateSocketDirectory(directory);
        // A umask only removes bits, but a file system may ignore modes: check what we got.
        final Set<PosixFilePermission> actual = Files.getPosixFilePermissions(directory);
        final int socketPathBytes = created.socket.toString().getBytes(StandardCharsets.UTF_8).length;
        if (!OWNER_ONLY.equals(actual) || socketPathBytes > MAX_SOCKET_PATH_BYTES)
        {
            created.delete();
            throw new IOException(!OWNER_ONLY.equals(actual) ?
                "the job's hub directory " + directory + " has mode " + PosixFilePermissions.toString(actual) +
                    ", not rwx------: point java.io.tmpdir at a file system that keeps file modes" :
                "the job's hub socket " + created.socket + " is " + socketPathBytes + " bytes long, more than the " +
                    MAX_SOCKET_PATH_BYTES + " a Unix-domain socket takes: point java.io.tmpdir at a shorter path");
        }
        Runtime.getRuntime().addShutdownHook(created.cleanup);
        return created;
    }

    Path socket()
    {
        return socket;
    }

    UnixDomainSocketAddress address()
    {
        return UnixDomainSocketAddress.of(socket);
    }

    /** The user who owns the directory: this process's. */
    UserPrincipal owner()
    {
        return owner;
    }

    /** Removes the socket and the directory; may be called more than once. */
    @Override
    public void close()
    {
        delete();
        try
        {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        catch (final IllegalStateException | IllegalArgumentException ignored)
        {
            // the JVM is shutting down (the hook runs or ran), or it was never added
        }
    }

    private void delete()
    {
        try
        {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(directory);
        }
        catch (final IOException ignored)
        {
            // An empty directory left in the temporary directory is harmless and private.
        }
    }
}
