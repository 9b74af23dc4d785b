package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import kupl.Doorbell;
import org.junit.jupiter.api.Test;

/** The drawn layouts of {@link RingDescriptor} and {@link SegmentDescriptor}. */
class RingDescriptorTest
{
    private static final int CACHE_LINE_PAIR = 128;

    @Test
    void shouldKeepTailAndHeadOnPairsOfCacheLinesOfTheirOwn()
    {
        assertEquals(0, RingDescriptor.TAIL_OFFSET % CACHE_LINE_PAIR);
        assertEquals(0, RingDescriptor.HEAD_OFFSET % CACHE_LINE_PAIR);
        assertTrue(RingDescriptor.HEAD_OFFSET - RingDescriptor.TAIL_OFFSET >= CACHE_LINE_PAIR);
        assertTrue(RingDescriptor.CONTROL_BYTES - RingDescriptor.HEAD_OFFSET >= CACHE_LINE_PAIR);
        assertEquals(0, RingDescriptor.CONTROL_BYTES % CACHE_LINE_PAIR);
    }

    @Test
    void shouldPlaceRecordFieldsInsideTheAlignedHeader()
    {
        assertEquals(RingDescriptor.CONTROL_BYTES, RingDescriptor.kindOffset(0));
        assertEquals(RingDescriptor.CONTROL_BYTES + 4, RingDescriptor.lengthOffset(0));
        assertEquals(RingDescriptor.CONTROL_BYTES + RingDescriptor.HEADER_BYTES, RingDescriptor.payloadOffset(0));
        assertEquals(RingDescriptor.CONTROL_BYTES + 64 + 8, RingDescriptor.payloadOffset(64));
        assertEquals(0, RingDescriptor.HEADER_BYTES % RingDescriptor.RECORD_ALIGNMENT);
    }

    @Test
    void shouldRoundEveryRecordUpToTheAlignment()
    {
        for (int payload = 0; payload <= 64; payload++)
        {
            final long bytes = RingDescriptor.recordBytes(payload);
            assertEquals(0, bytes % RingDescriptor.RECORD_ALIGNMENT, "payload " + payload);
            assertTrue(bytes >= RingDescriptor.HEADER_BYTES + payload, "payload " + payload);
            assertTrue(bytes < RingDescriptor.HEADER_BYTES + payload + RingDescriptor.RECORD_ALIGNMENT);
        }
    }

    @Test
    void shouldSizeARingAsControlBlockPlusCapacity()
    {
        assertEquals(RingDescriptor.CONTROL_BYTES + 1024L, RingDescriptor.bytesFor(1024));
        assertEquals(RingDescriptor.CONTROL_BYTES + (long)ShmDevice.QUEUE_BYTES,
            RingDescriptor.bytesFor(ShmDevice.QUEUE_BYTES));
    }

    @Test
    void shouldRejectACapacityThatIsNoPowerOfTwoNamingIt()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> RingDescriptor.checkCapacity(1000));
        assertEquals("capacity=1000 must be a power of two of at least 64", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RingDescriptor.checkCapacity(32));
    }

    @Test
    void shouldGiveEachSegmentADoorbellThenOneAlignedRingPerSender()
    {
        final SegmentDescriptor segment = new SegmentDescriptor(3, 1024);
        assertTrue(Doorbell.BYTES <= SegmentDescriptor.BELL_SLOT_BYTES);
        assertEquals(0, SegmentDescriptor.BELL_SLOT_BYTES % CACHE_LINE_PAIR);
        assertEquals(SegmentDescriptor.BELL_SLOT_BYTES, segment.ringOffset(0));
        for (int sender = 0; sender < 3; sender++)
        {
            assertEquals(0, segment.ringOffset(sender) % CACHE_LINE_PAIR, "sender " + sender);
            assertEquals(SegmentDescriptor.BELL_SLOT_BYTES + sender * RingDescriptor.bytesFor(1024),
                segment.ringOffset(sender));
        }
        assertEquals(segment.ringOffset(2) + segment.ringBytes(), segment.lengthBytes());
    }

    @Test
    void shouldRejectASenderOutsideTheJob()
    {
        final SegmentDescriptor segment = new SegmentDescriptor(2, 1024);
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> segment.ringOffset(2));
        assertEquals("sender=2 is not a rank of 2", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SegmentDescriptor(0, 1024));
        assertThrows(IllegalArgumentException.class, () -> new SegmentDescriptor(2, 1000));
    }
}
