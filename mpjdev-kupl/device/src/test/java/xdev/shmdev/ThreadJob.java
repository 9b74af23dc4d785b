package xdev.shmdev;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

import kupl.bootstrap.OobHub;
import xdev.ProcessID;

/**
 * N ranks of the device as threads of this JVM (the engine accepts thread ranks), each with
 * its own {@link ShmDevice}, for device-level tests that need no process start.
 */
final class ThreadJob
{
    /** What one rank does between init and finish. */
    interface Body
    {
        void run(ShmDevice device, ProcessID[] ids) throws Exception;
    }

    private ThreadJob()
    {
    }

    /**
     * Runs {@code body} on {@code size} ranks; rethrows the first rank's failure (with the rank
     * in the message), or fails if a rank has not finished within {@code timeout}.
     */
    static void run(final int size, final Duration timeout, final Body body) throws Exception
    {
        final AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(size);
        final List<Thread> threads = new ArrayList<>();
        try (OobHub hub = OobHub.start(size))
        {
            final ShmConf conf = new ShmConf(hub.socket(), size, hub.jobId());
            for (int rank = 0; rank < size; rank++)
            {
                final int r = rank;
                threads.add(Thread.ofPlatform().name("shm-rank-" + rank).start(() ->
                {
                    try
                    {
                        final ShmDevice device = new ShmDevice();
                        final ProcessID[] ids = device.init(new String[] {Integer.toString(r), conf.toString(), "shm"});
                        body.run(device, ids);
                        device.finish();
                    }
                    catch (final Throwable t)
                    {
                        failures.set(r, t);
                    }
                }));
            }
            final long deadline = System.nanoTime() + timeout.toNanos();
            for (final Thread thread : threads)
            {
                thread.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            }
            for (int rank = 0; rank < size; rank++)
            {
                if (threads.get(rank).isAlive())
                {
                    final StringBuilder stacks = new StringBuilder();
                    for (final Thread thread : threads)
                    {
                        stacks.append(thread.getName()).append(":\n");
                        for (final StackTraceElement frame : thread.getStackTrace())
                        {
                            stacks.append("    ").append(frame).append('\n');
                        }
                        thread.interrupt();
                    }
                    throw new AssertionError("rank " + rank + " did not finish within " + timeout + "\n" + stacks);
                }
            }
            for (int rank = 0; rank < size; rank++)
            {
                if (failures.get(rank) != null)
                {
                    throw new AssertionError("rank " + rank + " failed: " + failures.get(rank), failures.get(rank));
                }
            }
        }
    }
}
