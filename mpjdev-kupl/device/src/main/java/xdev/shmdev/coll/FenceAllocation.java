package xdev.shmdev.coll;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.management.ThreadMXBean;
import kupl.ShmWin;

/**
 * Counts the heap bytes that the engine's fence allocates in the collectives (the engine's waits make
 * objects when a rank has to wait for the others), when {@value #PROPERTY}{@code =on}: the allocation test
 * subtracts them to show that this package's own path allocates nothing per call. Off (the default), the
 * check folds away: {@link #COUNTING} is a constant.
 */
final class FenceAllocation
{
    /** System property: {@code on} counts the fence's allocations (costs two counter reads per fence). */
    static final String PROPERTY = "kupl.coll.countFenceAllocation";
    static final boolean COUNTING = "on".equals(System.getProperty(PROPERTY));

    private static final AtomicLong BYTES = new AtomicLong();
    private static final ThreadMXBean THREADS = COUNTING ? (ThreadMXBean)ManagementFactory.getThreadMXBean() : null;

    private FenceAllocation()
    {
    }

    /** {@code win.fence()}, adding what it allocated in this thread to the count. */
    static void fence(final ShmWin win)
    {
        final long startBytes = THREADS.getCurrentThreadAllocatedBytes();
        win.fence();
        BYTES.addAndGet(THREADS.getCurrentThreadAllocatedBytes() - startBytes);
    }

    /** Bytes counted so far, all threads of this process together; 0 unless counting. */
    static long bytes()
    {
        return BYTES.get();
    }
}
