package kupl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * Lets a process sleep until another process has something for it, with a prompt wake-up: a
 * ring counter and a sleeper count in shared memory, and a Linux futex on the counter. Unlike
 * parking for a fixed period, a sleeper is woken as soon as it is rung, so that a process can
 * stop spinning early without paying a timer's latency.
 *
 * <p>Protocol (no lost wake-up): a sleeper reads {@link #ringCount()}, announces itself
 * ({@link #enter()}, a full fence), checks its condition once more, and only then
 * {@link #sleep}s while the count is unchanged; afterwards it calls {@link #leave()}. A
 * waker first publishes what the sleeper waits for, then calls {@link #ringIfSleeping()}
 * (a full fence, then a ring only if someone announced itself).
 *
 * <p>The bell occupies {@link #BYTES} bytes (two cache lines) of 8-byte-aligned shared memory,
 * zero at first.
 */
public final class Doorbell
{
    /** Shared memory a bell needs. */
    public static final long BYTES = 128;

    private static final long COUNT_OFFSET = 0;
    private static final long SLEEPERS_OFFSET = 64;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    /**
     * Each thread's {@code struct timespec} for the futex's timeout, made once: a sleep allocates nothing, since
     * a wait that parks on every message of a loaded machine must make no garbage. Freed with its thread.
     */
    private static final ThreadLocal<MemorySegment> TIMESPEC =
        ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(ValueLayout.JAVA_LONG, 2));

    private final MemorySegment memory;
    private final MemorySegment count;

    public Doorbell(final MemorySegment memory)
    {
        if (memory.byteSize() < BYTES || (memory.address() & 7) != 0)
        {
            throw new IllegalArgumentException("a doorbell needs " + BYTES + " bytes at an 8-byte boundary, not " +
                memory.byteSize() + " bytes at 0x" + Long.toHexString(memory.address()));
        }
        this.memory = memory;
        this.count = memory.asSlice(COUNT_OFFSET, Integer.BYTES);
    }

    /** How many times the bell has been rung (wraps around): read before {@link #enter()}. */
    public int ringCount()
    {
        // Acquire: pairs with ring()'s volatile add; the futex compares the value read here.
        return (int)INT.getAcquire(memory, COUNT_OFFSET);
    }

    /** Announces a sleeper; a full fence, so that the sleeper's next check sees what a waker published before. */
    public void enter()
    {
        // Volatile add, a full fence: the sleeper's next check of its condition cannot move before
        // it, and a waker's volatile read of the sleepers in ringIfSleeping sees it.
        final int ignored = (int)INT.getAndAdd(memory, SLEEPERS_OFFSET, 1);
    }

    /** Withdraws the announcement of {@link #enter()}. */
    public void leave()
    {
        // Volatile add: wakers stop ringing for this sleeper once they see it.
        final int ignored = (int)INT.getAndAdd(memory, SLEEPERS_OFFSET, -1);
    }

    /**
     * Sleeps until the bell is rung after {@code seenCount} was read, or {@code timeoutNs} has
     * passed, or spuriously; returns at once if it was rung already.
     */
    public void sleep(final int seenCount, final long timeoutNs)
    {
        final MemorySegment timespec = TIMESPEC.get();
        timespec.setAtIndex(ValueLayout.JAVA_LONG, 0, timeoutNs / 1_000_000_000L);
        timespec.setAtIndex(ValueLayout.JAVA_LONG, 1, timeoutNs % 1_000_000_000L);
        Libc.futexWait(count, seenCount, timespec);
    }

    /**
     * Wakes the sleepers, if there are any: to be called after publishing what they may wait for.
     * Costs a full fence and a shared read when nobody sleeps.
     */
    public void ringIfSleeping()
    {
        // Full fence, then a volatile read: the waker's publication cannot pass the read of the
        // sleepers (Dekker with enter(): either the sleeper sees the publication or the waker sees it).
        VarHandle.fullFence();
        if ((int)INT.getVolatile(memory, SLEEPERS_OFFSET) > 0)
        {
            ring();
        }
    }

    /** Rings unconditionally. */
    public void ring()
    {
        // Volatile add: a sleeper that read the count before this add finds it changed (the futex
        // returns at once) or is woken below.
        final int ignored = (int)INT.getAndAdd(memory, COUNT_OFFSET, 1);
        Libc.futexWakeAll(count);
    }

    /**
     * This bell as the park step of a {@link Waiter} ({@link Waiter#withParker}): follows the
     * protocol above, with the waiter's next check as the check made after {@link #enter()},
     * and sleeps until rung or for the park period.
     */
    public Parker asParker()
    {
        return (final Object blocker, final long maxNs, final BooleanSupplier ready) ->
        {
            final int seen = ringCount();
            enter();
            try
            {
                if (!ready.getAsBoolean())
                {
                    sleep(seen, maxNs);
                }
            }
            finally
            {
                leave();
            }
        };
    }
}
