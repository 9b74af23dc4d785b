package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import xdev.XDevException;

/**
 * The eager and rendezvous protocols between two ranks' stacks in this process
 * ({@link ProtocolPair}), and the errors for records that name no message in flight.
 */
class MessageProtocolTest
{
    private static final int TAG = 4;
    private static final int LARGE = 3 * ShmDevice.QUEUE_BYTES;

    private final ProtocolPair pair = new ProtocolPair();

    @AfterEach
    void free()
    {
        pair.close();
    }

    @Test
    void shouldDeliverAnEagerMessageToAPostedReceive() throws Exception
    {
        final RecvRequest receive = pair.receive(1, Messages.empty(64), TAG);
        final SendRequest send = pair.send(0, Messages.ints(1, 2, 3), TAG, false);
        assertTrue(send.isDone(), "an eager send completes once it is in the queue");
        pair.pump();
        assertTrue(receive.isDone());
        assertArrayEquals(new int[] {1, 2, 3}, Messages.readInts(receive.buffer(), 3));
    }

    @Test
    void shouldStageAnUnexpectedEagerMessageUntilAReceiveIsPosted() throws Exception
    {
        pair.send(0, Messages.ints(7), TAG, false);
        pair.pump();
        final RecvRequest receive = pair.receive(1, Messages.empty(64), TAG);
        assertTrue(receive.isDone());
        assertArrayEquals(new int[] {7}, Messages.readInts(receive.buffer(), 1));
    }

    @Test
    void shouldCompleteASynchronousEagerSendOnlyWhenMatched() throws Exception
    {
        final SendRequest send = pair.send(0, Messages.ints(5), TAG, true);
        pair.pump();
        assertFalse(send.isDone(), "nobody has matched it yet");
        pair.receive(1, Messages.empty(64), TAG);
        pair.pump();
        assertTrue(send.isDone());
    }

    @Test
    void shouldPipelineARendezvousMessageThroughTheReceiversStagingAreaAfterClearToSend() throws Exception
    {
        final SendRequest send = pair.send(0, Messages.bytes(LARGE, 9), TAG, false);
        pair.pump();
        assertFalse(send.isDone(), "a rendezvous send waits for its receiver");
        final RecvRequest receive = pair.receive(1, Messages.emptyOnHeap(LARGE + 64), TAG);
        pair.pump();
        assertTrue(send.isDone());
        assertTrue(receive.isDone());
        assertTrue(Messages.isPattern(Messages.readBytes(receive.buffer(), LARGE), 9));
        assertTrue(queuedInto(1) < 1024, "only the envelope went through the receiver's queue, not " + queuedInto(1) +
            " bytes");
        final RendezvousRing area = new SegmentDescriptor(2, ShmDevice.QUEUE_BYTES).staging(pair.segments[1]);
        assertEquals(send.totalBytes(), area.filledAcquire(), "every byte went through the staging area");
        assertEquals(send.totalBytes(), area.drainedAcquire(), "and was copied out");
    }

    @Test
    void shouldGrantTheStagingAreaToOneMessageAtATimeInMatchOrder() throws Exception
    {
        final int ring = RendezvousRing.ringBytesFor(2);
        final int huge = ring + LARGE;
        final SendRequest first = pair.send(0, Messages.bytes(huge, 3), TAG, false);
        final SendRequest second = pair.send(0, Messages.bytes(LARGE, 4), TAG, true);
        pair.pump();
        final RecvRequest firstReceive = pair.receive(1, Messages.empty(huge + 64), TAG);
        final RecvRequest secondReceive = pair.receive(1, Messages.empty(LARGE + 64), TAG);
        // Rank 1 answers; rank 0 reads the answer and fills rank 1's ring.
        pair.sides[1].queues.flushAll();
        pair.sides[0].queues.drain(pair.sides[0].protocol);
        pair.sides[0].protocol.pumpStaged();
        assertEquals(SendStateMachine.Phase.WRITING_DATA, first.protocol.phase());
        assertEquals(ring, first.protocol.written(), "the ring filled, then it waits for room");
        assertEquals(SendStateMachine.Phase.AWAITING_RECEIVER, second.protocol.phase(),
            "the second message waits for the area");
        pair.pump();
        assertTrue(first.isDone() && second.isDone() && firstReceive.isDone() && secondReceive.isDone());
        assertTrue(Messages.isPattern(Messages.readBytes(firstReceive.buffer(), huge), 3));
        assertTrue(Messages.isPattern(Messages.readBytes(secondReceive.buffer(), LARGE), 4));
    }

    @Test
    void shouldRejectMoreBytesInTheStagingAreaThanTheMessageHas() throws Exception
    {
        pair.send(0, Messages.bytes(LARGE, 6), TAG, false);
        pair.receive(1, Messages.empty(LARGE + 64), TAG);
        pair.pump();
        pair.send(0, Messages.bytes(LARGE, 7), TAG, false);
        pair.receive(1, Messages.empty(LARGE + 64), TAG);
        pair.sides[1].queues.flushAll();
        final RendezvousRing area = new SegmentDescriptor(2, ShmDevice.QUEUE_BYTES).staging(pair.segments[1]);
        // A corrupted count: more bytes than the granted message has.
        area.releaseFilled(area.drainedAcquire() + LARGE + 1000);
        final XDevException error = assertThrows(XDevException.class, () -> pair.sides[1].protocol.pumpStaged());
        assertTrue(error.getMessage().startsWith("shm device: rank 0 wrote " + (LARGE + 1000) + " bytes into rank " +
            "1's staging area, more than the " + (LARGE + 8) + " left of message 1"), error.getMessage());
    }

    @Test
    void shouldReadARendezvousMessageStraightFromTheSenderIntoNativeMemoryWhenAskedTo() throws Exception
    {
        try (ProtocolPair reading = new ProtocolPair(true))
        {
            final SendRequest send = reading.send(0, Messages.bytes(LARGE, 5), TAG, false);
            final RecvRequest receive = reading.receive(1, Messages.empty(LARGE + 64), TAG);
            reading.pump();
            assertTrue(send.isDone());
            assertTrue(receive.isDone());
            assertTrue(Messages.isPattern(Messages.readBytes(receive.buffer(), LARGE), 5));
            assumeTrue(reading.sides[1].directReads.enabled(),
                "process_vm_readv is refused here: the bytes went through the staging area");
            final RendezvousRing area = new SegmentDescriptor(2, ShmDevice.QUEUE_BYTES).staging(reading.segments[1]);
            assertEquals(0, area.filledAcquire(), "nothing went through the staging area");
        }
    }

    @Test
    void shouldFailATooSmallReceiveAndStillFreeTheSender() throws Exception
    {
        final SendRequest send = pair.send(0, Messages.bytes(LARGE, 2), TAG, true);
        final RecvRequest receive = pair.receive(1, Messages.empty(64), TAG);
        pair.pump();
        assertTrue(receive.isDone());
        assertTrue(send.isDone());
        final XDevException error = assertThrows(XDevException.class, receive::iwait);
        assertTrue(error.getMessage().startsWith("shm device: message truncated: rank 0 sent " + (LARGE + 8)),
            error.getMessage());
    }

    @Test
    void shouldNameThePeerAndSequenceOfAnAcknowledgementForAnUnknownSend()
    {
        writeControl(1, MessageRecords.KIND_ACK, 42);
        final XDevException error = assertThrows(XDevException.class,
            () -> pair.sides[0].queues.drain(pair.sides[0].protocol));
        assertEquals("shm device: rank 0 got a record of kind acknowledgement from rank 1 for send 42, which is not " +
            "in flight (corrupted queue or protocol error)", error.getMessage());
    }

    @Test
    void shouldRejectClearToSendReadAndDataForNothingInFlight()
    {
        for (final int kind : new int[] {MessageRecords.KIND_CLEAR_TO_SEND, MessageRecords.KIND_READ,
            MessageRecords.KIND_DATA, 99})
        {
            writeControl(1, kind, 8);
            final XDevException error = assertThrows(XDevException.class,
                () -> pair.sides[0].queues.drain(pair.sides[0].protocol), "kind " + kind);
            assertTrue(error.getMessage().contains("from rank 1"), error.getMessage());
        }
    }

    @Test
    void shouldRejectASecondAcknowledgementOfOneSend() throws Exception
    {
        final SendRequest send = pair.send(0, Messages.ints(5), TAG, true);
        pair.pump();
        writeControl(1, MessageRecords.KIND_ACK, send.sequence);
        pair.sides[0].queues.drain(pair.sides[0].protocol);
        writeControl(1, MessageRecords.KIND_ACK, send.sequence);
        assertThrows(XDevException.class, () -> pair.sides[0].queues.drain(pair.sides[0].protocol));
    }

    /** Bytes written so far into the queue of {@code rank}. */
    private long queuedInto(final int rank)
    {
        return new SegmentDescriptor(2, ShmDevice.QUEUE_BYTES).queue(pair.segments[rank], rank).tailPosition();
    }

    /** Writes a record of {@code kind} naming {@code sequence} into the queue from {@code from} to the other rank. */
    private void writeControl(final int from, final int kind, final int sequence)
    {
        final SegmentDescriptor layout = new SegmentDescriptor(2, ShmDevice.QUEUE_BYTES);
        assertTrue(MessageRecords.writeControl(layout.queue(pair.segments[1 - from], from), kind, sequence));
    }
}
