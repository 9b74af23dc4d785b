package kupl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Doorbell} and its {@link DeadRankRecord} neighbour: the layouts (sizes, alignment, the
 * counter and the sleepers on separate cache lines), the no-lost-wake-up protocol of
 * {@link Doorbell#asParker()}, and the record set once.
 */
@Timeout(30)
class DoorbellTest
{
    private static final long HOUR_NS = TimeUnit.HOURS.toNanos(1);

    @Test
    void shouldKeepCounterAndSleepersOnSeparateCacheLines()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(Doorbell.BYTES, 64);
            final Doorbell bell = new Doorbell(memory);

            bell.enter();
            bell.ring();

            assertAll(
                () -> assertEquals(128, Doorbell.BYTES),
                () -> assertEquals(1, memory.get(ValueLayout.JAVA_INT, 0), "ring count at 0"),
                () -> assertEquals(1, memory.get(ValueLayout.JAVA_INT, 64), "sleepers a cache line further"),
                () -> assertEquals(1, bell.ringCount()));
        }
    }

    @Test
    void shouldRefuseTooLittleOrMisalignedMemory()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(2 * Doorbell.BYTES, 8);

            assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> new Doorbell(memory.asSlice(0, 64))),
                () -> assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> new Doorbell(memory.asSlice(4, Doorbell.BYTES))).getMessage().contains("8-byte boundary")));
        }
    }

    @Test
    void shouldNotSleepWhenTheReCheckFindsTheConditionReady()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Doorbell bell = new Doorbell(arena.allocate(Doorbell.BYTES, 8));
            final AtomicInteger checks = new AtomicInteger();

            // An hour's park: the test would time out if the parker slept.
            bell.asParker().park(this, HOUR_NS, () -> checks.incrementAndGet() > 0);

            assertEquals(1, checks.get());
        }
    }

    @Test
    void shouldNotSleepWhenRungBetweenReadingTheCountAndSleeping()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Doorbell bell = new Doorbell(arena.allocate(Doorbell.BYTES, 8));

            // The waker rings during the sleeper's re-check: the futex then sees a changed count.
            bell.asParker().park(this, HOUR_NS, () ->
            {
                bell.ringIfSleeping();
                return false;
            });

            assertEquals(1, bell.ringCount());
        }
    }

    @Test
    void shouldWakeASleeperThatIsRung() throws InterruptedException
    {
        try (Arena arena = Arena.ofShared())
        {
            final Doorbell bell = new Doorbell(arena.allocate(Doorbell.BYTES, 8));
            final AtomicInteger checks = new AtomicInteger();
            final Thread sleeper = Thread.ofPlatform().start(() -> bell.asParker().park(this, HOUR_NS, () ->
            {
                checks.incrementAndGet();
                return false;
            }));

            while (checks.get() == 0)
            {
                Thread.onSpinWait();
            }
            // The sleeper announced itself before its check, so this rings; it then sleeps on a
            // count that has changed, or is woken from it. Without the ring it would sleep an hour.
            bell.ringIfSleeping();
            sleeper.join();

            assertEquals(1, checks.get());
        }
    }

    @Test
    void shouldRecordTheFirstDeadRankOnly()
    {
        final DeadRankRecord record = DeadRankRecord.processLocal();

        final int before = record.firstDeadRank();
        final int first = record.record(3);
        final int second = record.record(1);

        assertAll(
            () -> assertEquals(-1, before),
            () -> assertEquals(3, first),
            () -> assertEquals(3, second, "a later finder is told the first rank"),
            () -> assertEquals(3, record.firstDeadRank()));
    }

    @Test
    void shouldRefuseAMisalignedDeadRankRecord()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(16, 8);

            assertAll(
                () -> assertThrows(IllegalArgumentException.class, () -> new DeadRankRecord(memory.asSlice(4, 8))),
                () -> assertThrows(IllegalArgumentException.class, () -> new DeadRankRecord(memory.asSlice(0, 4))));
        }
    }

    @Test
    void shouldAllocateNothingPerSleepOnceWarm()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined())
        {
            final Doorbell bell = new Doorbell(arena.allocate(Doorbell.BYTES, 64));
            final int sleeps = 20_000;
            for (int i = 0; i < sleeps; i++)
            {
                // Rung already: the futex returns at once, as a sleep that races with its waker does.
                bell.sleep(bell.ringCount() - 1, HOUR_NS);
            }
            final long start = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < sleeps; i++)
            {
                bell.sleep(bell.ringCount() - 1, HOUR_NS);
            }
            final long bytes = threads.getCurrentThreadAllocatedBytes() - start;

            // Less than a byte a sleep: a wait that parks on every message of a loaded machine makes no garbage.
            assertTrue(bytes < sleeps, bytes + " bytes in " + sleeps + " sleeps");
        }
    }
}
