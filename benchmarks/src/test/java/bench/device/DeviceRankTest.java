package bench.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The pair of ranks a point-to-point part of {@link DeviceRank} names, and the pairs it refuses. */
class DeviceRankTest
{
    @Test
    void shouldMeasureRanksZeroAndOneUnlessThePartNamesAPair()
    {
        assertEquals(new DeviceRank.Pair(0, 1), DeviceRank.Pair.of("pingpong:8"));
        assertEquals(new DeviceRank.Pair(0, 4), DeviceRank.Pair.of("bandwidth:1048576:0-4"));
        assertEquals("pingpong:8:0-4", new DeviceRank.Pair(0, 4).part("pingpong", 8));
    }

    @Test
    void shouldRefuseAPairWithoutRankZeroOrBeyondTheJob()
    {
        assertEquals("the pair 1-2 must start with rank 0, which times the warm-up and sizes the repetitions",
            assertThrows(IllegalArgumentException.class, () -> new DeviceRank.Pair(1, 2).within(4)).getMessage());
        assertEquals("the pair 0-4 needs at least 5 ranks, not 4",
            assertThrows(IllegalArgumentException.class, () -> new DeviceRank.Pair(0, 4).within(4)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> DeviceRank.Pair.of("pingpong:8:0"));
        assertThrows(IllegalArgumentException.class, () -> DeviceRank.Pair.of("pingpong:8:0-0"));
    }
}
