package mpi.rma.internal.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import mpi.Datatype;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import org.junit.jupiter.api.Test;
import mpi.rma.spi.common.BasicType;

public class BasicTypeTest
{
    @Test
    void shouldKnowEveryBasicMpjType()
    {
        assertEquals(BasicType.BYTE, BasicType.of(MPI.BYTE, "t"));
        assertEquals(BasicType.CHAR, BasicType.of(MPI.CHAR, "t"));
        assertEquals(BasicType.SHORT, BasicType.of(MPI.SHORT, "t"));
        assertEquals(BasicType.BOOLEAN, BasicType.of(MPI.BOOLEAN, "t"));
        assertEquals(BasicType.INT, BasicType.of(MPI.INT, "t"));
        assertEquals(BasicType.LONG, BasicType.of(MPI.LONG, "t"));
        assertEquals(BasicType.FLOAT, BasicType.of(MPI.FLOAT, "t"));
        assertEquals(BasicType.DOUBLE, BasicType.of(MPI.DOUBLE, "t"));
        assertTrue(BasicType.INT.describes(new int[1]));
        assertFalse(BasicType.INT.describes(new long[1]));
    }

    @Test
    void shouldRejectNullObjectAndDerivedTypesAsErrType()
    {
        assertEquals(ErrorClass.ERR_TYPE, assertThrows(RmaException.class, () -> BasicType.of(null, "t")).errorClass());
        assertEquals(ErrorClass.ERR_TYPE,
            assertThrows(RmaException.class, () -> BasicType.of(MPI.OBJECT, "t")).errorClass());
        final Datatype pair = Datatype.Contiguous(2, MPI.INT);
        final RmaException e = assertThrows(RmaException.class, () -> BasicType.of(pair, "Win.put: originType"));
        assertEquals(ErrorClass.ERR_TYPE, e.errorClass());
        assertTrue(e.getMessage().startsWith("MPI_ERR_TYPE: Win.put: originType is a derived"), e.getMessage());
    }

    @Test
    void shouldCopyEveryTypeThroughMisalignedMemoryAndBack()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(64, 8);
            final Object[] arrays = {new byte[] {1, -2, 3}, new char[] {'a', 65535, 'z'}, new short[] {-1, 2, 3},
                new boolean[] {true, false, true}, new int[] {-7, 8, 9}, new long[] {Long.MIN_VALUE, 0, 1},
                new float[] {1.5f, Float.NaN, -0f}, new double[] {Math.PI, -1, 1e300}};
            for (final BasicType type : BasicType.values())
            {
                final Object source = arrays[type.ordinal()];
                type.copyToMemory(source, 1, memory, 3, 2);
                final Object back = java.lang.reflect.Array.newInstance(source.getClass().getComponentType(), 3);
                type.copyFromMemory(memory, 3, back, 0, 2);
                for (int i = 0; i < 2; i++)
                {
                    assertEquals(type.rawFromArray(source, i + 1), type.rawFromArray(back, i), type + " element " + i);
                    assertEquals(type.rawFromArray(source, i + 1),
                        type.rawFromMemory(memory, 3 + (long)i * type.sizeBytes()), type + " raw " + i);
                }
            }
        }
    }

    @Test
    void shouldRoundTripRawValues()
    {
        final double[] doubles = new double[1];
        BasicType.DOUBLE.rawToArray(Double.doubleToRawLongBits(-2.5), doubles, 0);
        final char[] chars = new char[1];
        BasicType.CHAR.rawToArray(BasicType.CHAR.normalise(-1), chars, 0);

        assertArrayEquals(new double[] {-2.5}, doubles);
        assertEquals(65535, chars[0]);
        assertEquals(BasicType.FLOAT.rawFromArray(new float[] {-1f}, 0), BasicType.FLOAT.normalise(
            Float.floatToRawIntBits(-1f) & 0xFFFF_FFFFL), "float raw values are sign-extended bits");
    }
}
