package xdev.shmdev.coll;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import com.sun.management.ThreadMXBean;
import kupl.ShmWin;

/**
 * Counts the heap bytes that the engine's waits allocate in the collectives (its fence and
 * {@code awaitCondition} make objects when a rank has to wait for the others), when
 * {@value #PROPERTY}{@code =on}: the allocation test subtracts them to show that this package's own path
 * allocates nothing per call. Off (the default), the check folds away: {@link #COUNTING} is a constant.
 */
final class EngineWaitAllocation
{
    /** System property: {@code on} counts the engine's waits' allocations (two counter reads per wait). */
    static final String PROPERTY = "kupl.coll.countEngineWaitAllocation";
    static final boolean COUNTING = "on".equals(System.getProperty(PROPERTY));

    private static final AtomicLong BYTES = new AtomicLong();
    private static final ThreadMXBean THREADS = COUNTING ? (ThreadMXBean)ManagementFactory.getThreadMXBean() : null;

    private EngineWaitAllocation()
    {
    }

    /** {@code win.fence()}, adding what it allocated in this thread to the count. */
    static void fence(final ShmWin win)
    {
        final long startBytes = THREADS.getCurrentThreadAllocatedBytes();
        win.fence();
        BYTES.addAndGet(THREADS.getCurrentThreadAllocatedBytes() - startBytes);
    }

    /** {@code win.awaitCondition(condition, what)}, adding what it allocated in this thread to the count. */
    static void await(final ShmWin win, final BooleanSupplier condition, final String what)
    {
        final long startBytes = THREADS.getCurrentThreadAllocatedBytes();
        win.awaitCondition(condition, what);
        BYTES.addAndGet(THREADS.getCurrentThreadAllocatedBytes() - startBytes);
    }

    /** Bytes counted so far, all threads of this process together; 0 unless counting. */
    static long bytes()
    {
        return BYTES.get();
    }
}
