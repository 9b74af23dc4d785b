package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The record encodings of {@link MessageRecords}, written into and read back from a {@link ShmQueue}. */
class MessageRecordsTest
{
    private static final int CAPACITY = ShmDevice.QUEUE_BYTES;

    private static final int RANKS = 4;
    private static final int SENDER = 3;

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment memory = arena.allocate(QueueDescriptor.bytesFor(CAPACITY, RANKS), 8);
    private final ShmQueue producer = new ShmQueue(memory, CAPACITY, RANKS, SENDER);
    private final ShmQueue consumer = new ShmQueue(memory, CAPACITY, RANKS, 0);
    /** What the reader saw of each record, at the same offsets (the queue zeroes a record once read). */
    private final MemorySegment received = MemorySegment.ofArray(new long[(int)memory.byteSize() / Long.BYTES]);
    private final List<long[]> records = new ArrayList<>();

    @AfterEach
    void free()
    {
        arena.close();
    }

    @Test
    void shouldKeepTheEnvelopeFieldsInsideItsSizeAndTheDataAligned()
    {
        assertEquals(MessageRecords.ENVELOPE_BYTES, MessageRecords.SENDER_ADDRESS_OFFSET + Long.BYTES);
        assertEquals(0, MessageRecords.SENDER_ADDRESS_OFFSET % Long.BYTES);
        assertEquals(0, (QueueDescriptor.HEADER_BYTES + MessageRecords.SEQUENCE_BYTES) % 16,
            "data starts 16-byte aligned");
        assertEquals(ShmDevice.CHUNK_BYTES,
            QueueDescriptor.recordBytes(MessageRecords.SEQUENCE_BYTES + MessageRecords.MAX_RECORD_DATA));
        assertEquals(0, CAPACITY % ShmDevice.CHUNK_BYTES, "whole records fill the queue");
    }

    @Test
    void shouldCarryEveryEnvelopeFieldAndTheFirstBytesOfAnEagerMessage()
    {
        final SendRequest send = send(7, 1000, true, 100);
        final int inline = MessageRecords.writeEnvelope(producer, MessageRecords.KIND_EAGER, send, 0x1234L);
        assertEquals(100, inline);
        poll();
        final long[] record = records.get(0);
        assertEquals(MessageRecords.KIND_EAGER, record[0]);
        assertEquals(MessageRecords.ENVELOPE_BYTES + 100, record[2]);
        final Incoming message = MessageRecords.readEnvelope(3, MessageRecords.KIND_EAGER, received, record[1]);
        assertEquals(3, message.source);
        assertEquals(7, message.sequence);
        assertEquals(1000, message.tag);
        assertEquals(5, message.context);
        assertEquals(100, message.staticBytes);
        assertEquals(0, message.dynamicBytes);
        assertEquals(25, message.numEls);
        assertEquals(2, message.typeCode);
        assertTrue(message.synchronous);
        assertFalse(message.rendezvous);
        assertEquals(0x1234L, message.senderAddress);
        assertArrayEquals(pattern(100), bytesAt(record[1] + MessageRecords.ENVELOPE_BYTES, 100));
    }

    @Test
    void shouldWriteARendezvousEnvelopeWithoutBytes()
    {
        final SendRequest send = send(8, 1, false, 4096);
        assertEquals(0, MessageRecords.writeEnvelope(producer, MessageRecords.KIND_RENDEZVOUS, send, 0));
        poll();
        assertEquals(MessageRecords.ENVELOPE_BYTES, records.get(0)[2]);
        final Incoming message = MessageRecords.readEnvelope(0, MessageRecords.KIND_RENDEZVOUS, received,
            records.get(0)[1]);
        assertTrue(message.rendezvous);
        assertFalse(message.synchronous);
    }

    @Test
    void shouldSplitDataIntoRecordsOfAtMostAChunk()
    {
        final int total = 2 * MessageRecords.MAX_RECORD_DATA + 10;
        final SendRequest send = send(9, 1, false, total);
        long from = 0;
        while (from < total)
        {
            final int n = MessageRecords.writeData(producer, send, from);
            assertTrue(n > 0 && n <= MessageRecords.MAX_RECORD_DATA, "n=" + n);
            from += n;
        }
        poll();
        assertEquals(3, records.size());
        long position = 0;
        for (final long[] record : records)
        {
            assertEquals(MessageRecords.KIND_DATA, record[0]);
            assertEquals(9, MessageRecords.sequence(received, record[1]));
            final int n = (int)record[2] - MessageRecords.SEQUENCE_BYTES;
            assertArrayEquals(slice(pattern(total), position, n),
                bytesAt(record[1] + MessageRecords.SEQUENCE_BYTES, n));
            position += n;
        }
        assertEquals(total, position);
    }

    @Test
    void shouldWriteNothingIntoAFullQueue()
    {
        final SendRequest send = send(1, 1, false, CAPACITY);
        long from = 0;
        int n;
        while ((n = MessageRecords.writeData(producer, send, from)) > 0)
        {
            from += n;
        }
        assertEquals(-1, n);
        final long position = producer.tailPosition();
        assertEquals(-1, MessageRecords.writeEnvelope(producer, MessageRecords.KIND_EAGER, send(2, 1, false, 8), 0));
        assertFalse(MessageRecords.writeControl(producer, MessageRecords.KIND_ACK, 2));
        assertEquals(position, producer.tailPosition());
    }

    @Test
    void shouldNameTheMessageInAControlRecord()
    {
        assertTrue(MessageRecords.writeControl(producer, MessageRecords.KIND_CLEAR_TO_SEND, 12345));
        poll();
        assertEquals(MessageRecords.KIND_CLEAR_TO_SEND, records.get(0)[0]);
        assertEquals(MessageRecords.SEQUENCE_BYTES, records.get(0)[2]);
        assertEquals(12345, MessageRecords.sequence(received, records.get(0)[1]));
    }

    private void poll()
    {
        consumer.poll((source, kind, segment, offset, length) ->
        {
            assertEquals(SENDER, source, "every record names its sender");
            MemorySegment.copy(segment, offset, received, offset, length);
            records.add(new long[] {kind, offset, length});
        });
    }

    private byte[] bytesAt(final long offset, final int length)
    {
        return received.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
    }

    private static SendRequest send(final int sequence, final int tag, final boolean synchronous, final int length)
    {
        final MessageBytes bytes = new MessageBytes(MemorySegment.ofArray(pattern(length)), null, length / 4, 2);
        return new SendRequest(ProtocolPair.UNDRIVEN, 1, tag, 5, sequence, synchronous,
            length > ShmDevice.EAGER_LIMIT, bytes);
    }

    private static byte[] pattern(final int length)
    {
        final byte[] values = new byte[length];
        for (int i = 0; i < length; i++)
        {
            values[i] = (byte)(i * 7 + 1);
        }
        return values;
    }

    private static byte[] slice(final byte[] values, final long from, final int length)
    {
        final byte[] part = new byte[length];
        System.arraycopy(values, (int)from, part, 0, length);
        return part;
    }
}
