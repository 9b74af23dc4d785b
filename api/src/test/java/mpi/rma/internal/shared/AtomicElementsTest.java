package mpi.rma.internal.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import mpi.rma.internal.HeapSharedMemory;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Element-wise atomicity of the accumulate family, with threads standing in for processes:
 * lock-free paths (aligned 4- and 8-byte elements) and locked ones (small or misaligned).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class AtomicElementsTest
{
    private static final int THREADS = 4;
    private static final int UPDATES = 20_000;

    @Test
    void shouldChooseLockFreeOnlyForAlignedWords()
    {
        final HeapSharedMemory memory = new HeapSharedMemory(1, 64);
        final MemorySegment segment = memory.segment(0);

        assertTrue(AtomicElements.isLockFree(segment, 8, BasicType.LONG));
        assertTrue(AtomicElements.isLockFree(segment, 4, BasicType.FLOAT));
        assertFalse(AtomicElements.isLockFree(segment, 4, BasicType.LONG));
        assertFalse(AtomicElements.isLockFree(segment, 2, BasicType.SHORT));
        assertFalse(AtomicElements.isLockFree(segment, 0, BasicType.BYTE));
        memory.free();
    }

    @Test
    void shouldLoseNoUpdateOnAnyPath() throws Exception
    {
        final HeapSharedMemory memory = new HeapSharedMemory(THREADS, 64);
        final MemorySegment target = memory.segment(0);
        runOnThreads(memory, atomics ->
        {
            for (int i = 0; i < UPDATES; i++)
            {
                atomics.getAndApply(0, target, 0, BasicType.INT, ReduceOp.SUM, 1);
                atomics.getAndApply(0, target, 8, BasicType.DOUBLE, ReduceOp.SUM, Double.doubleToRawLongBits(0.5));
                atomics.getAndApply(0, target, 17, BasicType.LONG, ReduceOp.SUM, 3);
                atomics.getAndApply(0, target, 26, BasicType.SHORT, ReduceOp.SUM, 1);
                atomics.getAndApply(0, target, 32, BasicType.LONG, ReduceOp.BXOR, 1L << (i % 64));
                atomics.getAndApply(0, target, 40, BasicType.FLOAT, ReduceOp.MAX, Float.floatToRawIntBits(i));
            }
        });

        final long total = (long)THREADS * UPDATES;
        assertEquals(total, target.get(ValueLayout.JAVA_INT, 0));
        assertEquals(total * 0.5, target.get(ValueLayout.JAVA_DOUBLE, 8));
        assertEquals(3 * total, target.get(ValueLayout.JAVA_LONG_UNALIGNED, 17));
        assertEquals((short)total, target.get(ValueLayout.JAVA_SHORT_UNALIGNED, 26));
        assertEquals(0, target.get(ValueLayout.JAVA_LONG, 32), "an even number of flips of every bit");
        assertEquals(UPDATES - 1, target.get(ValueLayout.JAVA_FLOAT, 40));
        memory.free();
    }

    @Test
    void shouldLetExactlyOneCompareAndSwapWinEachValue() throws Exception
    {
        final HeapSharedMemory memory = new HeapSharedMemory(THREADS, 64);
        final MemorySegment target = memory.segment(0);
        final int[] wins = new int[THREADS];
        runOnThreads(memory, atomics ->
        {
            final int thread = (int)Thread.currentThread().threadId() % THREADS;
            for (int i = 0; i < UPDATES; i++)
            {
                // A counter at an odd address (locked path) and one aligned (lock-free): both must count every win.
                final long seen = atomics.getAndApply(0, target, 1, BasicType.INT, ReduceOp.NO_OP, 0);
                if (atomics.compareAndSwap(0, target, 1, BasicType.INT, seen, seen + 1) == seen)
                {
                    atomics.getAndApply(0, target, 8, BasicType.LONG, ReduceOp.SUM, 1);
                    synchronized (wins)
                    {
                        wins[thread]++;
                    }
                }
            }
        });

        assertEquals(target.get(ValueLayout.JAVA_LONG, 8), target.get(ValueLayout.JAVA_INT_UNALIGNED, 1));
        assertTrue(target.get(ValueLayout.JAVA_LONG, 8) >= UPDATES, "at least one thread's worth of wins");
        memory.free();
    }

    @Test
    void shouldSwapEachPairWhole() throws Exception
    {
        final HeapSharedMemory memory = new HeapSharedMemory(THREADS, 64);
        final MemorySegment target = memory.segment(0);
        final long[][] seen = new long[THREADS][];
        final int[] next = {0};
        final CyclicBarrier start = new CyclicBarrier(THREADS);
        runOnThreads(memory, atomics ->
        {
            final int thread;
            synchronized (next)
            {
                thread = next[0]++;
            }
            awaitOthers(start);
            final long[] old = new long[2 * UPDATES];
            for (int i = 0; i < UPDATES; i++)
            {
                // Value v + 1 with index -(v + 1): a pair torn between two swaps shows as halves that disagree.
                final long value = (long)thread * UPDATES + i + 1;
                atomics.applyPair(0, target, 8, BasicType.LONG, ReduceOp.PAIR_REPLACE, new long[] {value, -value}, 0,
                    old, 2 * i);
            }
            seen[thread] = old;
        });

        // Every swap took the pair another left: each value, and the initial (0, 0), is seen exactly once.
        final boolean[] taken = new boolean[THREADS * UPDATES + 1];
        for (final long[] old : seen)
        {
            for (int i = 0; i < old.length; i += 2)
            {
                assertEquals(-old[i], old[i + 1], "the halves of one pair");
                assertFalse(taken[(int)old[i]], "value " + old[i] + " swapped out twice: an update was lost");
                taken[(int)old[i]] = true;
            }
        }
        final long last = target.get(ValueLayout.JAVA_LONG, 8);
        assertEquals(-last, target.get(ValueLayout.JAVA_LONG, 16));
        assertFalse(taken[(int)last], "the final pair was also swapped out");
        memory.free();
    }

    /** All threads at once: started one by one, each could end its updates before the next began. */
    private static void awaitOthers(final CyclicBarrier start)
    {
        try
        {
            start.await();
        }
        catch (final InterruptedException | BrokenBarrierException e)
        {
            throw new IllegalStateException(e);
        }
    }

    private interface Work
    {
        void run(AtomicElements atomics);
    }

    private static void runOnThreads(final HeapSharedMemory memory, final Work work) throws InterruptedException
    {
        final List<Thread> threads = new ArrayList<>();
        final List<Throwable> failures = new ArrayList<>();
        for (int rank = 0; rank < THREADS; rank++)
        {
            final AtomicElements atomics = new AtomicElements(new TargetLocks(memory, rank));
            final Thread thread = new Thread(() -> work.run(atomics));
            thread.setUncaughtExceptionHandler((t, e) ->
            {
                synchronized (failures)
                {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertEquals(List.of(), failures);
    }
}
