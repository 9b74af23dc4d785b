package kupl;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * {@code KUPL_SHM_DIR} must be in memory: a directory on a disk file system (ext4, overlay, ...)
 * is refused with the file system named, instead of silently putting segments on the disk.
 */
class ShmDirFileSystemTest
{
    @Test
    void shouldAcceptATmpfs()
    {
        SharedMemoryObject.requireMemoryFileSystem(Path.of("/dev/shm"));
    }

    @Test
    void shouldRefuseADirectoryOnADiskFileSystem() throws Exception
    {
        // The build's own directory lies on the disk the checkout is on.
        final Path disk = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        final String type = Files.getFileStore(disk).type();
        assumeFalse(type.equals("tmpfs") || type.equals("hugetlbfs"), "the checkout itself is on " + type);

        final KuplException e = assertThrows(KuplException.class, () -> SharedMemoryObject.requireMemoryFileSystem(disk));

        assertTrue(e.getMessage().contains("KUPL_SHM_DIR=" + disk + " is on a " + type + " file system"), e::getMessage);
        assertTrue(e.getMessage().contains("/dev/shm"), e::getMessage);
    }

    @Test
    void shouldRefuseAMissingDirectory()
    {
        final KuplException e = assertThrows(KuplException.class,
            () -> SharedMemoryObject.requireMemoryFileSystem(Path.of("/no/such/kupl-dir")));

        assertTrue(e.getMessage().startsWith("KUPL_SHM_DIR=/no/such/kupl-dir cannot be used"), e::getMessage);
    }
}
