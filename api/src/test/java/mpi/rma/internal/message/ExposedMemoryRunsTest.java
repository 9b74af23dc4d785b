package mpi.rma.internal.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.rma.ErrorClass;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.types.TypeLayouts;
import org.junit.jupiter.api.Test;

/**
 * What a target applies for a derived target datatype ({@link TargetRuns}) to the memory it exposes:
 * its one segment, or a dynamic window's attached regions, where every run must lie within a region
 * and nothing is applied otherwise.
 */
public class ExposedMemoryRunsTest
{
    @Test
    void shouldScatterGatherAndAccumulateIntoOneSegment() throws MPIException
    {
        final long[] memory = new long[10];
        final ExposedMemory exposed = new ExposedMemory(MemorySegment.ofArray(memory));
        final TargetRuns everyOther = runs(Datatype.Vector(4, 1, 2, MPI.LONG), 1);
        exposed.scatter(BasicType.LONG, new long[] {9, 1, 2, 3, 4}, 1, everyOther, 8);
        assertArrayEquals(new long[] {0, 1, 0, 2, 0, 3, 0, 4, 0, 0}, memory);
        final long[] old = new long[4];
        exposed.accumulate(BasicType.LONG, ReduceOp.of(MPI.SUM, BasicType.LONG, true, "t"), new long[] {10, 10, 10, 10},
            0, old, 0, everyOther, 8);
        assertArrayEquals(new long[] {1, 2, 3, 4}, old);
        final long[] back = new long[5];
        exposed.gather(BasicType.LONG, everyOther, 8, back, 1);
        assertArrayEquals(new long[] {0, 11, 12, 13, 14}, back);
    }

    @Test
    void shouldWriteNothingWhenARunCrossesTheEndOfAnAttachedRegion() throws MPIException
    {
        final ExposedMemory exposed = ExposedMemory.dynamic();
        final int[] region = new int[8];
        final long address = exposed.attach("t", MemorySegment.ofArray(region));
        // Blocks of 2 ints at 0, 3 and 7: the last runs one int past the region's end.
        final TargetRuns runs = runs(Datatype.Indexed(new int[] {2, 2, 2}, new int[] {0, 3, 7}, MPI.INT), 1);
        final AccessFault fault = assertThrows(AccessFault.class,
            () -> exposed.scatter(BasicType.INT, new int[] {1, 2, 3, 4, 5, 6}, 0, runs, address));
        assertEquals(ErrorClass.ERR_RMA_RANGE.name(), fault.getMessage());
        final String message = fault.immediate("Win.put", 1).getMessage();
        assertTrue(message.contains("rank 1 has 32 bytes attached at address " + address + ", and 8 bytes at " +
            "address " + (address + 28) + " run past their end"), message);
        assertArrayEquals(new int[8], region, "no run was written");
        assertThrows(AccessFault.class, () -> exposed.accumulate(BasicType.INT,
            ReduceOp.of(MPI.SUM, BasicType.INT, false, "t"), new int[6], 0, null, 0, runs, address));
        assertThrows(AccessFault.class, () -> exposed.gather(BasicType.INT, runs, address, new int[6], 0));
    }

    @Test
    void shouldApplyRunsAcrossTouchingRegionsAndLeaveTheBytesBetweenThemAlone() throws MPIException
    {
        final ExposedMemory exposed = ExposedMemory.dynamic();
        final long[] memory = new long[8];
        final MemorySegment whole = MemorySegment.ofArray(memory);
        final long address = exposed.attach("t", whole.asSlice(0, 32));
        exposed.attach("t", whole.asSlice(32));
        // Blocks of 2 longs at longs 0, 3 and 6: the second runs across the seam at long 4.
        final TargetRuns runs = runs(Datatype.Vector(3, 2, 3, MPI.LONG), 1);

        exposed.scatter(BasicType.LONG, new long[] {1, 2, 3, 4, 5, 6}, 0, runs, address);
        memory[2] = 99;
        exposed.accumulate(BasicType.LONG, ReduceOp.of(MPI.SUM, BasicType.LONG, false, "t"),
            new long[] {10, 10, 10, 10, 10, 10}, 0, null, 0, runs, address);
        final long[] back = new long[6];
        exposed.gather(BasicType.LONG, runs, address, back, 0);

        assertArrayEquals(new long[] {11, 12, 99, 13, 14, 0, 15, 16}, memory, "long 2 and 5 lie between runs");
        assertArrayEquals(new long[] {11, 12, 13, 14, 15, 16}, back);
    }

    @Test
    void shouldApplyRunsThatLieInDifferentAttachedRegions() throws MPIException
    {
        final ExposedMemory exposed = ExposedMemory.dynamic();
        final long[] first = new long[4];
        final long[] second = new long[4];
        final long a = exposed.attach("t", MemorySegment.ofArray(first));
        final long b = exposed.attach("t", MemorySegment.ofArray(second));
        // One block of 2 longs at the end of the first region, one at the start of the second, in between the gap.
        final int gap = (int)((b - a) / Long.BYTES);
        final TargetRuns runs = runs(Datatype.Indexed(new int[] {2, 2}, new int[] {2, gap}, MPI.LONG), 1);
        exposed.scatter(BasicType.LONG, new long[] {1, 2, 3, 4}, 0, runs, a);
        assertArrayEquals(new long[] {0, 0, 1, 2}, first);
        assertArrayEquals(new long[] {3, 4, 0, 0}, second);
        final long[] back = new long[4];
        exposed.gather(BasicType.LONG, runs, a, back, 0);
        assertArrayEquals(new long[] {1, 2, 3, 4}, back);
    }

    private static TargetRuns runs(final Datatype datatype, final int count)
    {
        return TargetRuns.of(TypeLayouts.of(datatype, "t"), count);
    }
}
