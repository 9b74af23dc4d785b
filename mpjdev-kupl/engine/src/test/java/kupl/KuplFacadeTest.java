package kupl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.IntSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every call of the C-shaped facade {@link Kupl}: what it returns on success, and that each
 * bad argument gives {@link Kupl#KUPL_ERROR} with exactly one line on standard error,
 * {@code kupl: <C function>: <reason>}, naming the bad value. Runs in this JVM on a comm of
 * one process (or of threads), so no process is started.
 */
@Timeout(30)
class KuplFacadeTest
{
    private static final Duration OOB_TIMEOUT = Duration.ofSeconds(10);

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream originalErr;
    private ShmComm comm;

    @BeforeEach
    void setUp()
    {
        comm = ShmComm.create(1, 0, ThreadOob.pid(), new ThreadOob(1, OOB_TIMEOUT).member(0), null);
        originalErr = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void tearDown()
    {
        System.setErr(originalErr);
        // Process-wide setting: leave the default for the other tests.
        Kupl.shmInfoSet(ShmInfoFlag.IS_CONTIG, 0);
        if (!comm.isDestroyed())
        {
            comm.close();
        }
    }

    // ---- success paths --------------------------------------------------------------------

    @Test
    void shouldCreateCommOfOneProcessAndReportRankAndSize()
    {
        final ShmComm[] created = new ShmComm[1];
        final int[] rank = {-1};
        final int[] size = {-1};

        assertOk(() -> Kupl.shmCommCreate(1, 0, ThreadOob.pid(), new ThreadOob(1, OOB_TIMEOUT).member(0), "group",
            created));
        assertNotNull(created[0]);
        assertOk(() -> Kupl.shmCommRank(created[0], rank));
        assertOk(() -> Kupl.shmCommSize(created[0], size));
        assertOk(() -> Kupl.shmCommDestroy(created[0]));

        assertEquals(0, rank[0]);
        assertEquals(1, size[0]);
        assertTrue(created[0].isDestroyed());
    }

    @Test
    void shouldAllocateQueryFenceAndFreeWindow()
    {
        final MemorySegment[] base = new MemorySegment[1];
        final ShmWin[] win = new ShmWin[1];
        final MemorySegment[] queried = new MemorySegment[1];

        assertOk(() -> Kupl.shmWinAlloc(24, comm, base, win));
        base[0].set(ValueLayout.JAVA_LONG, 16, 0x5A5AL);
        assertOk(() -> Kupl.shmFence(win[0]));
        assertOk(() -> Kupl.shmPeerFence(win[0], 0));
        assertOk(() -> Kupl.shmWinQuery(win[0], 0, queried));

        assertEquals(24, base[0].byteSize());
        assertEquals(base[0].address(), queried[0].address());
        assertEquals(0x5A5AL, queried[0].get(ValueLayout.JAVA_LONG, 16));
        assertOk(() -> Kupl.shmWinFree(win[0]));
        assertTrue(win[0].isFreed());
    }

    @Test
    void shouldAllocateZeroSizedWindow()
    {
        final MemorySegment[] base = new MemorySegment[1];
        final ShmWin[] win = new ShmWin[1];

        assertOk(() -> Kupl.shmWinAlloc(0, comm, base, win));

        assertEquals(0, base[0].byteSize());
        assertOk(() -> Kupl.shmFence(win[0]));
        assertOk(() -> Kupl.shmWinFree(win[0]));
    }

    @Test
    void shouldAllocateContiguousWindowsAfterInfoSet() throws Exception
    {
        assertOk(() -> Kupl.shmInfoSet(ShmInfoFlag.IS_CONTIG, 1));

        final List<Boolean> contiguous = ThreadOob.runAll(2, OOB_TIMEOUT, (rank, oob) ->
        {
            try (ShmComm threads = ShmComm.create(2, rank, ThreadOob.pid(), oob, null))
            {
                final MemorySegment[] base = new MemorySegment[1];
                final ShmWin[] win = new ShmWin[1];
                final MemorySegment[] peer = new MemorySegment[1];
                check(Kupl.shmWinAlloc(40 + 8L * rank, threads, base, win) == Kupl.KUPL_OK, "alloc");
                check(Kupl.shmWinQuery(win[0], 1, peer) == Kupl.KUPL_OK, "query");
                final boolean backToBack = win[0].isContiguous() &&
                    peer[0].address() == win[0].segment(0).address() + 40;
                check(Kupl.shmWinFree(win[0]) == Kupl.KUPL_OK, "free");
                return backToBack;
            }
        });

        assertEquals(List.of(true, true), contiguous, "rank 1's segment must start 40 bytes after rank 0's");
        assertNoErrorOutput();
    }

    // ---- kupl_shm_comm_create --------------------------------------------------------------

    @Test
    void shouldRejectCommCreateWithNullOutArray()
    {
        assertError("kupl_shm_comm_create", "comm must be an array of at least one element",
            () -> Kupl.shmCommCreate(1, 0, ThreadOob.pid(), oob(), null, null));
    }

    @Test
    void shouldRejectCommCreateWithEmptyOutArray()
    {
        assertError("kupl_shm_comm_create", "comm must be an array of at least one element",
            () -> Kupl.shmCommCreate(1, 0, ThreadOob.pid(), oob(), null, new ShmComm[0]));
    }

    @Test
    void shouldRejectCommCreateWithNullCallbacks()
    {
        final ShmComm[] out = new ShmComm[1];

        assertError("kupl_shm_comm_create", "oob_cbs is null",
            () -> Kupl.shmCommCreate(1, 0, ThreadOob.pid(), null, null, out));
        assertNull(out[0]);
    }

    @Test
    void shouldRejectCommCreateWithSizeBelowOne()
    {
        assertError("kupl_shm_comm_create", "comm size=0 must be at least 1",
            () -> Kupl.shmCommCreate(0, 0, ThreadOob.pid(), oob(), null, new ShmComm[1]));
        assertError("kupl_shm_comm_create", "comm size=-3 must be at least 1",
            () -> Kupl.shmCommCreate(-3, 0, ThreadOob.pid(), oob(), null, new ShmComm[1]));
    }

    @Test
    void shouldRejectCommCreateWithRankOutOfRange()
    {
        assertError("kupl_shm_comm_create", "rank=1 is outside the comm: give 0 to 0",
            () -> Kupl.shmCommCreate(1, 1, ThreadOob.pid(), oob(), null, new ShmComm[1]));
        assertError("kupl_shm_comm_create", "rank=-1 is outside the comm: give 0 to 3",
            () -> Kupl.shmCommCreate(4, -1, ThreadOob.pid(), oob(), null, new ShmComm[1]));
    }

    @Test
    void shouldRejectCommCreateWithAnotherProcessesPid()
    {
        final long wrongPid = ThreadOob.pid() + 1_000_000;
        final ShmComm[] out = new ShmComm[1];

        final String line = assertError("kupl_shm_comm_create", "pid argument " + wrongPid +
            " is not this process's id " + ThreadOob.pid(), () -> Kupl.shmCommCreate(1, 0, wrongPid, oob(), null, out));

        assertTrue(line.contains("failed on rank 0"), line);
        assertNull(out[0]);
    }

    @Test
    void shouldFailCommCreateWhenAllgatherCallbackFails()
    {
        final OobCallbacks failing = new OobCallbacks()
        {
            @Override
            public int oobAllgather(final byte[] sendbuf, final byte[] recvbuf, final int size, final Object group,
                final ShmDatatype datatype)
            {
                return 7;
            }

            @Override
            public int oobBarrier(final Object group)
            {
                return Kupl.KUPL_OK;
            }
        };

        assertError("kupl_shm_comm_create", "the out-of-band allgather callback returned 7 on rank 0",
            () -> Kupl.shmCommCreate(1, 0, ThreadOob.pid(), failing, null, new ShmComm[1]));
    }

    // ---- kupl_shm_comm_rank / kupl_shm_comm_size -------------------------------------------

    @Test
    void shouldRejectRankAndSizeQueriesWithNullComm()
    {
        assertError("kupl_shm_comm_rank", "comm is null", () -> Kupl.shmCommRank(null, new int[1]));
        assertError("kupl_shm_comm_size", "comm is null", () -> Kupl.shmCommSize(null, new int[1]));
    }

    @Test
    void shouldRejectRankAndSizeQueriesWithNullOrEmptyOutArray()
    {
        assertError("kupl_shm_comm_rank", "rank must be an array of at least one element",
            () -> Kupl.shmCommRank(comm, null));
        assertError("kupl_shm_comm_rank", "rank must be an array of at least one element",
            () -> Kupl.shmCommRank(comm, new int[0]));
        assertError("kupl_shm_comm_size", "size must be an array of at least one element",
            () -> Kupl.shmCommSize(comm, null));
        assertError("kupl_shm_comm_size", "size must be an array of at least one element",
            () -> Kupl.shmCommSize(comm, new int[0]));
    }

    // ---- kupl_shm_win_alloc ----------------------------------------------------------------

    @Test
    void shouldRejectWinAllocWithNullComm()
    {
        assertError("kupl_shm_win_alloc", "comm is null",
            () -> Kupl.shmWinAlloc(8, null, new MemorySegment[1], new ShmWin[1]));
    }

    @Test
    void shouldRejectWinAllocWithNullOrEmptyOutArrays()
    {
        assertError("kupl_shm_win_alloc", "baseptr must be an array of at least one element",
            () -> Kupl.shmWinAlloc(8, comm, null, new ShmWin[1]));
        assertError("kupl_shm_win_alloc", "baseptr must be an array of at least one element",
            () -> Kupl.shmWinAlloc(8, comm, new MemorySegment[0], new ShmWin[1]));
        assertError("kupl_shm_win_alloc", "win must be an array of at least one element",
            () -> Kupl.shmWinAlloc(8, comm, new MemorySegment[1], null));
        assertError("kupl_shm_win_alloc", "win must be an array of at least one element",
            () -> Kupl.shmWinAlloc(8, comm, new MemorySegment[1], new ShmWin[0]));
    }

    @Test
    void shouldRejectWinAllocWithNegativeSize()
    {
        final ShmWin[] win = new ShmWin[1];

        assertError("kupl_shm_win_alloc", "size=-5 is negative", () -> Kupl.shmWinAlloc(-5, comm, new MemorySegment[1], win));

        assertNull(win[0]);
        // The failed allocation leaves the comm usable and holding no window.
        assertOk(() -> Kupl.shmCommDestroy(comm));
    }

    // ---- kupl_shm_win_query ----------------------------------------------------------------

    @Test
    void shouldRejectWinQueryWithNullWinOrOutArray()
    {
        final ShmWin win = comm.allocate(8, false);

        assertError("kupl_shm_win_query", "win is null", () -> Kupl.shmWinQuery(null, 0, new MemorySegment[1]));
        assertError("kupl_shm_win_query", "baseptr must be an array of at least one element",
            () -> Kupl.shmWinQuery(win, 0, null));
        assertError("kupl_shm_win_query", "baseptr must be an array of at least one element",
            () -> Kupl.shmWinQuery(win, 0, new MemorySegment[0]));
        win.close();
    }

    @Test
    void shouldRejectWinQueryWithRankOutsideComm()
    {
        final ShmWin win = comm.allocate(8, false);

        assertError("kupl_shm_win_query", "rank=1 is outside the comm: give 0 to 0",
            () -> Kupl.shmWinQuery(win, 1, new MemorySegment[1]));
        assertError("kupl_shm_win_query", "rank=-2 is outside the comm: give 0 to 0",
            () -> Kupl.shmWinQuery(win, -2, new MemorySegment[1]));
        win.close();
    }

    // ---- kupl_shm_fence / kupl_shm_peer_fence ----------------------------------------------

    @Test
    void shouldRejectFencesWithNullWin()
    {
        assertError("kupl_shm_fence", "win is null", () -> Kupl.shmFence(null));
        assertError("kupl_shm_peer_fence", "win is null", () -> Kupl.shmPeerFence(null, 0));
    }

    @Test
    void shouldRejectPeerFenceWithRankOutsideComm()
    {
        final ShmWin win = comm.allocate(8, false);

        assertError("kupl_shm_peer_fence", "rank=3 is outside the comm: give 0 to 0", () -> Kupl.shmPeerFence(win, 3));
        assertError("kupl_shm_peer_fence", "rank=-1 is outside the comm: give 0 to 0", () -> Kupl.shmPeerFence(win, -1));
        win.close();
    }

    // ---- kupl_shm_win_free -----------------------------------------------------------------

    @Test
    void shouldRejectWinFreeWithNullWin()
    {
        assertError("kupl_shm_win_free", "win is null", () -> Kupl.shmWinFree(null));
    }

    @Test
    void shouldRejectDoubleFree()
    {
        final ShmWin win = comm.allocate(8, false);
        assertOk(() -> Kupl.shmWinFree(win));

        assertError("kupl_shm_win_free", "win has been freed", () -> Kupl.shmWinFree(win));
    }

    @Test
    void shouldRejectEveryWinCallAfterFree()
    {
        final ShmWin win = comm.allocate(8, false);
        win.close();

        assertError("kupl_shm_win_query", "win has been freed", () -> Kupl.shmWinQuery(win, 0, new MemorySegment[1]));
        assertError("kupl_shm_fence", "win has been freed", () -> Kupl.shmFence(win));
        assertError("kupl_shm_peer_fence", "win has been freed", () -> Kupl.shmPeerFence(win, 0));
    }

    // ---- kupl_shm_comm_destroy -------------------------------------------------------------

    @Test
    void shouldRejectCommDestroyWithNullComm()
    {
        assertError("kupl_shm_comm_destroy", "comm is null", () -> Kupl.shmCommDestroy(null));
    }

    @Test
    void shouldRejectCommDestroyWhileWindowAllocated()
    {
        final ShmWin win = comm.allocate(8, false);

        assertError("kupl_shm_comm_destroy", "still has 1 window(s) allocated", () -> Kupl.shmCommDestroy(comm));

        assertFalse(comm.isDestroyed(), "a refused destroy must leave the comm usable");
        win.close();
        assertOk(() -> Kupl.shmCommDestroy(comm));
    }

    @Test
    void shouldRejectEveryCommCallAfterDestroy()
    {
        assertOk(() -> Kupl.shmCommDestroy(comm));

        assertError("kupl_shm_comm_destroy", "comm has been destroyed", () -> Kupl.shmCommDestroy(comm));
        assertError("kupl_shm_comm_rank", "comm has been destroyed", () -> Kupl.shmCommRank(comm, new int[1]));
        assertError("kupl_shm_comm_size", "comm has been destroyed", () -> Kupl.shmCommSize(comm, new int[1]));
        assertError("kupl_shm_win_alloc", "comm has been destroyed",
            () -> Kupl.shmWinAlloc(8, comm, new MemorySegment[1], new ShmWin[1]));
    }

    // ---- kupl_shm_info_set -----------------------------------------------------------------

    @Test
    void shouldRejectInfoSetWithNullFlag()
    {
        assertError("kupl_shm_info_set", "flag is null", () -> Kupl.shmInfoSet(null, 1));
    }

    @Test
    void shouldRejectInfoSetWithValueOtherThanZeroOrOne()
    {
        assertError("kupl_shm_info_set", "IS_CONTIG value=2 is not allowed: give 0 or 1",
            () -> Kupl.shmInfoSet(ShmInfoFlag.IS_CONTIG, 2));
        assertError("kupl_shm_info_set", "IS_CONTIG value=-1 is not allowed: give 0 or 1",
            () -> Kupl.shmInfoSet(ShmInfoFlag.IS_CONTIG, -1));

        // A rejected value leaves the setting as it was (not contiguous).
        final ShmWin[] win = new ShmWin[1];
        assertOk(() -> Kupl.shmWinAlloc(8, comm, new MemorySegment[1], win));
        assertFalse(win[0].isContiguous());
        win[0].close();
    }

    // ---- helpers ---------------------------------------------------------------------------

    private static OobCallbacks oob()
    {
        return new ThreadOob(1, OOB_TIMEOUT).member(0);
    }

    private static void check(final boolean condition, final String what)
    {
        if (!condition)
        {
            throw new IllegalStateException(what + " failed");
        }
    }

    private void assertOk(final IntSupplier call)
    {
        final int before = captured.size();
        final int result = call.getAsInt();
        final String printed = captured.toString(StandardCharsets.UTF_8).substring(before);
        assertAll(
            () -> assertEquals(Kupl.KUPL_OK, result, "stderr: " + printed),
            () -> assertEquals("", printed, "a successful call prints nothing"));
    }

    private void assertNoErrorOutput()
    {
        assertEquals("", captured.toString(StandardCharsets.UTF_8));
    }

    /**
     * Asserts the call returns KUPL_ERROR and prints exactly one line
     * {@code kupl: <function>: ...<detail>...}; returns that line.
     */
    private String assertError(final String function, final String detail, final IntSupplier call)
    {
        final int before = captured.size();
        final int result = call.getAsInt();
        final String printed = captured.toString(StandardCharsets.UTF_8).substring(before);
        final List<String> lines = printed.lines().toList();
        assertAll(
            () -> assertEquals(Kupl.KUPL_ERROR, result, "stderr: " + printed),
            () -> assertEquals(1, lines.size(), "exactly one line on stderr, got: " + printed),
            () -> assertTrue(printed.startsWith("kupl: " + function + ": "), "prefix, got: " + printed),
            () -> assertTrue(printed.contains(detail), "expected '" + detail + "' in: " + printed));
        return lines.isEmpty() ? "" : lines.get(0);
    }
}
