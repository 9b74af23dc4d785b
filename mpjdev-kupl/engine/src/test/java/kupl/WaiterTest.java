package kupl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Waiter} in one process: the condition re-checked after every park (parks return
 * for no reason), checked once per check (a condition may take what it waits for), progress
 * restarting the backoff, the interrupt status kept, and the liveness check and guards run at
 * the interval, with the first dead rank recorded for every waiter that shares the record.
 * Dead ranks are identities with a pid that no process has ({@link #deadRank()}).
 */
@Timeout(30)
class WaiterTest
{
    /** Parks in no time, as a park that returns for no reason would. */
    private static final Parker RETURN_AT_ONCE = (blocker, maxNs, ready) ->
    {
    };

    /** Spins 0, yields 0, parks 1-1 ns through {@code parker}. */
    private static BackoffIdle.Settings parkAtOnce(final Parker parker)
    {
        return new BackoffIdle.Settings(0, 0, 1, 1, parker);
    }

    private static Liveness liveness(final DeadRankRecord record, final ProcessIdentity... others)
    {
        final ProcessIdentity[] ranks = new ProcessIdentity[others.length + 1];
        ranks[0] = ProcessIdentity.current();
        System.arraycopy(others, 0, ranks, 1, others.length);
        return new Liveness(List.of(ranks), 0, record);
    }

    /** A process that cannot exist: no pid is that high, so /proc has no entry for it. */
    private static ProcessIdentity deadRank()
    {
        return new ProcessIdentity(Integer.MAX_VALUE, 12345, 1);
    }

    private static Waiter waiter(final Liveness liveness, final Parker parker)
    {
        return new Waiter(parkAtOnce(parker), liveness, 1);
    }

    @Test
    void shouldReCheckTheConditionAfterEveryParkUntilItHolds()
    {
        final AtomicInteger parks = new AtomicInteger();
        final AtomicInteger checks = new AtomicInteger();
        final Waiter waiter = waiter(liveness(DeadRankRecord.processLocal()), (blocker, maxNs, ready) ->
            parks.incrementAndGet());

        waiter.await(() -> checks.incrementAndGet() >= 50, "a test condition");

        assertEquals(50, checks.get());
        assertTrue(parks.get() >= 48, "a park between checks: " + parks.get());
    }

    @Test
    void shouldNotAllocateAWaitWhenTheConditionHoldsAtOnce()
    {
        final AtomicInteger parks = new AtomicInteger();
        final Waiter waiter = waiter(liveness(DeadRankRecord.processLocal()), (blocker, maxNs, ready) ->
            parks.incrementAndGet());

        waiter.await(() -> true, "a condition that holds");

        assertEquals(0, parks.get());
    }

    @Test
    void shouldCountTheParkersReadyCheckAsTheCheckSoThatATakingConditionRunsOncePerSuccess()
    {
        // A lock's condition takes the lock: asked twice after one success it would take it twice.
        final AtomicInteger free = new AtomicInteger(0);
        final AtomicInteger taken = new AtomicInteger();
        final BooleanSupplier take = () ->
        {
            if (free.get() > 0)
            {
                free.decrementAndGet();
                taken.incrementAndGet();
                return true;
            }
            return false;
        };
        final Parker wakeable = (blocker, maxNs, ready) ->
        {
            free.set(1);
            if (ready.getAsBoolean())
            {
                return;
            }
            throw new AssertionError("the lock was free when the parker re-checked");
        };

        waiter(liveness(DeadRankRecord.processLocal()), wakeable).await(take, "a lock");

        assertEquals(1, taken.get());
    }

    @Test
    void shouldStartTheBackoffOverWhenAnAttemptDidWork()
    {
        final AtomicInteger attempts = new AtomicInteger();
        final AtomicInteger parks = new AtomicInteger();
        final Waiter waiter = new Waiter(new BackoffIdle.Settings(2, 0, 1, 1, (blocker, maxNs, ready) ->
            parks.incrementAndGet()), liveness(DeadRankRecord.processLocal()), 1);

        // Work on every attempt but the last: the spins (2) are never used up, so nothing parks.
        waiter.await(() -> attempts.incrementAndGet() >= 20 ? Waiter.Outcome.MET : Waiter.Outcome.WORKED,
            "a device draining its queues");

        assertEquals(20, attempts.get());
        assertEquals(0, parks.get());
    }

    @Test
    void shouldKeepWaitingWhenInterruptedAndGiveTheInterruptBackAfterwards()
    {
        final AtomicInteger checks = new AtomicInteger();
        final AtomicInteger interruptedParks = new AtomicInteger();
        final Waiter waiter = waiter(liveness(DeadRankRecord.processLocal()), (blocker, maxNs, ready) ->
        {
            if (Thread.currentThread().isInterrupted())
            {
                interruptedParks.incrementAndGet();
            }
        });
        try
        {
            Thread.currentThread().interrupt();

            waiter.await(() -> checks.incrementAndGet() >= 10, "an interrupted wait");

            assertAll(
                () -> assertEquals(10, checks.get()),
                () -> assertEquals(0, interruptedParks.get()),
                () -> assertTrue(Thread.currentThread().isInterrupted()));
        }
        finally
        {
            Thread.interrupted();
        }
    }

    @Test
    void shouldFailNamingTheDeadRankInsteadOfWaitingForEver()
    {
        final Waiter waiter = waiter(liveness(DeadRankRecord.processLocal(), deadRank()), RETURN_AT_ONCE);

        final PeerDeathException e = assertThrows(PeerDeathException.class,
            () -> waiter.await(() -> false, "test wait #1"));

        assertAll(
            () -> assertEquals(1, e.deadRank()),
            () -> assertTrue(e.getMessage().startsWith("rank 1 died: process " + Integer.MAX_VALUE + " has exited"),
                e.getMessage()),
            () -> assertTrue(e.getMessage().contains("rank 0 gave up after waiting"), e.getMessage()),
            () -> assertTrue(e.getMessage().endsWith("in test wait #1"), e.getMessage()));
    }

    @Test
    void shouldEndTheWaitWhenTheDeadPeerMadeTheConditionTrueBeforeItWent()
    {
        final DeadRankRecord record = DeadRankRecord.processLocal();
        final Waiter waiter = waiter(liveness(record, deadRank()), RETURN_AT_ONCE);

        // The condition turns true only once the liveness check has seen the peer gone: as when a
        // peer sets a flag and exits while this wait parks, before the wait looks at the flag again.
        waiter.await(() -> record.firstDeadRank() >= 0, "a flag the peer set before exiting");

        assertEquals(1, record.firstDeadRank());
    }

    @Test
    void shouldCheckOnlyTheAwaitedPeerWhenOneIsNamed()
    {
        final AtomicInteger checks = new AtomicInteger();
        final Waiter waiter = waiter(liveness(DeadRankRecord.processLocal(), deadRank(), ProcessIdentity.current()),
            RETURN_AT_ONCE);

        // Rank 1 is dead, but only rank 2 (alive) can end this wait.
        waiter.await(() -> checks.incrementAndGet() >= 1_000, 2, WaitGuard.NONE, "a peer fence");

        assertEquals(1_000, checks.get());
    }

    @Test
    void shouldNameTheRankRecordedFirstByAnotherWaiter()
    {
        final DeadRankRecord shared = DeadRankRecord.processLocal();
        final ProcessIdentity dead = deadRank();
        final Waiter first = waiter(liveness(shared, ProcessIdentity.current(), dead), RETURN_AT_ONCE);
        final Waiter second = waiter(liveness(shared, dead, ProcessIdentity.current()), RETURN_AT_ONCE);

        final PeerDeathException found = assertThrows(PeerDeathException.class, () -> first.await(() -> false, "w"));
        // The second waiter's own rank 1 is dead too, but the record names rank 2.
        final PeerDeathException told = assertThrows(PeerDeathException.class, () -> second.await(() -> false, "w"));

        assertAll(
            () -> assertEquals(2, found.deadRank()),
            () -> assertEquals(2, shared.firstDeadRank()),
            () -> assertEquals(2, told.deadRank()),
            () -> assertTrue(told.getMessage().contains("another rank waiting with this one, or a death watch, found it " +
                "gone"), told.getMessage()));
    }

    @Test
    void shouldRunTheGuardAtTheIntervalAndLetItEndTheWait()
    {
        final Waiter waiter = waiter(liveness(DeadRankRecord.processLocal()), RETURN_AT_ONCE);
        final WaitGuard guard = (what, waitedNs) ->
        {
            throw new KuplException(what + " can never complete");
        };

        final KuplException e = assertThrows(KuplException.class,
            () -> waiter.await(() -> false, Liveness.ANY_RANK, guard, "fence #3"));

        assertEquals("fence #3 can never complete", e.getMessage());
    }

    @Test
    // A separate thread: a wait that misses the record spins without end, and only a preemptive timeout fails it.
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldEndAWaitThatKeepsWorkingOnceADeathIsRecorded()
    {
        final DeadRankRecord record = DeadRankRecord.processLocal();
        final Waiter waiter = waiter(liveness(record, ProcessIdentity.current(), deadRank()), RETURN_AT_ONCE);
        final AtomicInteger attempts = new AtomicInteger();

        // Work that never stops (other ranks' messages) never lets the wait idle to its timed check; a death
        // watch records rank 2 meanwhile. Before, such a wait went on for as long as the work did.
        final PeerDeathException e = assertThrows(PeerDeathException.class, () -> waiter.await(() ->
        {
            if (attempts.incrementAndGet() == 100)
            {
                record.record(2);
            }
            return Waiter.Outcome.WORKED;
        }, "a receive from rank 1"));

        assertAll(
            () -> assertEquals(2, e.deadRank()),
            () -> assertEquals(100, attempts.get(), "the first pass after the record ends it"),
            () -> assertTrue(e.getMessage().endsWith("in a receive from rank 1"), e.getMessage()));
    }

    @Test
    void shouldFailAWaitAtItsStartWhenADeathIsRecordedAlready()
    {
        final DeadRankRecord record = DeadRankRecord.processLocal();
        record.record(1);
        final Waiter waiter = waiter(liveness(record, deadRank()), RETURN_AT_ONCE);
        final AtomicInteger checks = new AtomicInteger();

        assertThrows(PeerDeathException.class, () -> waiter.await(() -> checks.incrementAndGet() > 1_000_000, "w"));

        assertEquals(1, checks.get(), "only the check before the wait");
    }

    @Test
    void shouldRefuseAPeerOutsideTheRanks()
    {
        final Waiter waiter = waiter(liveness(DeadRankRecord.processLocal()), RETURN_AT_ONCE);

        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> waiter.await(() -> false, 5, WaitGuard.NONE, "w"));

        assertTrue(e.getMessage().contains("rank=5"), e.getMessage());
    }

    @Test
    void shouldParkWithTheParkerItWasGiven()
    {
        final AtomicInteger parks = new AtomicInteger();
        final Waiter waiter = Waiter.fromConfig(KuplConfig.defaults(), liveness(DeadRankRecord.processLocal()));
        final Parker counting = (blocker, maxNs, ready) -> parks.incrementAndGet();

        final Waiter withParker = waiter.withParker(counting, 5, 7);

        assertAll(
            () -> assertSame(counting, withParker.idleSettings().parker()),
            () -> assertEquals(5, withParker.idleSettings().minParkNs()),
            () -> assertEquals(7, withParker.idleSettings().maxParkNs()),
            () -> assertFalse(waiter.idleSettings().parker() == counting, "the original is unchanged"));
    }
}
