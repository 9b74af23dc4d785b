package kupl;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who a rank is, precisely enough to tell later whether it is still alive: its process id,
 * the process's start time (so a recycled pid is not mistaken for the rank) and the id of
 * the thread that joined the comm (so ranks that are threads of one JVM, as in MPJ Express's
 * multicore mode, are watched too).
 *
 * @param pid            process id.
 * @param startTicks     field 22 of {@code /proc/<pid>/stat}: start time in clock ticks after boot.
 * @param threadId       {@link Thread#threadId()} of the thread that created the comm.
 */
public record ProcessIdentity(long pid, long startTicks, long threadId)
{
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * The threads of this JVM that joined a comm, by id. ThreadMXBean knows only platform
     * threads (it answers null, "not alive", for a virtual thread), so a rank that is a
     * virtual thread is looked up here. Weak, so that an ended thread can still be collected.
     */
    private static final Map<Long, WeakReference<Thread>> JOINED = new ConcurrentHashMap<>();

    /**
     * The calling thread of this process.
     *
     * @throws KuplException if this system has no Linux {@code /proc}.
     */
    public static ProcessIdentity current()
    {
        final long pid = ProcessHandle.current().pid();
        final long start = startTicks(pid);
        if (start < 0)
        {
            throw new KuplException("cannot read /proc/" + pid + "/stat: the engine needs Linux's /proc");
        }
        final Thread thread = Thread.currentThread();
        JOINED.values().removeIf(joined -> joined.get() == null);
        JOINED.put(thread.threadId(), new WeakReference<>(thread));
        return new ProcessIdentity(pid, start, thread.threadId());
    }

    /**
     * Whether the rank still runs. For another process: its {@code /proc} entry exists, is
     * not a zombie and has the recorded start time. For a thread of this process: that thread
     * is alive.
     */
    public boolean isAlive()
    {
        return isAlive(ProcessHandle.current().pid());
    }

    /** As {@link #isAlive()}, for a caller that knows this process's id. */
    boolean isAlive(final long ownPid)
    {
        if (pid == ownPid)
        {
            final WeakReference<Thread> joined = JOINED.get(threadId);
            if (joined != null)
            {
                final Thread thread = joined.get();
                return thread != null && thread.isAlive();
            }
            return THREADS.getThreadInfo(threadId, 0) != null;
        }
        return startTicks(pid) == startTicks;
    }

    /**
     * Start time of a live (not zombie) process, or -1 if there is none with that pid. Allocates nothing on the
     * heap unless {@code /proc} answers with an error other than "no such process".
     */
    public static long startTicks(final long pid)
    {
        final long ticks = ProcStat.startTicks(pid);
        return ticks == ProcStat.UNREADABLE ? readStartTicks(pid) : ticks;
    }

    /** {@link #startTicks} through the JDK's file API, which allocates (the fallback, and its errors' reader). */
    private static long readStartTicks(final long pid)
    {
        final String stat;
        try
        {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        }
        catch (final NoSuchFileException e)
        {
            return -1;
        }
        catch (final IOException e)
        {
            return -1;
        }
        // The command name (field 2) may hold spaces and parentheses: fields start after the last ')'.
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        final char state = fields[0].charAt(0);
        if (state == 'Z' || state == 'X')
        {
            return -1;
        }
        return Long.parseLong(fields[19]);
    }
}
