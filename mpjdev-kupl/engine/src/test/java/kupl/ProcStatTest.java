package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.sun.management.ThreadMXBean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ProcStat}: the start time and state of real processes (this one, a zombie, one that is gone) as the
 * JDK's file API reads them, and no heap allocation per check once warm, since every wait that outlasts its
 * spinning runs one per liveness interval.
 */
@Timeout(60)
class ProcStatTest
{
    private static final ThreadMXBean THREADS = (ThreadMXBean)ManagementFactory.getThreadMXBean();

    @Test
    void shouldReadTheStartTimeTheFileHolds() throws IOException
    {
        final long pid = ProcessHandle.current().pid();
        final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");

        assertEquals(Long.parseLong(fields[19]), ProcStat.startTicks(pid));
    }

    @Test
    void shouldTakeAZombieForGone() throws Exception
    {
        // The shell's background child exits a second later, once its parent has become sleep, which never reaps
        // it (a child that ended before the exec could be reaped by the shell itself, as on a loaded machine).
        final Process parent = new ProcessBuilder("sh", "-c", "sleep 1 & echo $!; exec sleep 30").start();
        try
        {
            final long zombie;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(),
                StandardCharsets.US_ASCII)))
            {
                zombie = Long.parseLong(out.readLine().strip());
            }
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!isZombie(zombie) && System.nanoTime() - deadlineNs < 0)
            {
                Thread.sleep(10);
            }
            assertTrue(isZombie(zombie), "process " + zombie + " never became a zombie");

            assertEquals(ProcStat.GONE, ProcStat.startTicks(zombie));
            assertTrue(ProcStat.startTicks(parent.pid()) > 0, "its parent runs");
        }
        finally
        {
            parent.destroyForcibly().waitFor();
        }
    }

    @Test
    void shouldTakeAnEndedProcessForGone() throws Exception
    {
        final Process ended = new ProcessBuilder("true").start();
        ended.waitFor();

        assertEquals(ProcStat.GONE, ProcStat.startTicks(ended.pid()));
        assertEquals(ProcStat.GONE, ProcStat.startTicks(0));
    }

    @Test
    void shouldAllocateNothingPerCheckOnceWarm()
    {
        final long pid = ProcessHandle.current().pid();
        final int checks = 20_000;
        for (int i = 0; i < checks; i++)
        {
            ProcStat.startTicks(pid);
        }
        final long start = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < checks; i++)
        {
            ProcStat.startTicks(pid);
        }
        final long bytes = THREADS.getCurrentThreadAllocatedBytes() - start;

        // Less than a byte a check: no object per check (the reader through strings made some 3 KB each).
        assertTrue(bytes < checks, bytes + " bytes in " + checks + " checks");
    }

    private static boolean isZombie(final long pid) throws IOException
    {
        final Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat))
        {
            return false;
        }
        final String line = Files.readString(stat);
        return line.charAt(line.lastIndexOf(')') + 2) == 'Z';
    }
}
