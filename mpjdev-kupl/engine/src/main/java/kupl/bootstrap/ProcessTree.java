package kupl.bootstrap;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Ends a process and everything it started. A launcher may start JVMs of its own (MPJ Express's
 * starter starts a second JVM for multicore jobs, its daemon one JVM per rank): killing only the
 * process we started would leave those running, re-parented to init and out of reach.
 */
public final class ProcessTree
{
    /** How long to wait for a killed process to be gone. */
    private static final long REAP_TIMEOUT_MS = 5_000;

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
        int killed = 0;
        for (int round = 0; round < 10 && root.isAlive(); round++)
        {
            final List<ProcessHandle> descendants = root.descendants().toList();
            if (descendants.isEmpty())
            {
                break;
            }
            for (final ProcessHandle descendant : descendants)
            {
                if (descendant.destroyForcibly())
                {
                    killed++;
                }
                await(descendant);
            }
        }
        if (root.isAlive() && root.destroyForcibly())
        {
            killed++;
        }
        await(root);
        return killed;
    }

    /**
     * Kills those of {@code processes} still alive (a handle knows its process's start time, so a
     * reused pid is not mistaken for it).
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
                await(process);
            }
        }
        return killed;
    }

    private static void await(final ProcessHandle process)
    {
        try
        {
            process.onExit().get(REAP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        catch (final ExecutionException | TimeoutException e)
        {
            // A process that SIGKILL did not end within seconds is stuck in the kernel: nothing more to do.
        }
    }
}
