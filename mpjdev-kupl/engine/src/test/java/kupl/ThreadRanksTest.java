package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Ranks that are threads of one JVM, as MPJ Express's multicore mode runs them: the fence
 * makes each thread's stores visible to the others exactly as between processes, and a
 * rank thread that ends while the others wait in a fence is reported by name, quickly,
 * instead of leaving them waiting for ever.
 */
class ThreadRanksTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int ROUNDS = 50;
    /** How soon a waiter must report a rank that has ended (docs/design.md#dead-processes-are-detected: "within a few seconds"). */
    private static final Duration DETECTION_LIMIT = Duration.ofSeconds(5);

    @ParameterizedTest
    @EnumSource(FenceAlgorithm.class)
    @Timeout(60)
    void shouldSeeEveryThreadsWritesAfterFence(final FenceAlgorithm algorithm) throws Exception
    {
        final KuplConfig config = KuplConfig.defaults().withFenceAlgorithm(algorithm);

        final List<String> results = ThreadOob.runAll(4, TIMEOUT, (rank, oob) ->
        {
            try (ShmComm comm = ShmComm.create(4, rank, ThreadOob.pid(), oob, null, config);
                ShmWin win = comm.allocate(VisibilityRank.sizeOf(rank), false))
            {
                for (int round = 1; round <= ROUNDS; round++)
                {
                    final MemorySegment own = win.base();
                    for (long i = 0; i < own.byteSize() / 8; i++)
                    {
                        own.setAtIndex(ValueLayout.JAVA_LONG, i, VisibilityRank.pattern(rank, round, i));
                    }
                    win.fence();
                    for (int peer = 0; peer < 4; peer++)
                    {
                        final MemorySegment segment = win.segment(peer);
                        for (long i = 0; i < segment.byteSize() / 8; i++)
                        {
                            final long seen = segment.getAtIndex(ValueLayout.JAVA_LONG, i);
                            if (seen != VisibilityRank.pattern(peer, round, i))
                            {
                                return "round " + round + ": rank " + peer + " word " + i + " is " + seen;
                            }
                        }
                    }
                    win.fence();
                }
                return "ok after " + win.fenceCount() + " fences";
            }
        });

        assertEquals(List.of("ok after 100 fences", "ok after 100 fences", "ok after 100 fences",
            "ok after 100 fences"), results);
    }

    /**
     * Rank 3 returns without fencing while ranks 0-2 enter a fence. Each of them must get a
     * {@link PeerDeathException} naming rank 3 within a few seconds, even one that waits for
     * it only through another rank (in rd, rank 0 waits for rank 2, which waits for rank 3).
     * The ranks that gave up stay alive until all have reported, so that an error can only
     * name rank 3.
     */
    @ParameterizedTest
    @EnumSource(FenceAlgorithm.class)
    @Timeout(60)
    void shouldReportEndedThreadRankToEveryWaiter(final FenceAlgorithm algorithm) throws Exception
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of("KUPL_SHM_LIVENESS_MS", "100",
            "KUPL_SHM_FENCE_ALGORITHM", algorithm.envValue()));
        final CountDownLatch reported = new CountDownLatch(3);

        final List<ThreadOob.Outcome<Object>> outcomes = ThreadOob.run(4, TIMEOUT, (rank, oob) ->
        {
            final ShmComm comm = ShmComm.create(4, rank, ThreadOob.pid(), oob, null, config);
            final ShmWin win = comm.allocate(64, false);
            win.fence();
            if (rank == 3)
            {
                // Ends without the second fence and without freeing, as a rank that crashed.
                return win;
            }
            final long startNs = System.nanoTime();
            try
            {
                win.fence();
                return "fence completed without rank 3";
            }
            catch (final PeerDeathException e)
            {
                final Report report = new Report(e, (System.nanoTime() - startNs) / 1_000_000);
                reported.countDown();
                // Stay alive (a live rank that waits for this one must not be reported instead).
                reported.await(DETECTION_LIMIT.toMillis() * 2, TimeUnit.MILLISECONDS);
                freeQuietly(win);
                return report;
            }
        });
        // The dead rank's window: its free fails or completes, and unmaps the memory either way.
        if (outcomes.get(3).result() instanceof final ShmWin abandoned)
        {
            freeQuietly(abandoned);
        }

        final StringBuilder all = new StringBuilder();
        outcomes.forEach(o -> all.append("\n  rank ").append(o.rank()).append(": ")
            .append(o.failure() != null ? o.failure() : o.result()));
        assertNull(outcomes.get(3).failure(), all.toString());
        for (int rank = 0; rank < 3; rank++)
        {
            final Report report = assertInstanceOf(Report.class, outcomes.get(rank).orThrow(), all.toString());
            assertEquals(3, report.death().deadRank(), all.toString());
            // Found by this rank itself ("its thread (id ...) has ended") or recorded by another waiter.
            assertTrue(report.death().getMessage().startsWith("rank 3 died: "), all.toString());
            assertTrue(report.death().getMessage().contains("rank " + rank + " gave up after waiting"), all.toString());
            assertTrue(report.waitedMs() < DETECTION_LIMIT.toMillis(), all.toString());
        }
    }

    /**
     * A rank that is a virtual thread and simply takes its time must not be declared dead:
     * rank 1 sleeps for ten liveness intervals before its fence while rank 0 waits.
     */
    @ParameterizedTest
    @EnumSource(FenceAlgorithm.class)
    @Timeout(60)
    void shouldWaitForSlowVirtualThreadRank(final FenceAlgorithm algorithm) throws Exception
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of("KUPL_SHM_LIVENESS_MS", "20",
            "KUPL_SHM_FENCE_ALGORITHM", algorithm.envValue()));

        final List<ThreadOob.Outcome<Long>> outcomes = ThreadOob.run(2, TIMEOUT, Thread.ofVirtual(), (rank, oob) ->
        {
            try (ShmComm comm = ShmComm.create(2, rank, ThreadOob.pid(), oob, null, config);
                ShmWin win = comm.allocate(8, false))
            {
                if (rank == 1)
                {
                    Thread.sleep(200);
                    win.base().set(ValueLayout.JAVA_LONG, 0, 42L);
                }
                win.fence();
                return win.segment(1).get(ValueLayout.JAVA_LONG, 0);
            }
        });

        assertEquals(42L, outcomes.get(0).orThrow());
        assertEquals(42L, outcomes.get(1).orThrow());
    }

    /** What a waiting rank got, and after how long. */
    private record Report(PeerDeathException death, long waitedMs)
    {
        @Override
        public String toString()
        {
            return "after " + waitedMs + " ms: " + death.getMessage();
        }
    }

    private static void freeQuietly(final ShmWin win)
    {
        try
        {
            win.close();
        }
        catch (final PeerDeathException expected)
        {
            // a rank is gone, so the free's fence cannot complete; the memory is unmapped anyway
        }
    }
}
