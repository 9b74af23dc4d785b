package mpi.rma.internal.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.HeapSharedMemory;
import mpi.rma.internal.shared.ClientArea;
import mpi.rma.spi.SharedMemory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The flag words of post and complete ({@link PscwFlags}) between threads standing in for two
 * processes on one {@link HeapSharedMemory}: rank 0 is the target, rank 1 the origin.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
public class PscwFlagsTest
{
    private final HeapSharedMemory memory = new HeapSharedMemory(2, 64);
    private final PscwFlags target = new PscwFlags(memory, 0, 2, PscwFlags.identity(2));
    private final PscwFlags origin = new PscwFlags(memory, 1, 2, PscwFlags.identity(2));

    @AfterEach
    void free()
    {
        memory.free();
    }

    @Test
    void shouldHoldStartUntilTheTargetPosts() throws Exception
    {
        final CompletableFuture<Void> start = CompletableFuture.runAsync(() -> origin.start("Win.start", 0, false));
        Thread.sleep(100);
        assertFalse(start.isDone(), "start returned before the post");

        target.post("Win.post", 1, false);

        start.get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldNotWaitForThePostWithNoCheck()
    {
        // Nobody posts: with MODE_NOCHECK the start returns at once all the same.
        origin.start("Win.start", 0, true);
        origin.complete("Win.complete", 0);
    }

    @Test
    void shouldCountCompletesPerPost() throws Exception
    {
        target.post("Win.post", 1, false);
        assertFalse(target.completed("Win.test", 1), "completed before any complete");
        origin.start("Win.start", 0, false);
        memory.segment(0).set(ValueLayout.JAVA_LONG, 0, 42);
        origin.complete("Win.complete", 0);

        assertTrue(target.completed("Win.test", 1));
        target.awaitComplete("Win.waitFor", 1);
        assertEquals(42, memory.segment(0).get(ValueLayout.JAVA_LONG, 0));

        // The second epoch needs a second complete: the first one does not count for it.
        target.post("Win.post", 1, false);
        assertFalse(target.completed("Win.test", 1), "the first epoch's complete counted for the second");
        final CompletableFuture<Void> wait = CompletableFuture.runAsync(() -> target.awaitComplete("Win.waitFor", 1));
        origin.start("Win.start", 0, false);
        origin.complete("Win.complete", 0);
        wait.get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldKeepCountsInStepWhenPostAndStartBothAssertNoCheck() throws Exception
    {
        target.post("Win.post", 1, true);
        origin.start("Win.start", 0, true);
        origin.complete("Win.complete", 0);
        target.awaitComplete("Win.waitFor", 1);

        // The next epoch without the assertion must wait for its own post, not take the last one's.
        final CompletableFuture<Void> start = CompletableFuture.runAsync(() -> origin.start("Win.start", 0, false));
        Thread.sleep(100);
        assertFalse(start.isDone(), "the second start took the first epoch's post");
        target.post("Win.post", 1, false);
        start.get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldRefuseAClientAreaTooSmallForTheFlags()
    {
        // A provider that keeps to the old contract: a line per process plus one, no rows for the flags.
        final SharedMemory small = new SharedMemory()
        {
            @Override
            public MemorySegment segment(final int rank)
            {
                return memory.segment(rank);
            }

            @Override
            public MemorySegment clientArea()
            {
                return memory.clientArea().asSlice(0, 3L * ClientArea.LINE_BYTES);
            }

            @Override
            public void fence()
            {
                memory.fence();
            }

            @Override
            public void awaitCondition(final BooleanSupplier condition, final String what)
            {
                memory.awaitCondition(condition, what);
            }

            @Override
            public void checkProcesses(final String call)
            {
                memory.checkProcesses(call);
            }

            @Override
            public void free()
            {
                // The test's memory is freed after each test.
            }
        };

        final RmaException e = assertThrows(RmaException.class, () -> new PscwFlags(small, 0, 2,
            PscwFlags.identity(2)));

        assertEquals(ErrorClass.ERR_OTHER, e.errorClass());
        assertTrue(e.getMessage().contains("needs " + ClientArea.requiredBytes(2)), e.getMessage());
    }
}
