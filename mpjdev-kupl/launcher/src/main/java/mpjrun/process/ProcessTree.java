package mpjrun.process;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Ends a process and everything it started. A launcher may start JVMs of its own (MPJ Express's
 * starter starts a second JVM for multicore jobs, its daemon one JVM per rank): killing only the
 * process we started would leave those running, re-parented to init and out of reach.
 */
public final class ProcessTree
{
    /** How long to wait for a killed process to be gone. */
    private static final long REAP_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);
    /** How often a killed process is looked at until it is gone: SIGKILL ends a JVM in milliseconds. */
    private static final long POLL_MS = 2;

    private ProcessTree()
    {
    }

    /**
     * Kills {@code root}'s descendants, then {@code root}, with SIGKILL, and waits for them to be gone.
     * Descendants go first and repeatedly while {@code root} lives: once their parent is dead they
     * can no longer be found from it, and a live parent may start a new one meanwhile.
     *
     * @return how many processes were killed.
     */
    public static int kill(final ProcessHandle root)
    {
        return killTrees(List.of(root));
    }

    /**
     * As {@link #kill(ProcessHandle)} for each of {@code roots}, all at once: every process is sent
     * SIGKILL before any is waited for, since a JVM with its memory mapped takes tens of milliseconds
     * to be torn down, and one after the other a job's ranks took half a second to end.
     *
     * @return how many processes were killed.
     */
    public static int killTrees(final Collection<ProcessHandle> roots)
    {
        int killed = 0;
        for (int round = 0; round < 10; round++)
        {
            final List<ProcessHandle> descendants = roots.stream().filter(ProcessHandle::isAlive)
                .flatMap(ProcessHandle::descendants).toList();
            if (descendants.isEmpty())
            {
                break;
            }
            killed += killAll(descendants);
        }
        return killed + killAll(roots);
    }

    /**
     * Kills those of {@code processes} still alive (a handle knows its process's start time, so a
     * reused pid is not mistaken for it), all before waiting for any to be gone.
     *
     * @return how many were killed.
     */
    public static int killAll(final Collection<ProcessHandle> processes)
    {
        int killed = 0;
        for (final ProcessHandle process : processes)
        {
            if (process.isAlive() && process.destroyForcibly())
            {
                killed++;
            }
        }
        for (final ProcessHandle process : processes)
        {
            await(process);
        }
        return killed;
    }

    /**
     * Waits until {@code process} is gone, by looking at it every few milliseconds. Not with
     * {@code process.onExit()}: that future completes on the common fork-join pool, whose one worker
     * (on two cores) may be the very thread that waits here, or blocked in another process's exit
     * callback, and then every wait lasted its whole timeout (a killed job took 10-15 s to end).
     */
    private static void await(final ProcessHandle process)
    {
        final long startNs = System.nanoTime();
        try
        {
            while (process.isAlive() && System.nanoTime() - startNs < REAP_TIMEOUT_NS)
            {
                Thread.sleep(POLL_MS);
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        // A process that SIGKILL did not end within seconds is stuck in the kernel: nothing more to do.
    }
}
