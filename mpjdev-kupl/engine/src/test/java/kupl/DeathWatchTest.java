package kupl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The death watch records a dead rank that no wait would find, within its interval, and calls that read the
 * record fail naming it. Dead ranks are identities with a pid no process has.
 */
@Timeout(30)
class DeathWatchTest
{
    private static final long INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long PATIENCE_NS = TimeUnit.SECONDS.toNanos(10);

    /** A process that cannot exist: no pid is that high, so /proc has no entry for it. */
    private static ProcessIdentity deadProcess(final int pidBelowMax)
    {
        return new ProcessIdentity(Integer.MAX_VALUE - pidBelowMax, 12345, 1);
    }

    private static Liveness liveness(final DeadRankRecord record, final ProcessIdentity... others)
    {
        final ProcessIdentity[] ranks = new ProcessIdentity[others.length + 1];
        ranks[0] = ProcessIdentity.current();
        System.arraycopy(others, 0, ranks, 1, others.length);
        return new Liveness(List.of(ranks), 0, record);
    }

    private static void awaitRecord(final DeadRankRecord record)
    {
        final long deadlineNs = System.nanoTime() + PATIENCE_NS;
        while (record.firstDeadRank() < 0)
        {
            assertTrue(System.nanoTime() - deadlineNs < 0, "the watch recorded nothing within 10 s");
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldRecordADeadRankThatNoWaitLooksForAndFailTheCallsThatReadTheRecord()
    {
        final DeadRankRecord record = DeadRankRecord.processLocal();
        final Liveness liveness = liveness(record, ProcessIdentity.current(), deadProcess(0));

        try (DeathWatch watch = DeathWatch.start(liveness, INTERVAL_NS))
        {
            awaitRecord(record);
        }
        final PeerDeathException e = assertThrows(PeerDeathException.class, () -> liveness.checkRecorded("Win.lock"));

        assertAll(
            () -> assertEquals(2, record.firstDeadRank()),
            () -> assertEquals(2, e.deadRank()),
            () -> assertTrue(e.getMessage().startsWith("rank 2 died: process " + Integer.MAX_VALUE + " has exited"),
                e.getMessage()),
            () -> assertTrue(e.getMessage().endsWith("rank 0 cannot go on with Win.lock"), e.getMessage()));
    }

    @Test
    void shouldRecordNothingWhileEveryRankLives() throws InterruptedException
    {
        final DeadRankRecord record = DeadRankRecord.processLocal();
        final Liveness liveness = liveness(record, ProcessIdentity.current());

        try (DeathWatch watch = DeathWatch.start(liveness, INTERVAL_NS))
        {
            Thread.sleep(100);
        }

        assertEquals(-1, record.firstDeadRank());
        liveness.checkRecorded("Win.lock");
    }

    @Test
    void shouldTouchTheRecordNoMoreOnceClosed() throws InterruptedException
    {
        final DeadRankRecord record = DeadRankRecord.processLocal();
        final DeathWatch watch = DeathWatch.start(liveness(record, deadProcess(0)), TimeUnit.MILLISECONDS.toNanos(50));

        watch.close();
        Thread.sleep(200);

        assertEquals(-1, record.firstDeadRank(), "a closed watch recorded a death: its memory may be gone by then");
    }

    @Test
    void shouldNameTheDeathThatAnotherRecordOfTheProcessHoldsRatherThanTheLowestDeadRank()
    {
        // The device's record names the first death of the job (rank 1 here, pid MAX-1); a survivor that gave up
        // because of it (pid MAX, ranked lower in the window) is dead too by the window's first check.
        final ProcessIdentity first = deadProcess(1);
        final ProcessIdentity gaveUp = deadProcess(0);
        final DeadRankRecord deviceRecord = DeadRankRecord.processLocal();
        final DeadRankRecord windowRecord = DeadRankRecord.processLocal();

        try (DeathWatch device = DeathWatch.start(liveness(deviceRecord, first), INTERVAL_NS))
        {
            awaitRecord(deviceRecord);
            try (DeathWatch window = DeathWatch.start(liveness(windowRecord, gaveUp, first), INTERVAL_NS))
            {
                awaitRecord(windowRecord);
            }
        }

        assertEquals(2, windowRecord.firstDeadRank(), "the window names the device's first death, not rank 1");
    }
}
