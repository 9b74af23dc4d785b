package mpi.rma.internal.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.Datatype;
import mpi.MPI;
import mpi.Op;
import mpi.User_function;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import org.junit.jupiter.api.Test;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;

public class ReduceOpTest
{
    @Test
    void shouldResolveMpjOperationsAndTheTwoOfMpi3()
    {
        assertEquals(ReduceOp.SUM, ReduceOp.of(MPI.SUM, BasicType.INT, false, "t"));
        assertEquals(ReduceOp.BXOR, ReduceOp.of(MPI.BXOR, BasicType.LONG, false, "t"));
        assertEquals(ReduceOp.LAND, ReduceOp.of(MPI.LAND, BasicType.BOOLEAN, false, "t"));
        assertEquals(ReduceOp.REPLACE, ReduceOp.of(Win.REPLACE, BasicType.DOUBLE, false, "t"));
        assertEquals(ReduceOp.NO_OP, ReduceOp.of(Win.NO_OP, BasicType.DOUBLE, true, "t"));
    }

    @Test
    void shouldRejectWhatAccumulateCannotDoAsErrOp()
    {
        final Op userOp = new Op(new User_function()
        {
            @Override
            public void Call(final Object in, final int inOffset, final Object inOut, final int inOutOffset,
                final int count, final Datatype datatype)
            {
            }
        }, true);

        assertOpError("only getAccumulate and fetchAndOp", () -> ReduceOp.of(Win.NO_OP, BasicType.INT, false, "t"));
        assertOpError("not defined on MPI.DOUBLE", () -> ReduceOp.of(MPI.BAND, BasicType.DOUBLE, false, "t"));
        assertOpError("not defined on MPI.BOOLEAN", () -> ReduceOp.of(MPI.SUM, BasicType.BOOLEAN, false, "t"));
        assertOpError("user-defined", () -> ReduceOp.of(userOp, BasicType.INT, false, "t"));
        assertOpError("MAXLOC", () -> ReduceOp.of(MPI.MAXLOC, BasicType.INT, false, "t"));
        assertOpError("null", () -> ReduceOp.of(null, BasicType.INT, false, "t"));
    }

    @Test
    void shouldComputeInTheTargetTypesRange()
    {
        assertEquals((byte)(127 + 1), ReduceOp.SUM.apply(BasicType.BYTE, 127, 1));
        assertEquals(65535, ReduceOp.MAX.apply(BasicType.CHAR, 65535, 1), "char is unsigned");
        assertEquals(Integer.MIN_VALUE, ReduceOp.SUM.apply(BasicType.INT, Integer.MAX_VALUE, 1));
        assertEquals(6, ReduceOp.PROD.apply(BasicType.LONG, 2, 3));
        assertEquals(0b0110, ReduceOp.BXOR.apply(BasicType.SHORT, 0b0101, 0b0011));
        assertEquals(1, ReduceOp.LXOR.apply(BasicType.BOOLEAN, 1, 0));
        assertEquals(0, ReduceOp.LAND.apply(BasicType.INT, 5, 0));
        assertEquals(7, ReduceOp.REPLACE.apply(BasicType.INT, 3, 7));
        assertEquals(3, ReduceOp.NO_OP.apply(BasicType.INT, 3, 7));
    }

    @Test
    void shouldAddFloatingPointBitsAsNumbers()
    {
        final long sum = ReduceOp.SUM.apply(BasicType.DOUBLE, Double.doubleToRawLongBits(1.25),
            Double.doubleToRawLongBits(2.5));
        final long min = ReduceOp.MIN.apply(BasicType.FLOAT, Float.floatToRawIntBits(-1.5f),
            Float.floatToRawIntBits(2f));

        assertEquals(3.75, Double.longBitsToDouble(sum));
        assertEquals(-1.5f, Float.intBitsToFloat((int)min));
    }

    private static void assertOpError(final String messagePart, final org.junit.jupiter.api.function.Executable call)
    {
        final RmaException e = assertThrows(RmaException.class, call);
        assertEquals(ErrorClass.ERR_OP, e.errorClass());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }
}
