package kupl;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * One shared-memory object, as its creator holds it until every process has mapped it.
 *
 * <p><b>No name, so nothing to leak.</b> A normal object is an unnamed file in
 * {@code KUPL_SHM_DIR} ({@code O_TMPFILE}, mode 0600): it never appears in the directory,
 * and its memory returns to the system when the last process that maps it exits, however
 * it exits, {@code kill -9} included. (KUPL names its files with {@code rand_r} and unlinks
 * them only at free, so a crash leaks them.) A huge-page object is a
 * {@code memfd_create(MFD_HUGETLB)} file, unnamed as well. Other processes open the object
 * through {@code /proc/<creator pid>/fd/<fd>}, which needs the same user and node.
 *
 * <p><b>Pages reserved up front.</b> {@code fallocate} takes every page at allocation, so a
 * full tmpfs or a lack of huge pages fails here with a message, instead of a SIGBUS (in Java
 * an asynchronous {@code InternalError}) at the first touch of a missing page.
 */
final class SharedMemoryObject implements AutoCloseable
{
    /** The file system types {@code KUPL_SHM_DIR} may be on: memory only. */
    private static final Set<String> MEMORY_FILE_SYSTEMS = Set.of("tmpfs", "hugetlbfs");

    private static final int MODE_0600 = 0600;
    private static final long MIB = 1L << 20;

    private final int fd;
    private final long lengthBytes;
    private final MemorySegment mapping;

    private SharedMemoryObject(final int fd, final long lengthBytes, final MemorySegment mapping)
    {
        this.fd = fd;
        this.lengthBytes = lengthBytes;
        this.mapping = mapping;
    }

    /**
     * Creates an object of at least {@code requestedBytes} and maps it into {@code arena}.
     *
     * @param numaNodes  NUMA nodes to bind the pages to (on-package memory), or empty.
     * @param reserveAll reserve every page now; if false, each user reserves its own part
     *                   ({@link #reserve}, {@link #mapPeer}).
     * @throws KuplException saying what to change if the machine cannot provide the memory.
     */
    static SharedMemoryObject create(final KuplConfig config, final long requestedBytes, final boolean hugePages,
        final List<Integer> numaNodes, final boolean reserveAll, final Arena arena)
    {
        final long length = hugePages ? ControlDescriptor.align(requestedBytes, MemoryNodes.hugePageBytes()) : requestedBytes;
        final int fd = openUnnamed(config.directory(), hugePages);
        try
        {
            Libc.ftruncate(fd, length);
            if (numaNodes.isEmpty())
            {
                if (reserveAll)
                {
                    reserve(fd, 0, length, config.directory(), hugePages);
                }
                return new SharedMemoryObject(fd, length, map(fd, length, hugePages, arena));
            }
            // A shared mapping's NUMA policy belongs to the object: bind first, so that the pages
            // reserved afterwards, by any process, come from those nodes.
            final MemorySegment mapping = map(fd, length, hugePages, arena);
            long mask = 0;
            for (final int node : numaNodes)
            {
                mask |= 1L << node;
            }
            Libc.mbindStrict(mapping, mask);
            if (reserveAll)
            {
                reserve(fd, 0, length, config.directory(), hugePages);
            }
            return new SharedMemoryObject(fd, length, mapping);
        }
        catch (final Libc.ErrnoException e)
        {
            Libc.close(fd);
            throw new KuplException("cannot set up a " + sizeText(length) + " shared-memory object: " + e.getMessage(), e);
        }
        catch (final RuntimeException e)
        {
            Libc.close(fd);
            throw e;
        }
    }

    /** Reserves the pages of bytes {@code [offset, offset + length)} of this object (normal pages, in {@code directory}). */
    void reserve(final long offset, final long length, final Path directory)
    {
        reserve(fd, offset, length, directory, false);
    }

    /**
     * Maps the object another process created and described with {@code handle}, and reserves
     * the pages of bytes {@code [reserveOffset, reserveOffset + reserveLength)} of it (none if
     * {@code reserveLength} is 0).
     */
    static MemorySegment mapPeer(final SegmentHandle handle, final int ownerRank, final long reserveOffset,
        final long reserveLength, final Path directory, final Arena arena)
    {
        final String path = "/proc/" + handle.pid() + "/fd/" + handle.fd();
        final int fd;
        try
        {
            fd = Libc.open(path, Libc.O_RDWR | Libc.O_CLOEXEC, 0);
        }
        catch (final Libc.ErrnoException e)
        {
            throw new KuplException("cannot open rank " + ownerRank + "'s shared-memory object through " + path + ": " +
                e.getMessage() + "; every process of a comm must run on this node as the same user", e);
        }
        try
        {
            if (reserveLength > 0)
            {
                reserve(fd, reserveOffset, reserveLength, directory, false);
            }
            return Libc.mmapShared(fd, handle.lengthBytes(), arena);
        }
        catch (final Libc.ErrnoException e)
        {
            throw new KuplException("cannot map rank " + ownerRank + "'s " + sizeText(handle.lengthBytes()) +
                " shared-memory object: " + e.getMessage() + " (check ulimit -v and /proc/sys/vm/max_map_count)", e);
        }
        finally
        {
            // The mapping keeps the object alive; the descriptor is no longer needed.
            Libc.close(fd);
        }
    }

    SegmentHandle handle()
    {
        return new SegmentHandle(ProcessHandle.current().pid(), fd, lengthBytes);
    }

    /** The creator's own mapping, valid until its arena closes. */
    MemorySegment mapping()
    {
        return mapping;
    }

    /** Closes the creator's descriptor: once every process has mapped the object, only mappings keep it. */
    @Override
    public void close()
    {
        Libc.close(fd);
    }

    /**
     * Refuses a {@code KUPL_SHM_DIR} on a disk file system: segments there are written back to the
     * disk (slow, and they survive a crash in the page cache differently), which a tmpfs never does.
     */
    static void requireMemoryFileSystem(final Path directory)
    {
        final String type;
        try
        {
            type = Files.getFileStore(directory).type();
        }
        catch (final IOException e)
        {
            throw new KuplException("KUPL_SHM_DIR=" + directory + " cannot be used: " + e + "; give an existing " +
                "directory on a tmpfs, such as /dev/shm", e);
        }
        if (!MEMORY_FILE_SYSTEMS.contains(type))
        {
            throw new KuplException("KUPL_SHM_DIR=" + directory + " is on a " + type + " file system, not in memory: " +
                "segments there would be written back to the disk; give a directory on a tmpfs (or hugetlbfs), " +
                "such as /dev/shm");
        }
    }

    private static int openUnnamed(final Path directory, final boolean hugePages)
    {
        if (!hugePages)
        {
            requireMemoryFileSystem(directory);
        }
        if (hugePages)
        {
            try
            {
                return Libc.memfdCreate("kupl-shm-win", Libc.MFD_CLOEXEC | Libc.MFD_HUGETLB);
            }
            catch (final Libc.ErrnoException e)
            {
                throw new KuplException("KUPL_SHM_ENABLE_HUGEPAGE=y: this kernel cannot create a huge-page memory file (" +
                    e.getMessage() + "); set KUPL_SHM_ENABLE_HUGEPAGE=n", e);
            }
        }
        try
        {
            return Libc.open(directory.toString(), Libc.O_TMPFILE | Libc.O_RDWR | Libc.O_CLOEXEC, MODE_0600);
        }
        catch (final Libc.ErrnoException e)
        {
            final String fix = switch (e.errno())
            {
                case Libc.EOPNOTSUPP, Libc.EISDIR, Libc.EINVAL ->
                    "its file system cannot hold unnamed files (O_TMPFILE); point KUPL_SHM_DIR at a tmpfs such as /dev/shm";
                default -> "check that it exists and that this user may write there, or set KUPL_SHM_DIR";
            };
            throw new KuplException("cannot create a shared-memory object in KUPL_SHM_DIR=" + directory + ": " +
                e.getMessage() + "; " + fix, e);
        }
    }

    private static MemorySegment map(final int fd, final long length, final boolean hugePages, final Arena arena)
        throws Libc.ErrnoException
    {
        try
        {
            return Libc.mmapShared(fd, length, arena);
        }
        catch (final Libc.ErrnoException e)
        {
            if (hugePages && e.errno() == Libc.ENOMEM)
            {
                throw noHugePages(length, e);
            }
            throw e;
        }
    }

    private static KuplException noHugePages(final long length, final Exception cause)
    {
        final long pageBytes = MemoryNodes.hugePageBytes();
        return new KuplException("KUPL_SHM_ENABLE_HUGEPAGE=y: cannot reserve " + length / pageBytes +
            " huge pages of " + sizeText(pageBytes) + " (HugePages_Free: " + MemoryNodes.hugePagesFree() +
            "); reserve more with 'echo N > /proc/sys/vm/nr_hugepages' or set KUPL_SHM_ENABLE_HUGEPAGE=n", cause);
    }

    private static void reserve(final int fd, final long offset, final long length, final Path directory,
        final boolean hugePages)
    {
        try
        {
            Libc.fallocate(fd, offset, length);
        }
        catch (final Libc.ErrnoException e)
        {
            if (hugePages && (e.errno() == Libc.ENOSPC || e.errno() == Libc.ENOMEM))
            {
                throw noHugePages(length, e);
            }
            if (e.errno() == Libc.ENOSPC || e.errno() == Libc.ENOMEM)
            {
                throw new KuplException(notEnoughSpace(length, directory, usableBytes(directory)), e);
            }
            if (e.errno() == Libc.EOPNOTSUPP)
            {
                throw new KuplException("KUPL_SHM_DIR=" + directory + " cannot reserve pages up front (fallocate is " +
                    "not supported there), so a full disk would crash the program later; use a tmpfs such as /dev/shm", e);
            }
            throw new KuplException("cannot reserve " + sizeText(length) + " in KUPL_SHM_DIR=" + directory + ": " +
                e.getMessage(), e);
        }
    }

    /**
     * Why a reservation of {@code length} bytes did not fit in {@code directory}, which has {@code freeBytes}
     * free: with exact byte counts and the shortfall when the rounded figures look alike, since the pages
     * of the window's control object and of the other processes' parts, reserved meanwhile, count too.
     */
    static String notEnoughSpace(final long length, final Path directory, final long freeBytes)
    {
        final boolean lookAlike = freeBytes >= 0 && sizeText(length).equals(sizeText(freeBytes));
        final String shortfall = freeBytes >= 0 && freeBytes < length ? ", " + sizeText(length - freeBytes) +
            " short" : "";
        return "not enough shared memory: the window needs " + sizeText(length) +
            (lookAlike ? " (" + length + " B)" : "") + " in KUPL_SHM_DIR=" + directory + ", which has " +
            sizeText(freeBytes) + " free" + (lookAlike ? " (" + freeBytes + " B)" : "") + shortfall +
            " for this process's part (a tmpfs " +
            "hands out whole pages, and the window's control object and the other processes' parts, reserved at " +
            "the same time, take room there too); free space there, enlarge it (mount -o remount,size=...) or " +
            "point KUPL_SHM_DIR elsewhere";
    }

    private static long usableBytes(final Path directory)
    {
        try
        {
            return Files.getFileStore(directory).getUsableSpace();
        }
        catch (final IOException e)
        {
            return -1;
        }
    }

    static String sizeText(final long bytes)
    {
        if (bytes < 0)
        {
            return "an unknown amount";
        }
        if (bytes < 1024)
        {
            return bytes + " B";
        }
        if (bytes < MIB)
        {
            return String.format("%.1f KiB", bytes / 1024.0);
        }
        if (bytes < 1024 * MIB)
        {
            return String.format("%.1f MiB", bytes / (double)MIB);
        }
        return String.format("%.2f GiB", bytes / (double)(1024 * MIB));
    }
}
