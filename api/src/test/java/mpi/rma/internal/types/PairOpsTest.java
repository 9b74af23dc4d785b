package mpi.rma.internal.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.PairType;
import mpi.rma.spi.common.ReduceOp;

/** MAXLOC, MINLOC, REPLACE and NO_OP on MPJ Express's pair types: the rule, the ops and the datatypes allowed. */
public class PairOpsTest
{
    @Test
    void shouldRecogniseTheFivePairTypesOnly()
    {
        assertEquals(PairType.INT2, PairType.of(MPI.INT2));
        assertEquals(PairType.DOUBLE2, PairType.of(MPI.DOUBLE2));
        assertEquals(BasicType.SHORT, PairType.of(MPI.SHORT2).basic());
        assertNull(PairType.of(MPI.INT));
        assertNull(PairType.of(null));
        assertNull(PairType.of(mpi.Datatype.Contiguous(2, MPI.INT)), "a look-alike is not the pair type");
        assertEquals("MPI.LONG2", TypeLayouts.of(MPI.LONG2, "t").name());
        assertEquals(2, TypeLayouts.of(MPI.FLOAT2, "t").size());
    }

    @Test
    void shouldResolvePairOpsAndRefuseTheOthers()
    {
        assertEquals(ReduceOp.MAXLOC, ReduceOp.ofPair(MPI.MAXLOC, PairType.INT2, false, "t"));
        assertEquals(ReduceOp.MINLOC, ReduceOp.ofPair(MPI.MINLOC, PairType.DOUBLE2, false, "t"));
        assertEquals(ReduceOp.PAIR_REPLACE, ReduceOp.ofPair(Win.REPLACE, PairType.LONG2, false, "t"));
        assertEquals(ReduceOp.PAIR_NO_OP, ReduceOp.ofPair(Win.NO_OP, PairType.SHORT2, true, "t"));
        assertTrue(ReduceOp.PAIR_NO_OP.pairwise() && !ReduceOp.PAIR_NO_OP.readsOrigin());
        assertTrue(ReduceOp.MAXLOC.pairwise() && ReduceOp.MAXLOC.readsOrigin() && !ReduceOp.REPLACE.pairwise());

        assertError(ErrorClass.ERR_OP, "not defined on MPI.INT2",
            () -> ReduceOp.ofPair(MPI.SUM, PairType.INT2, false, "t"));
        assertError(ErrorClass.ERR_OP, "only getAccumulate and fetchAndOp",
            () -> ReduceOp.ofPair(Win.NO_OP, PairType.INT2, false, "t"));
        assertError(ErrorClass.ERR_OP, "op is null", () -> ReduceOp.ofPair(null, PairType.INT2, true, "t"));
        assertError(ErrorClass.ERR_OP, "pair type", () -> ReduceOp.of(MPI.MAXLOC, BasicType.LONG, false, "t"));
        assertError(ErrorClass.ERR_OP, "pair type", () -> ReduceOp.of(MPI.MINLOC, BasicType.DOUBLE, true, "t"));
    }

    @Test
    void shouldKeepTheGreaterValueAndOnTiesTheLowerIndex()
    {
        // (current value, current index, offered value, offered index, MAXLOC takes it, MINLOC takes it)
        final long[][] cases = {{5, 3, 7, 9, 1, 0}, {5, 3, 2, 0, 0, 1}, {5, 3, 5, 1, 1, 1}, {5, 3, 5, 4, 0, 0},
            {5, 3, 5, 3, 0, 0}, {-1, 0, -2, 0, 0, 1}};
        for (final long[] c : cases)
        {
            assertEquals(c[4] == 1, ReduceOp.MAXLOC.pairTakesOperand(BasicType.INT, c[0], c[1], c[2], c[3]),
                "MAXLOC " + java.util.Arrays.toString(c));
            assertEquals(c[5] == 1, ReduceOp.MINLOC.pairTakesOperand(BasicType.INT, c[0], c[1], c[2], c[3]),
                "MINLOC " + java.util.Arrays.toString(c));
        }
        assertTrue(ReduceOp.MAXLOC.pairTakesOperand(BasicType.DOUBLE, bits(-0.5), bits(2), bits(0.25), bits(7)));
        assertTrue(ReduceOp.MINLOC.pairTakesOperand(BasicType.DOUBLE, bits(0.0), bits(2), bits(-0.0), bits(1)),
            "-0.0 equals 0.0, and index 1 is lower");
        assertTrue(!ReduceOp.MAXLOC.pairTakesOperand(BasicType.DOUBLE, bits(1), bits(2), bits(Double.NaN), bits(0)),
            "a NaN never replaces a pair");
        assertTrue(ReduceOp.PAIR_REPLACE.pairTakesOperand(BasicType.INT, 9, 0, 1, 5));
        assertTrue(!ReduceOp.PAIR_NO_OP.pairTakesOperand(BasicType.INT, 1, 0, 9, 5));
    }

    @Test
    void shouldCombineBothHalvesOfAPairInMemory()
    {
        final MemorySegment memory = MemorySegment.ofArray(new long[4]);
        memory.set(ValueLayout.JAVA_FLOAT, 4, 1.5f);
        memory.set(ValueLayout.JAVA_FLOAT, 8, 4f);
        final float[] old = new float[3];

        PairElements.combine(BasicType.FLOAT, ReduceOp.MAXLOC, memory, 4, new float[] {0, 2.5f, 1f}, 1, old, 1, 0);

        assertArrayEquals(new float[] {0, 1.5f, 4f}, old);
        assertEquals(2.5f, memory.get(ValueLayout.JAVA_FLOAT, 4));
        assertEquals(1f, memory.get(ValueLayout.JAVA_FLOAT, 8));
        PairElements.combine(BasicType.FLOAT, ReduceOp.PAIR_NO_OP, memory, 4, null, 0, old, 0, 0);
        assertArrayEquals(new float[] {2.5f, 1f, 4f}, old);
    }

    @Test
    void shouldWantTheSamePairTypeOnEverySide()
    {
        final TypeLayout int2 = TypeLayouts.of(MPI.INT2, "t");
        final TypeLayout ints = TypeLayouts.of(MPI.INT, "t");
        assertEquals(ReduceOp.MAXLOC, AccumulateOps.forAccumulate(MPI.MAXLOC, MPI.INT2, int2, MPI.INT2, "t"));
        assertEquals(ReduceOp.PAIR_NO_OP,
            AccumulateOps.forGetAccumulate(Win.NO_OP, null, MPI.INT2, MPI.INT2, int2, "t"), "NO_OP reads no origin");
        assertEquals(ReduceOp.SUM, AccumulateOps.forAccumulate(MPI.SUM, MPI.INT, ints, MPI.INT, "t"));

        assertError(ErrorClass.ERR_TYPE, "targetType is MPI.INT",
            () -> AccumulateOps.forAccumulate(MPI.MAXLOC, MPI.INT2, int2, MPI.INT, "t"));
        assertError(ErrorClass.ERR_TYPE, "targetType is a derived datatype",
            () -> AccumulateOps.forAccumulate(Win.REPLACE, MPI.INT2, int2, mpi.Datatype.Contiguous(2, MPI.INT), "t"));
        assertError(ErrorClass.ERR_TYPE, "targetType is the pair type MPI.INT2",
            () -> AccumulateOps.forAccumulate(Win.REPLACE, MPI.INT, ints, MPI.INT2, "t"));
        assertError(ErrorClass.ERR_TYPE, "resultType is the pair type MPI.LONG2",
            () -> AccumulateOps.forGetAccumulate(Win.NO_OP, null, MPI.LONG2, MPI.LONG,
                TypeLayouts.of(MPI.LONG, "t"), "t"));
        assertError(ErrorClass.ERR_TYPE, "resultType is null",
            () -> AccumulateOps.forGetAccumulate(MPI.MINLOC, MPI.INT2, null, MPI.INT2, int2, "t"));
        assertError(ErrorClass.ERR_OP, "not defined on MPI.INT2",
            () -> AccumulateOps.forGetAccumulate(MPI.PROD, MPI.INT2, MPI.INT2, MPI.INT2, int2, "t"));
    }

    private static long bits(final double value)
    {
        return Double.doubleToRawLongBits(value);
    }

    private static void assertError(final ErrorClass expected, final String fragment, final Executable call)
    {
        final RmaException e = assertThrows(RmaException.class, call);
        assertEquals(expected, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }
}
