package xdev.shmdev;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kupl.Doorbell;
import org.junit.jupiter.api.Test;

/** The drawn layouts of {@link QueueDescriptor} and {@link SegmentDescriptor}. */
class QueueDescriptorTest
{
    private static final int CACHE_LINE_PAIR = 128;
    private static final long MIB = 1 << 20;

    @Test
    void shouldKeepTailAndHeadOnPairsOfCacheLinesOfTheirOwn()
    {
        assertEquals(0, QueueDescriptor.TAIL_OFFSET % CACHE_LINE_PAIR);
        assertEquals(0, QueueDescriptor.HEAD_OFFSET % CACHE_LINE_PAIR);
        assertTrue(QueueDescriptor.HEAD_OFFSET - QueueDescriptor.TAIL_OFFSET >= CACHE_LINE_PAIR);
        assertTrue(QueueDescriptor.CONTROL_BYTES - QueueDescriptor.HEAD_OFFSET >= CACHE_LINE_PAIR);
        assertEquals(0, QueueDescriptor.CONTROL_BYTES % CACHE_LINE_PAIR);
    }

    @Test
    void shouldPlaceRecordFieldsInsideTheAlignedHeader()
    {
        assertEquals(QueueDescriptor.CONTROL_BYTES, QueueDescriptor.lengthOffset(0));
        assertEquals(QueueDescriptor.CONTROL_BYTES + 4, QueueDescriptor.kindOffset(0));
        assertEquals(QueueDescriptor.CONTROL_BYTES + 6, QueueDescriptor.sourceOffset(0));
        assertEquals(QueueDescriptor.CONTROL_BYTES + QueueDescriptor.HEADER_BYTES, QueueDescriptor.payloadOffset(0));
        assertEquals(QueueDescriptor.CONTROL_BYTES + 64 + 8, QueueDescriptor.payloadOffset(64));
        assertEquals(0, QueueDescriptor.HEADER_BYTES % QueueDescriptor.RECORD_ALIGNMENT);
        assertEquals(0, QueueDescriptor.lengthOffset(0) % Integer.BYTES, "the length is published atomically");
    }

    @Test
    void shouldRoundEveryRecordUpToTheAlignment()
    {
        for (int payload = 0; payload <= 64; payload++)
        {
            final long bytes = QueueDescriptor.recordBytes(payload);
            assertEquals(0, bytes % QueueDescriptor.RECORD_ALIGNMENT, "payload " + payload);
            assertTrue(bytes >= QueueDescriptor.HEADER_BYTES + payload, "payload " + payload);
            assertTrue(bytes < QueueDescriptor.HEADER_BYTES + payload + QueueDescriptor.RECORD_ALIGNMENT);
        }
    }

    @Test
    void shouldPutOneRoomWantedBitPerRankAfterTheDataAreaOnWholeLinePairs()
    {
        assertEquals(QueueDescriptor.CONTROL_BYTES + 1024L, QueueDescriptor.roomWantedOffset(1024));
        assertEquals(1, QueueDescriptor.roomWantedWords(1));
        assertEquals(1, QueueDescriptor.roomWantedWords(64));
        assertEquals(2, QueueDescriptor.roomWantedWords(65));
        assertEquals(CACHE_LINE_PAIR, QueueDescriptor.roomWantedBytes(1));
        assertEquals(CACHE_LINE_PAIR, QueueDescriptor.roomWantedBytes(1024));
        assertEquals(2 * CACHE_LINE_PAIR, QueueDescriptor.roomWantedBytes(1025));
        assertEquals(QueueDescriptor.CONTROL_BYTES + 1024L + CACHE_LINE_PAIR, QueueDescriptor.bytesFor(1024, 3));
    }

    @Test
    void shouldRejectACapacityThatIsNoPowerOfTwoNamingIt()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> QueueDescriptor.checkCapacity(1000));
        assertEquals("capacity=1000 must be a power of two of at least 64", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> QueueDescriptor.checkCapacity(32));
    }

    @Test
    void shouldRejectMoreRanksThanASourceFieldCanNameNamingThem()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> QueueDescriptor.bytesFor(1024, QueueDescriptor.MAX_PRODUCERS + 1));
        assertEquals("ranks=65537 must be 1 to 65536 (a record names its sender in 16 bits)", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> QueueDescriptor.checkProducers(0));
    }

    @Test
    void shouldShareAbout16MiBOfStagingRingsOutAmongTheRanks()
    {
        assertEquals(RendezvousRing.MAX_RING_BYTES, RendezvousRing.ringBytesFor(2));
        assertEquals(1 << 20, RendezvousRing.ringBytesFor(16));
        assertEquals(RendezvousRing.MIN_RING_BYTES, RendezvousRing.ringBytesFor(128));
        assertEquals(RendezvousRing.MIN_RING_BYTES, RendezvousRing.ringBytesFor(65536));
        assertEquals(256 << 10, RendezvousRing.ringBytesFor(48), "rounded down to a power of two");
        assertThrows(IllegalArgumentException.class, () -> new RendezvousRing(MemorySegment.ofArray(new long[64]), 1000));
    }

    @Test
    void shouldGiveEachSegmentADoorbellThenOneAlignedQueueThenAStagingArea()
    {
        final SegmentDescriptor segment = new SegmentDescriptor(3, 1024);
        assertTrue(Doorbell.BYTES <= SegmentDescriptor.BELL_SLOT_BYTES);
        assertEquals(0, SegmentDescriptor.BELL_SLOT_BYTES % CACHE_LINE_PAIR);
        assertEquals(0, SegmentDescriptor.QUEUE_OFFSET % CACHE_LINE_PAIR);
        assertEquals(QueueDescriptor.bytesFor(1024, 3), segment.queueBytes());
        assertEquals(SegmentDescriptor.QUEUE_OFFSET + segment.queueBytes(), segment.stagingOffset());
        assertEquals(0, segment.stagingOffset() % CACHE_LINE_PAIR);
        assertEquals(0, RendezvousRing.DRAINED_OFFSET % CACHE_LINE_PAIR, "filled and drained on lines of their own");
        assertEquals(0, RendezvousRing.RING_OFFSET % CACHE_LINE_PAIR);
        assertEquals(segment.stagingOffset() + RendezvousRing.bytesFor(RendezvousRing.ringBytesFor(3)),
            segment.lengthBytes());
        assertThrows(IllegalArgumentException.class, () -> new SegmentDescriptor(0, 1024));
        assertThrows(IllegalArgumentException.class, () -> new SegmentDescriptor(2, 1000));
    }

    @Test
    void shouldKeepTheDevicesMemoryLinearInTheRanksAndWithin64MiBFor128()
    {
        final long perRank = new SegmentDescriptor(2, ShmDevice.QUEUE_BYTES).lengthBytes();
        for (final int ranks : new int[] {2, 16, 64, 128, 1024})
        {
            final long bytes = ShmDevice.sharedMemoryBytes(ranks);
            assertEquals(ranks * new SegmentDescriptor(ranks, ShmDevice.QUEUE_BYTES).lengthBytes(), bytes);
            assertTrue(bytes <= ranks * (ShmDevice.QUEUE_BYTES + 1024L) + RendezvousRing.JOB_RING_BYTES +
                ranks * (long)RendezvousRing.MIN_RING_BYTES, "ranks " + ranks + ": " + bytes + " bytes");
        }
        assertTrue(ShmDevice.sharedMemoryBytes(128) <= 64 * MIB, ShmDevice.sharedMemoryBytes(128) + " bytes");
        assertTrue(perRank < ShmDevice.QUEUE_BYTES + RendezvousRing.MAX_RING_BYTES + 1024, perRank + " bytes per rank");
    }
}
