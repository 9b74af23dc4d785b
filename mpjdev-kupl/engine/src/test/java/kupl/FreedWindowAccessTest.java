package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * After a window is freed, memory obtained from it earlier (the base, and other ranks'
 * segments from a query) throws {@link IllegalStateException} on every access, as after
 * closing an {@code Arena}, instead of touching unmapped memory and crashing the JVM; the
 * window's own calls fail with a {@link KuplException}.
 */
class FreedWindowAccessTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    static Stream<Arguments> layouts()
    {
        final List<Arguments> layouts = new ArrayList<>();
        for (final ShmType type : ShmType.values())
        {
            layouts.add(Arguments.of(type, false));
            layouts.add(Arguments.of(type, true));
        }
        return layouts.stream();
    }

    @ParameterizedTest(name = "{0} contiguous={1}")
    @MethodSource("layouts")
    @Timeout(30)
    void shouldThrowOnAccessThroughOldSegmentsAfterFree(final ShmType type, final boolean contiguous)
        throws Exception
    {
        final KuplConfig config = KuplConfig.defaults().withShmType(type);

        final List<List<String>> results = ThreadOob.runAll(3, TIMEOUT, (rank, oob) ->
        {
            try (ShmComm comm = ShmComm.create(3, rank, ThreadOob.pid(), oob, null, config))
            {
                final ShmWin win = comm.allocate(32, contiguous);
                final MemorySegment base = win.base();
                final MemorySegment next = win.segment((rank + 1) % 3);
                base.set(ValueLayout.JAVA_LONG, 0, rank);
                win.fence();
                final long before = next.get(ValueLayout.JAVA_LONG, 0);
                win.close();

                final List<String> thrown = new ArrayList<>();
                thrown.add("read before free: " + before);
                thrown.add(kind(() -> base.get(ValueLayout.JAVA_LONG, 0)));
                thrown.add(kind(() -> base.set(ValueLayout.JAVA_LONG, 8, 1L)));
                thrown.add(kind(() -> next.get(ValueLayout.JAVA_LONG, 0)));
                thrown.add(kind(() -> next.set(ValueLayout.JAVA_LONG, 8, 1L)));
                thrown.add(kind(() -> base.fill((byte)0)));
                thrown.add(kind(win::base));
                thrown.add(kind(() -> win.segment(0)));
                thrown.add(kind(win::fence));
                return thrown;
            }
        });

        for (int rank = 0; rank < 3; rank++)
        {
            assertEquals(List.of("read before free: " + (rank + 1) % 3,
                "IllegalStateException", "IllegalStateException", "IllegalStateException", "IllegalStateException",
                "IllegalStateException",
                "KuplException: the window has been freed", "KuplException: the window has been freed",
                "KuplException: the window has been freed"), results.get(rank), "rank " + rank);
        }
    }

    @Test
    @Timeout(30)
    void shouldThrowOnAccessThroughFacadeBaseAfterFree() throws Exception
    {
        final String result = ThreadOob.runAll(1, TIMEOUT, (rank, oob) ->
        {
            final ShmComm[] comm = new ShmComm[1];
            final MemorySegment[] base = new MemorySegment[1];
            final MemorySegment[] queried = new MemorySegment[1];
            final ShmWin[] win = new ShmWin[1];
            assertEquals(Kupl.KUPL_OK, Kupl.shmCommCreate(1, 0, ThreadOob.pid(), oob, null, comm));
            assertEquals(Kupl.KUPL_OK, Kupl.shmWinAlloc(16, comm[0], base, win));
            assertEquals(Kupl.KUPL_OK, Kupl.shmWinQuery(win[0], 0, queried));
            assertEquals(Kupl.KUPL_OK, Kupl.shmWinFree(win[0]));
            assertEquals(Kupl.KUPL_OK, Kupl.shmCommDestroy(comm[0]));
            return kind(() -> base[0].get(ValueLayout.JAVA_BYTE, 0)) + ", " +
                kind(() -> queried[0].set(ValueLayout.JAVA_BYTE, 15, (byte)1));
        }).get(0);

        assertEquals("IllegalStateException, IllegalStateException", result);
    }

    @Test
    @Timeout(30)
    void shouldKeepOtherWindowsMemoryUsableWhenOneIsFreed() throws Exception
    {
        final List<Long> seen = ThreadOob.runAll(2, TIMEOUT, (rank, oob) ->
        {
            try (ShmComm comm = ShmComm.create(2, rank, ThreadOob.pid(), oob, null))
            {
                final ShmWin first = comm.allocate(8, false);
                final ShmWin second = comm.allocate(8, false);
                second.base().set(ValueLayout.JAVA_LONG, 0, 100L + rank);
                first.close();
                second.fence();
                final long value = second.segment(1 - rank).get(ValueLayout.JAVA_LONG, 0);
                assertTrue(kind(() -> first.segment(0)).startsWith("KuplException"));
                second.close();
                return value;
            }
        });

        assertEquals(List.of(101L, 100L), seen);
    }

    /** The simple name of what {@code access} throws (and the message for KuplException), or "no exception". */
    private static String kind(final Runnable access)
    {
        try
        {
            access.run();
            return "no exception";
        }
        catch (final KuplException e)
        {
            return "KuplException: " + e.getMessage();
        }
        catch (final RuntimeException e)
        {
            return e.getClass().getSimpleName();
        }
    }
}
