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

/**
 * {@link ShmRing} over memory of this process: a producer and a consumer ring object on the
 * same bytes, as the two processes of a pair hold them.
 */
class ShmRingTest
{
    private static final int CAPACITY = 256;
    private static final int KIND = 7;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment memory = arena.allocate(RingDescriptor.bytesFor(CAPACITY), 8);
    private final ShmRing producer = new ShmRing(memory, CAPACITY);
    private final ShmRing consumer = new ShmRing(memory, CAPACITY);
    private final List<byte[]> read = new ArrayList<>();
    private final List<Integer> kinds = new ArrayList<>();

    @AfterEach
    void free()
    {
        arena.close();
    }

    @Test
    void shouldDeliverRecordsInTheOrderTheyWereCommitted()
    {
        assertEquals(3, write(KIND, bytes(3, 1)));
        assertEquals(5, write(KIND + 1, bytes(5, 2)));
        assertTrue(poll());
        assertEquals(List.of(KIND, KIND + 1), kinds);
        assertArrayEquals(bytes(3, 1), read.get(0));
        assertArrayEquals(bytes(5, 2), read.get(1));
        assertFalse(poll());
    }

    @Test
    void shouldPublishNothingBeforeCommit()
    {
        assertEquals(8, producer.claim(KIND, 0, 8, 8));
        assertFalse(poll());
        producer.commit();
        assertTrue(poll());
    }

    @Test
    void shouldPadToTheEndAndWrapWhenARecordDoesNotFitBeforeIt()
    {
        // 200 bytes of records, then one of 96 that fits only at the start of the data area.
        assertEquals(192, write(KIND, bytes(192, 3)));
        assertTrue(poll());
        assertEquals(88, write(KIND, bytes(88, 4)));
        assertTrue(poll());
        assertEquals(2, read.size(), "the padding record is not handed to the reader");
        assertArrayEquals(bytes(88, 4), read.get(1));
        // The padding fills the 56 bytes before the end: the tail moved past both records.
        assertEquals(200 + 56 + 96, producer.producerPosition());
        assertEquals(RingDescriptor.KIND_PADDING, memory.get(ValueLayout.JAVA_INT, RingDescriptor.kindOffset(200)));
    }

    @Test
    void shouldReportAFullRingAsMinusOneAndWriteNothing()
    {
        assertEquals(CAPACITY - 8, write(KIND, bytes(CAPACITY - 8, 5)));
        final long position = producer.producerPosition();
        assertEquals(-1, producer.claim(KIND, 0, 1, 1));
        assertEquals(position, producer.producerPosition());
        assertTrue(poll());
        assertEquals(1, write(KIND, bytes(1, 6)), "room is back once the consumer has read");
    }

    @Test
    void shouldShrinkADataRecordToTheRoomLeftButNotBelowTheMinimum()
    {
        assertEquals(200, write(KIND, bytes(200, 7)));
        // 48 bytes left: a record asking for up to 100 bytes, at least 16, gets 40 (48 minus the header).
        assertEquals(40, producer.claim(KIND, 0, 100, 16));
        producer.commit();
        assertEquals(-1, producer.claim(KIND, 0, 100, 16));
    }

    @Test
    void shouldCarryEveryRecordSizeUpToHalfTheCapacityAtEveryPosition()
    {
        // Records do not straddle the end, so only those up to half the capacity fit wherever the tail is.
        final int largest = CAPACITY / 2 - RingDescriptor.HEADER_BYTES;
        long expectedPosition = 0;
        for (int step = 0; step <= 3 * largest; step++)
        {
            final int size = step % (largest + 1);
            read.clear();
            final byte[] payload = bytes(size, size);
            final int index = (int)(expectedPosition % CAPACITY);
            final long needed = RingDescriptor.recordBytes(size);
            if (CAPACITY - index < needed)
            {
                expectedPosition += CAPACITY - index;
            }
            assertEquals(size, write(KIND, payload), "size " + size);
            assertTrue(poll(), "size " + size);
            assertEquals(1, read.size(), "size " + size);
            assertArrayEquals(payload, read.get(0), "size " + size);
            expectedPosition += needed;
            assertEquals(expectedPosition, producer.producerPosition(), "size " + size);
        }
    }

    @Test
    void shouldFitARecordOfTheWholeCapacityOnlyAtTheStartOfTheDataArea()
    {
        assertEquals(CAPACITY - 8, write(KIND, bytes(CAPACITY - 8, 11)));
        assertTrue(poll());
        assertEquals(8, write(KIND, bytes(8, 12)));
        assertTrue(poll());
        assertEquals(-1, write(KIND, bytes(CAPACITY - 8, 13)), "16 bytes used at the start: no room for it");
    }

    @Test
    void shouldReleaseARecordEvenWhenTheReaderThrows()
    {
        write(KIND, bytes(16, 8));
        assertThrows(IllegalStateException.class, () -> consumer.poll((source, kind, segment, offset, length) ->
        {
            throw new IllegalStateException("reader failed");
        }, 0));
        assertFalse(poll(), "the failed record is not handed out again");
        assertEquals(CAPACITY - 24 - 8, write(KIND, bytes(CAPACITY - 24 - 8, 9)));
        assertEquals(16, write(KIND, bytes(16, 10)), "the failed record's 24 bytes are free again");
    }

    @Test
    void shouldContinueFromThePositionsInSharedMemory()
    {
        write(KIND, bytes(24, 10));
        final ShmRing reopened = new ShmRing(memory, CAPACITY);
        assertEquals(producer.producerPosition(), reopened.producerPosition());
        assertTrue(reopened.poll(this::collect, 0));
        assertArrayEquals(bytes(24, 10), read.get(0));
    }

    @Test
    void shouldRejectMemoryTooSmallForTheCapacity()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> new ShmRing(memory.asSlice(0, CAPACITY), CAPACITY));
        assertTrue(error.getMessage().contains("cannot hold a ring of 256 bytes"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ShmRing(memory, 100));
    }

    private int write(final int kind, final byte[] payload)
    {
        final int n = producer.claim(kind, 0, payload.length, payload.length);
        if (n >= 0)
        {
            MemorySegment.copy(MemorySegment.ofArray(payload), 0, memory, producer.claimedPayload(), n);
            producer.commit();
        }
        return n;
    }

    private boolean poll()
    {
        return consumer.poll(this::collect, 0);
    }

    private void collect(final int source, final int kind, final MemorySegment segment, final long offset,
        final int length)
    {
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
