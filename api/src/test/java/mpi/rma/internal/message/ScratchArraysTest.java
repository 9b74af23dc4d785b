package mpi.rma.internal.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import mpi.rma.spi.common.BasicType;
import org.junit.jupiter.api.Test;

public class ScratchArraysTest
{
    @Test
    void shouldReuseTheArrayForRequestsThatFitIt()
    {
        final ScratchArrays scratch = new ScratchArrays();
        final Object first = scratch.array(BasicType.DOUBLE, 1000);
        assertEquals(1000, ((double[])first).length);
        assertSame(first, scratch.array(BasicType.DOUBLE, 10));
        assertSame(first, scratch.array(BasicType.DOUBLE, 1000));
    }

    @Test
    void shouldGrowAndKeepTheLargerArray()
    {
        final ScratchArrays scratch = new ScratchArrays();
        final Object small = scratch.array(BasicType.INT, 4);
        final Object large = scratch.array(BasicType.INT, 4096);
        assertNotSame(small, large);
        assertSame(large, scratch.array(BasicType.INT, 5));
    }

    @Test
    void shouldKeepOneArrayPerType()
    {
        final ScratchArrays scratch = new ScratchArrays();
        final Object longs = scratch.array(BasicType.LONG, 8);
        final Object bytes = scratch.array(BasicType.BYTE, 8);
        assertEquals(long[].class, longs.getClass());
        assertEquals(byte[].class, bytes.getClass());
        assertSame(longs, scratch.array(BasicType.LONG, 8));
    }

    @Test
    void shouldNotKeepArraysAboveTheLimit()
    {
        final ScratchArrays scratch = new ScratchArrays();
        final Object kept = scratch.array(BasicType.BYTE, 16);
        final Object huge = scratch.array(BasicType.BYTE, ScratchArrays.MAX_KEPT_BYTES + 1);
        assertEquals(ScratchArrays.MAX_KEPT_BYTES + 1, ((byte[])huge).length);
        assertSame(kept, scratch.array(BasicType.BYTE, 16));
        assertNotSame(huge, scratch.array(BasicType.BYTE, ScratchArrays.MAX_KEPT_BYTES + 1));
    }
}
