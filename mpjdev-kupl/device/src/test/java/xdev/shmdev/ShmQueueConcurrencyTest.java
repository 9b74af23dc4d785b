package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ShmQueue} with several producers writing at once, each on a thread of its own, into one
 * segment of shared memory, and the owner reading on another: nothing lost, nothing duplicated,
 * each producer's records in its order and intact, across many laps of a small data area (so
 * that records wrap, padding is written and the queue is often full).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmQueueConcurrencyTest
{
    private static final int CAPACITY = 4096;
    private static final int PRODUCERS = 4;
    private static final int RECORDS_PER_PRODUCER = 8_000;
    private static final int MAX_PAYLOAD = 300;
    /** Each payload starts with the producer's record number; the rest is a pattern of both. */
    private static final int NUMBER_BYTES = Integer.BYTES;

    @Test
    void shouldDeliverEveryRecordOfEveryProducerOnceAndInItsOrder() throws Exception
    {
        // One more rank than producers: rank 0 is the owner.
        final int ranks = PRODUCERS + 1;
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment memory = arena.allocate(QueueDescriptor.bytesFor(CAPACITY, ranks), 64);
            final AtomicLong fullClaims = new AtomicLong();
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final List<Thread> producers = new ArrayList<>();
            for (int rank = 1; rank <= PRODUCERS; rank++)
            {
                final ShmQueue queue = new ShmQueue(memory, CAPACITY, ranks, rank);
                final int source = rank;
                producers.add(Thread.ofPlatform().name("producer-" + rank).start(() ->
                {
                    try
                    {
                        produce(queue, source, fullClaims);
                    }
                    catch (final Throwable t)
                    {
                        failure.compareAndSet(null, t);
                    }
                }));
            }

            final ShmQueue owner = new ShmQueue(memory, CAPACITY, ranks, 0);
            final int[] next = new int[ranks];
            final long[] paddingSeen = new long[1];
            int received = 0;
            while (received < PRODUCERS * RECORDS_PER_PRODUCER && failure.get() == null)
            {
                final long headBefore = owner.headPosition();
                final int[] count = new int[1];
                final long[] recordBytes = new long[1];
                final boolean any = owner.poll((source, kind, segment, offset, length) ->
                {
                    final int number = segment.get(ValueLayout.JAVA_INT, offset);
                    assertEquals(next[source], number, "record of producer " + source + " lost, doubled or reordered");
                    assertEquals(kind(source, number), kind, "kind of record " + number + " of producer " + source);
                    assertEquals(payloadBytes(source, number), length, "length of record " + number);
                    for (int i = NUMBER_BYTES; i < length; i++)
                    {
                        if (segment.get(ValueLayout.JAVA_BYTE, offset + i) != pattern(source, number, i))
                        {
                            throw new AssertionError("byte " + i + " of record " + number + " of producer " + source);
                        }
                    }
                    next[source]++;
                    count[0]++;
                    recordBytes[0] += QueueDescriptor.recordBytes(length);
                });
                received += count[0];
                // The head moved past more than the records handed out: it skipped padding.
                if (owner.headPosition() - headBefore > recordBytes[0])
                {
                    paddingSeen[0]++;
                }
                if (!any)
                {
                    Thread.onSpinWait();
                }
            }
            for (final Thread thread : producers)
            {
                thread.join();
            }
            if (failure.get() != null)
            {
                throw new AssertionError("a producer failed", failure.get());
            }
            for (int rank = 1; rank <= PRODUCERS; rank++)
            {
                assertEquals(RECORDS_PER_PRODUCER, next[rank], "records of producer " + rank);
            }
            assertTrue(owner.headPosition() > 100L * CAPACITY, "many laps: " + owner.headPosition() + " bytes");
            assertEquals(owner.headPosition(), owner.tailPosition(), "nothing left behind");
            assertTrue(paddingSeen[0] > 0, "some records wrapped after padding");
            assertTrue(fullClaims.get() > 0, "the queue was full at times");
        }
    }

    /** Writes this producer's records in order, retrying while the queue is full. */
    private static void produce(final ShmQueue queue, final int source, final AtomicLong fullClaims)
    {
        for (int number = 0; number < RECORDS_PER_PRODUCER; number++)
        {
            final int length = payloadBytes(source, number);
            int n;
            while ((n = queue.claim(kind(source, number), 0, length, length)) < 0)
            {
                fullClaims.incrementAndGet();
                Thread.yield();
            }
            assertEquals(length, n);
            final MemorySegment memory = queue.memory();
            final long at = queue.claimedPayload();
            memory.set(ValueLayout.JAVA_INT, at, number);
            for (int i = NUMBER_BYTES; i < length; i++)
            {
                memory.set(ValueLayout.JAVA_BYTE, at + i, pattern(source, number, i));
            }
            queue.commit();
        }
    }

    private static int payloadBytes(final int source, final int number)
    {
        return NUMBER_BYTES + (number * 31 + source * 17) % (MAX_PAYLOAD - NUMBER_BYTES);
    }

    private static int kind(final int source, final int number)
    {
        return 1 + (number + source) % 5;
    }

    private static byte pattern(final int source, final int number, final int index)
    {
        return (byte)(source * 101 + number * 7 + index);
    }
}
