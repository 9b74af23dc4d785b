package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

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

    @Test
    void shouldAgreeWithAMapThroughGrowthCollisionsAndRemovalsInAnyOrder()
    {
        // Keys spread over runs that collide (multiples of 64), consecutive runs, and negative ones (a sequence past
        // Integer.MAX_VALUE), put and removed in random order: every lookup must agree with a HashMap's.
        final Random random = new Random(42);
        final Map<Integer, String> expected = new HashMap<>();
        final List<Integer> keys = new ArrayList<>();
        for (int step = 0; step < 20_000; step++)
        {
            if (keys.isEmpty() || random.nextInt(3) != 0)
            {
                final int key = switch (random.nextInt(3))
                {
                    case 0 -> random.nextInt(40) * 64;
                    case 1 -> random.nextInt(200);
                    default -> Integer.MIN_VALUE + random.nextInt(50);
                };
                if (!expected.containsKey(key))
                {
                    table.put(1, key, "v" + key);
                    expected.put(key, "v" + key);
                    keys.add(key);
                }
            }
            else
            {
                final int key = keys.remove(random.nextInt(keys.size()));
                assertEquals(expected.remove(key), table.take(1, key, "ack"));
            }
            assertEquals(expected.size(), table.size(1));
        }
        for (final Map.Entry<Integer, String> entry : expected.entrySet())
        {
            assertEquals(entry.getValue(), table.get(1, entry.getKey(), "data"));
        }
        assertThrows(XDevException.class, () -> table.get(1, 1_000_001, "data"), "never put");
    }
}
