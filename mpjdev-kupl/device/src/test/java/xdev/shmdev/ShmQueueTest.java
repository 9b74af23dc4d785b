package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import xdev.XDevException;

/**
 * {@link ShmQueue} over memory of this process, one step at a time: two producer views and the
 * owner's consumer view on the same bytes, as the processes of a job hold them.
 * {@link ShmQueueConcurrencyTest} runs producers on threads of their own.
 */
class ShmQueueTest
{
    private static final int CAPACITY = 256;
    private static final int RANKS = 4;
    private static final int OWNER = 0;
    private static final int KIND = 7;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment memory = arena.allocate(QueueDescriptor.bytesFor(CAPACITY, RANKS), 8);
    private final ShmQueue producer = new ShmQueue(memory, CAPACITY, RANKS, 1);
    private final ShmQueue other = new ShmQueue(memory, CAPACITY, RANKS, 2);
    private final ShmQueue consumer = new ShmQueue(memory, CAPACITY, RANKS, OWNER);
    private final List<byte[]> read = new ArrayList<>();
    private final List<Integer> kinds = new ArrayList<>();
    private final List<Integer> sources = new ArrayList<>();

    @AfterEach
    void free()
    {
        arena.close();
    }

    @Test
    void shouldDeliverRecordsInTheOrderTheyWereClaimedWithTheirSource()
    {
        assertEquals(3, write(producer, KIND, bytes(3, 1)));
        assertEquals(5, write(other, KIND + 1, bytes(5, 2)));
        assertEquals(0, write(producer, KIND + 2, bytes(0, 3)));
        assertTrue(poll());
        assertEquals(List.of(KIND, KIND + 1, KIND + 2), kinds);
        assertEquals(List.of(1, 2, 1), sources);
        assertArrayEquals(bytes(3, 1), read.get(0));
        assertArrayEquals(bytes(5, 2), read.get(1));
        assertArrayEquals(new byte[0], read.get(2));
        assertFalse(poll());
    }

    @Test
    void shouldPublishNothingBeforeCommitAndMarkTheRecordAsBeingWritten()
    {
        assertEquals(8, producer.claim(KIND, 0, 8, 8));
        assertEquals(-16, memory.get(ValueLayout.JAVA_INT, QueueDescriptor.lengthOffset(0)),
            "a negative length: being written");
        assertFalse(poll());
        producer.commit();
        assertEquals(16, memory.get(ValueLayout.JAVA_INT, QueueDescriptor.lengthOffset(0)));
        assertTrue(poll());
    }

    @Test
    void shouldStopAtARecordClaimedButNotCommittedThoughALaterOneIs()
    {
        assertEquals(4, producer.claim(KIND, 0, 4, 4));
        assertEquals(6, write(other, KIND + 1, bytes(6, 4)));
        assertFalse(poll(), "the first record is not published yet: nothing behind it may overtake it");
        producer.commit();
        assertTrue(poll());
        assertEquals(List.of(1, 2), sources);
    }

    @Test
    void shouldSkipAnAbortedRecord()
    {
        assertEquals(4, producer.claim(KIND, 0, 4, 4));
        producer.abort();
        assertEquals(2, write(producer, KIND + 1, bytes(2, 5)));
        assertTrue(poll());
        assertEquals(List.of(KIND + 1), kinds, "the aborted record is padding");
        assertThrows(IllegalStateException.class, producer::commit, "nothing is claimed any more");
    }

    @Test
    void shouldRefuseASecondClaimBeforeTheFirstIsCommitted()
    {
        assertEquals(4, producer.claim(KIND, 0, 4, 4));
        final IllegalStateException error = assertThrows(IllegalStateException.class,
            () -> producer.claim(KIND, 0, 4, 4));
        assertEquals("a record is claimed at index 0 already: commit it first", error.getMessage());
    }

    @Test
    void shouldPadToTheEndAndWrapWhenARecordDoesNotFitBeforeIt()
    {
        // 200 bytes of records, then one of 96 that fits only at the start of the data area.
        assertEquals(192, write(producer, KIND, bytes(192, 3)));
        assertTrue(poll());
        assertEquals(88, write(other, KIND, bytes(88, 4)));
        // The padding fills the 56 bytes before the end, written by the producer that wrapped.
        assertEquals(QueueDescriptor.KIND_PADDING, memory.get(ValueLayout.JAVA_SHORT,
            QueueDescriptor.kindOffset(200)));
        assertEquals(56, memory.get(ValueLayout.JAVA_INT, QueueDescriptor.lengthOffset(200)));
        assertEquals(200 + 56 + 96, producer.tailPosition());
        assertTrue(poll());
        assertEquals(2, read.size(), "the padding record is not handed to the reader");
        assertArrayEquals(bytes(88, 4), read.get(1));
        assertEquals(200 + 56 + 96, consumer.headPosition());
    }

    @Test
    void shouldReportAFullQueueAsMinusOneAndClaimNothing()
    {
        assertEquals(CAPACITY - 8, write(producer, KIND, bytes(CAPACITY - 8, 5)));
        final long position = producer.tailPosition();
        assertEquals(-1, other.claim(KIND, 0, 1, 1));
        assertEquals(position, producer.tailPosition());
        assertTrue(poll());
        assertEquals(1, write(other, KIND, bytes(1, 6)), "room is back once the consumer has read");
    }

    @Test
    void shouldShrinkADataRecordToTheRoomLeftButNotBelowTheMinimum()
    {
        assertEquals(200, write(producer, KIND, bytes(200, 7)));
        // 48 bytes left: a record asking for up to 100 bytes, at least 16, gets 40 (48 minus the header).
        assertEquals(40, other.claim(KIND, 0, 100, 16));
        other.commit();
        assertEquals(-1, other.claim(KIND, 0, 100, 16));
    }

    @Test
    void shouldCarryEveryRecordSizeUpToHalfTheCapacityAtEveryPosition()
    {
        // Records do not straddle the end, so only those up to half the capacity fit wherever the tail is.
        final int largest = CAPACITY / 2 - QueueDescriptor.HEADER_BYTES;
        long expectedPosition = 0;
        for (int step = 0; step <= 3 * largest; step++)
        {
            final int size = step % (largest + 1);
            read.clear();
            final byte[] payload = bytes(size, size);
            final int index = (int)(expectedPosition % CAPACITY);
            final long needed = QueueDescriptor.recordBytes(size);
            if (CAPACITY - index < needed)
            {
                expectedPosition += CAPACITY - index;
            }
            assertEquals(size, write(step % 2 == 0 ? producer : other, KIND, payload), "size " + size);
            assertTrue(poll(), "size " + size);
            assertEquals(1, read.size(), "size " + size);
            assertArrayEquals(payload, read.get(0), "size " + size);
            expectedPosition += needed;
            assertEquals(expectedPosition, producer.tailPosition(), "size " + size);
            assertEquals(expectedPosition, consumer.headPosition(), "size " + size);
        }
    }

    @Test
    void shouldFitARecordOfTheWholeCapacityOnlyAtTheStartOfTheDataArea()
    {
        assertEquals(CAPACITY - 8, write(producer, KIND, bytes(CAPACITY - 8, 11)));
        assertTrue(poll());
        assertEquals(8, write(producer, KIND, bytes(8, 12)));
        assertTrue(poll());
        assertEquals(-1, write(producer, KIND, bytes(CAPACITY - 8, 13)), "16 bytes used at the start: no room for it");
    }

    @Test
    void shouldZeroTheRoomOfEveryRecordItHasRead()
    {
        write(producer, KIND, bytes(100, 14));
        write(other, KIND, bytes(CAPACITY - 100 - 24, 15));
        assertTrue(poll());
        final MemorySegment data = memory.asSlice(QueueDescriptor.recordOffset(0), CAPACITY);
        assertEquals(-1, data.mismatch(MemorySegment.ofArray(new byte[CAPACITY])),
            "the next lap must read 'not written' everywhere");
    }

    @Test
    void shouldReleaseARecordEvenWhenTheReaderThrows()
    {
        write(producer, KIND, bytes(16, 8));
        assertThrows(IllegalStateException.class, () -> consumer.poll((source, kind, segment, offset, length) ->
        {
            throw new IllegalStateException("reader failed");
        }));
        assertFalse(poll(), "the failed record is not handed out again");
        assertEquals(CAPACITY - 24 - 8, write(producer, KIND, bytes(CAPACITY - 24 - 8, 9)));
        assertEquals(16, write(producer, KIND, bytes(16, 10)), "the failed record's 24 bytes are free again");
    }

    @Test
    void shouldReadAtMostOneLapPerPollWhileProducersKeepWriting()
    {
        write(producer, KIND, bytes(56, 16));
        final int[] handled = new int[1];
        // Each record read makes the producer write another one: a poll without a limit would never return.
        assertTrue(consumer.poll((source, kind, segment, offset, length) ->
        {
            handled[0]++;
            assertEquals(56, write(producer, KIND, bytes(56, 16)));
        }));
        assertEquals(CAPACITY / 64, handled[0], "one lap of 64-byte records");
        assertTrue(poll(), "the records written meanwhile are there for the next poll");
    }

    @Test
    void shouldContinueFromThePositionsInSharedMemory()
    {
        write(producer, KIND, bytes(24, 10));
        assertTrue(poll());
        write(other, KIND, bytes(40, 17));
        final ShmQueue reopened = new ShmQueue(memory, CAPACITY, RANKS, OWNER);
        assertEquals(consumer.headPosition(), reopened.headPosition());
        read.clear();
        assertTrue(reopened.poll(this::collect));
        assertArrayEquals(bytes(40, 17), read.get(0));
    }

    @Test
    void shouldNameEachProducerThatWantedRoomOnce()
    {
        final int ranks = 130;
        try (Arena wide = Arena.ofConfined())
        {
            final MemorySegment queue = wide.allocate(QueueDescriptor.bytesFor(CAPACITY, ranks), 8);
            for (final int rank : new int[] {1, 64, 129})
            {
                new ShmQueue(queue, CAPACITY, ranks, rank).wantRoom();
            }
            new ShmQueue(queue, CAPACITY, ranks, 64).wantRoom();
            final ShmQueue owner = new ShmQueue(queue, CAPACITY, ranks, OWNER);
            final List<Integer> woken = new ArrayList<>();
            owner.forEachRoomWanted(woken::add);
            assertEquals(List.of(1, 64, 129), woken);
            woken.clear();
            owner.forEachRoomWanted(woken::add);
            assertEquals(List.of(), woken, "an ask is answered once");
        }
    }

    @Test
    void shouldFailOnACorruptedLengthNamingIt()
    {
        memory.set(ValueLayout.JAVA_INT, QueueDescriptor.lengthOffset(0), CAPACITY + 8);
        final XDevException error = assertThrows(XDevException.class, this::poll);
        assertEquals("shm device: corrupted queue: a record of 264 bytes at position 0 (index 0 of 256)",
            error.getMessage());
    }

    @Test
    void shouldRejectMemoryTooSmallForTheCapacityAndARankOutsideTheJob()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> new ShmQueue(memory.asSlice(0, CAPACITY), CAPACITY, RANKS, 1));
        assertTrue(error.getMessage().contains("cannot hold a queue of 256 bytes for 4 ranks"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ShmQueue(memory, 100, RANKS, 1));
        final IllegalArgumentException rank = assertThrows(IllegalArgumentException.class,
            () -> new ShmQueue(memory, CAPACITY, RANKS, RANKS));
        assertEquals("rank=4 is not a rank of 4", rank.getMessage());
    }

    private int write(final ShmQueue queue, final int kind, final byte[] payload)
    {
        final int n = queue.claim(kind, 0, payload.length, payload.length);
        if (n >= 0)
        {
            MemorySegment.copy(MemorySegment.ofArray(payload), 0, memory, queue.claimedPayload(), n);
            queue.commit();
        }
        return n;
    }

    private boolean poll()
    {
        return consumer.poll(this::collect);
    }

    private void collect(final int source, final int kind, final MemorySegment segment, final long offset,
        final int length)
    {
        sources.add(source);
        kinds.add(kind);
        read.add(segment.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE));
    }

    private static byte[] bytes(final int length, final int seed)
    {
        final byte[] values = new byte[length];
        for (int i = 0; i < length; i++)
        {
            values[i] = (byte)(seed * 31 + i);
        }
        return values;
    }
}
