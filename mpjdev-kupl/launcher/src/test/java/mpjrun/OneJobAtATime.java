package mpjrun;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class's jobs while no other class with this extension runs, across the build's test JVMs (a
 * file lock): tests that look for what a job left behind, or kill a simulated node's processes, must not see
 * another test's jobs and clusters, which the parallel forks would otherwise run beside them.
 */
public final class OneJobAtATime implements BeforeAllCallback, AfterAllCallback
{
    private static final Path LOCK = Path.of(System.getProperty("java.io.tmpdir"), "kupl-job-tests.lock");
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(OneJobAtATime.class);

    @Override
    public void beforeAll(final ExtensionContext context) throws IOException
    {
        final FileChannel channel = FileChannel.open(LOCK, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        context.getStore(NAMESPACE).put("lock", channel.lock());
    }

    @Override
    public void afterAll(final ExtensionContext context) throws IOException
    {
        final FileLock lock = context.getStore(NAMESPACE).remove("lock", FileLock.class);
        if (lock != null)
        {
            lock.release();
            lock.channel().close();
        }
    }
}
