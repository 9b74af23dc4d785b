package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import xdev.XDevException;

/** {@link SequenceTable}: lookups by peer and sequence, and the error for an unknown one. */
class SequenceTableTest
{
    private final SequenceTable<String> table = new SequenceTable<>(1, 3, "send");

    @Test
    void shouldKeepEntriesApartByPeer()
    {
        table.put(0, 5, "to 0");
        table.put(2, 5, "to 2");
        assertEquals("to 0", table.get(0, 5, "ack"));
        assertEquals("to 2", table.take(2, 5, "ack"));
        assertEquals(0, table.size(2));
        assertEquals(1, table.size(0));
    }

    @Test
    void shouldNameThePeerRecordAndSequenceOfAnUnknownEntry()
    {
        table.put(0, 5, "to 0");
        final XDevException error = assertThrows(XDevException.class, () -> table.take(0, 6, "acknowledgement"));
        assertEquals("shm device: rank 1 got a record of kind acknowledgement from rank 0 for send 6, which is not " +
            "in flight (corrupted queue or protocol error)", error.getMessage());
        table.take(0, 5, "read");
        assertThrows(XDevException.class, () -> table.take(0, 5, "read"), "taken once only");
    }

    @Test
    void shouldRefuseTwoEntriesForOneSequence()
    {
        table.put(2, 9, "first");
        assertThrows(IllegalStateException.class, () -> table.put(2, 9, "second"));
    }
}
