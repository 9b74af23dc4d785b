package mpi.rma.internal.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The lock manager of a window reached by messages: in order, shared together, exclusive alone. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
public class PassiveLockQueueTest
{
    private static final int OWN = 0;

    @Test
    void shouldGrantSharedLocksTogether()
    {
        final PassiveLockQueue queue = new PassiveLockQueue(OWN);

        assertEquals(List.of(1), queue.request(1, false));
        assertEquals(List.of(2), queue.request(2, false));
    }

    @Test
    void shouldGrantAnExclusiveLockOnlyWhenNobodyHoldsOne()
    {
        final PassiveLockQueue queue = new PassiveLockQueue(OWN);
        queue.request(1, false);

        assertEquals(List.of(), queue.request(2, true));
        assertEquals(List.of(2), queue.release(false));
        assertEquals(List.of(), queue.request(3, false));
        assertEquals(List.of(3), queue.release(true));
    }

    @Test
    void shouldHoldBackSharedRequestsBehindAWaitingExclusiveOne()
    {
        final PassiveLockQueue queue = new PassiveLockQueue(OWN);
        queue.request(1, false);
        queue.request(2, true);

        assertEquals(List.of(), queue.request(3, false), "a shared request jumped a waiting exclusive one");
        assertEquals(List.of(2), queue.release(false));
        assertEquals(List.of(3), queue.release(true));
    }

    @Test
    void shouldWakeTheOwnProcessWhenItsTurnComes() throws Exception
    {
        final PassiveLockQueue queue = new PassiveLockQueue(OWN);
        queue.request(1, true);
        final CountDownLatch acquired = new CountDownLatch(1);
        final Thread own = new Thread(() ->
        {
            try
            {
                queue.acquireLocal(true);
                acquired.countDown();
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        });
        own.start();

        assertEquals(1, acquired.getCount(), "granted while rank 1 holds the exclusive lock");
        assertEquals(List.of(), queue.release(true), "the own process is woken, not told by message");
        assertTrue(acquired.await(10, TimeUnit.SECONDS), "the own process was not woken");
        own.join();
    }
}
