package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A directory of its own in {@code /dev/shm} for each test's ranks ({@code KUPL_SHM_DIR}): made before the
 * test, and after it the test fails if anything is left there (shared memory a job leaked), then it is removed.
 * Register it with {@code @RegisterExtension}.
 */
public final class PrivateShmDirectory implements BeforeEachCallback, AfterEachCallback
{
    private final String prefix;
    private Path directory;

    /** @param prefix how the directory's name starts, naming the test class in a leak's path. */
    public PrivateShmDirectory(final String prefix)
    {
        this.prefix = prefix;
    }

    /** The directory of the running test. */
    public Path path()
    {
        if (directory == null)
        {
            throw new IllegalStateException("no test is running");
        }
        return directory;
    }

    @Override
    public void beforeEach(final ExtensionContext context) throws IOException
    {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), prefix);
    }

    @Override
    public void afterEach(final ExtensionContext context) throws IOException
    {
        try (Stream<Path> left = Files.list(directory))
        {
            assertEquals(List.of(), left.toList(), "shared memory left behind");
        }
        finally
        {
            Files.deleteIfExists(directory);
            directory = null;
        }
    }
}
