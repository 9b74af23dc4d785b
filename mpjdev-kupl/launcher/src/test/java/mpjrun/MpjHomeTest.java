package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MPJ_HOME recipe ({@link MpjHome}, which {@code bin/} uses too) makes a directory every user can read, so that others sharing a checkout can run {@code bin/mpjrun}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MpjHomeTest
{
    @Test
    void shouldMakeAnMpjHomeOthersCanRead(@TempDir final Path dir) throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(MpjDevice.MULTICORE), "MPJ Express is not installed");

        assertReadableByOthers(MpjHome.prepare(dir.resolve("mpj-home")));
    }

    private static void assertReadableByOthers(final Path home) throws Exception
    {
        assertTrue(MpjHome.isComplete(home), home + " is not a complete MPJ_HOME");
        try (Stream<Path> entries = Files.walk(home))
        {
            for (final Path entry : entries.toList())
            {
                final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(entry);
                assertTrue(permissions.contains(PosixFilePermission.OTHERS_READ), () -> entry + " is " +
                    PosixFilePermissions.toString(permissions));
                if (Files.isDirectory(entry))
                {
                    assertTrue(permissions.contains(PosixFilePermission.OTHERS_EXECUTE), () -> entry + " is " +
                        PosixFilePermissions.toString(permissions));
                }
            }
        }
    }
}
