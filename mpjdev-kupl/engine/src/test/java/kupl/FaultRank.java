package kupl;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import kupl.bootstrap.SocketOob;

/**
 * One process of the failure scenarios: creates a comm, allocates a window, checks that
 * every segment is visible after a fence, fences some more, frees. One rank, the victim, can
 * stop at a chosen point, for the test to kill it there, or throw. Arguments are
 * {@code key=value}:
 * <ul>
 *   <li>{@code victim=R} (default none) and {@code action=}{@code sleep-before-alloc},
 *   {@code sleep-after-alloc}, {@code sleep-after-fence} (print "ready" there, then sleep
 *   until killed) or {@code throw-after-alloc} (an exception escapes {@code main} with the
 *   window still allocated);</li>
 *   <li>{@code bytes=N}: each segment's size (default 4096);</li>
 *   <li>{@code rounds=N} or {@code rounds=forever}: fences after the visibility check;</li>
 *   <li>{@code hold=yes}: once the window is checked, print "holding" and wait for a line on
 *   standard input before freeing.</li>
 * </ul>
 * Prints "comm created", "allocated", "visible", "fencing", "done" as it gets there. An
 * engine error prints "error: CLASS: MESSAGE" (and "dead rank: R" for a
 * {@link PeerDeathException}) and exits with {@link FailureJobs#KUPL_ERROR_EXIT}; any other
 * exception escapes {@code main} (exit 1, stack trace on standard error).
 */
public final class FaultRank
{
    private static final long PAGE = 4096;

    public static void main(final String[] args) throws Exception
    {
        final Map<String, String> options = new HashMap<>();
        for (final String arg : args)
        {
            final int eq = arg.indexOf('=');
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        final int victim = Integer.parseInt(options.getOrDefault("victim", "-1"));
        final String action = options.getOrDefault("action", "none");
        final long bytes = Long.parseLong(options.getOrDefault("bytes", "4096"));
        final String rounds = options.getOrDefault("rounds", "0");
        final boolean hold = "yes".equals(options.get("hold"));
        try
        {
            run(victim, action, bytes, rounds, hold);
        }
        catch (final KuplException e)
        {
            report(e);
            System.exit(FailureJobs.KUPL_ERROR_EXIT);
        }
        System.out.println("done");
    }

    private static void run(final int victim, final String action, final long bytes, final String rounds,
        final boolean hold) throws Exception
    {
        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null))
        {
            final int rank = comm.rank();
            final boolean isVictim = rank == victim;
            System.out.println("comm created");
            stopIf(isVictim && "sleep-before-alloc".equals(action));

            // Not in try-with-resources: a failing rank must not run the collective free on its way out.
            final long startNs = System.nanoTime();
            final ShmWin win = comm.allocate(bytes, false);
            System.out.println("allocated in " + (System.nanoTime() - startNs) / 1_000_000 + " ms");
            if (isVictim && "throw-after-alloc".equals(action))
            {
                throw new IllegalStateException("deliberate failure of rank " + rank + " with its window allocated");
            }
            stopIf(isVictim && "sleep-after-alloc".equals(action));

            writePattern(win.base(), rank);
            win.fence();
            for (int peer = 0; peer < comm.size(); peer++)
            {
                checkPattern(win.segment(peer), peer, rank);
            }
            // Nobody may write into its segment again before everyone has checked it.
            win.fence();
            System.out.println("visible");
            stopIf(isVictim && "sleep-after-fence".equals(action));

            System.out.println("fencing");
            final long count = "forever".equals(rounds) ? Long.MAX_VALUE : Long.parseLong(rounds);
            for (long i = 0; i < count; i++)
            {
                win.base().set(ValueLayout.JAVA_LONG, 0, i);
                win.fence();
            }
            if (hold)
            {
                System.out.println("holding");
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)).readLine();
            }
            win.close();
        }
    }

    private static void stopIf(final boolean stop) throws InterruptedException
    {
        if (stop)
        {
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /** One word per page (and the last word), so that large segments are checked quickly. */
    static void writePattern(final MemorySegment segment, final int rank)
    {
        for (long offset = 0; offset + 8 <= segment.byteSize(); offset += PAGE)
        {
            segment.set(ValueLayout.JAVA_LONG, offset, pattern(rank, offset));
        }
        if (segment.byteSize() >= 8)
        {
            final long last = (segment.byteSize() - 8) & ~7L;
            segment.set(ValueLayout.JAVA_LONG, last, pattern(rank, last));
        }
    }

    static void checkPattern(final MemorySegment segment, final int owner, final int reader)
    {
        for (long offset = 0; offset + 8 <= segment.byteSize(); offset += PAGE)
        {
            checkWord(segment, owner, reader, offset);
        }
        if (segment.byteSize() >= 8)
        {
            checkWord(segment, owner, reader, (segment.byteSize() - 8) & ~7L);
        }
    }

    private static void checkWord(final MemorySegment segment, final int owner, final int reader, final long offset)
    {
        final long seen = segment.get(ValueLayout.JAVA_LONG, offset);
        if (seen != pattern(owner, offset))
        {
            throw new IllegalStateException("rank " + reader + " reads " + seen + " at offset " + offset + " of rank " +
                owner + "'s segment, expected " + pattern(owner, offset));
        }
    }

    static long pattern(final int rank, final long offset)
    {
        return ((long)(rank + 1) << 48) ^ offset;
    }

    /** Prints an engine error the way the tests look for it. */
    static void report(final KuplException e)
    {
        System.out.println("error: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        for (final Throwable suppressed : e.getSuppressed())
        {
            System.out.println("suppressed: " + suppressed);
        }
        if (e instanceof PeerDeathException death)
        {
            System.out.println("dead rank: " + death.deadRank());
        }
    }
}
