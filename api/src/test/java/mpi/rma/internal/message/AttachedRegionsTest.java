package mpi.rma.internal.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;
import org.junit.jupiter.api.Test;

/** The address space of a dynamic window's attached memory ({@link AttachedRegions}) and its faults. */
public class AttachedRegionsTest
{
    private final AttachedRegions regions = new AttachedRegions();

    @Test
    void shouldHandOutAlignedAddressesThatOnlyGrowWithAGapBetweenTheRegionsOfDifferentMemory()
    {
        final long first = regions.attach("t", MemorySegment.ofArray(new double[3]));
        final long second = regions.attach("t", MemorySegment.ofArray(new byte[1]));
        final long third = regions.attach("t", MemorySegment.ofArray(new byte[0]));

        assertEquals(AttachedRegions.FIRST_ADDRESS, first);
        assertTrue(second >= first + 24 + AttachedRegions.ALIGNMENT, () -> first + " then " + second);
        assertTrue(third >= second + 1 + AttachedRegions.ALIGNMENT, () -> second + " then " + third);
        assertEquals(0, second % AttachedRegions.ALIGNMENT);
        assertEquals(0, third % AttachedRegions.ALIGNMENT);
    }

    @Test
    void shouldNeverReuseTheAddressOfADetachedRegion()
    {
        final double[] array = new double[2];
        final long before = regions.attach("t", MemorySegment.ofArray(array));
        regions.detach("t", MemorySegment.ofArray(array));

        final long after = regions.attach("t", MemorySegment.ofArray(array));

        assertTrue(after > before, () -> before + " reused as " + after);
        final AccessFault stale = assertThrows(AccessFault.class, () -> regions.span(before, 8));
        assertTrue(stale.immediate("Win.get", 1).getMessage().contains("has no memory attached at address " +
            before + " (8 bytes)"));
    }

    @Test
    void shouldResolveAnAddressToTheAttachedMemoryItself()
    {
        final long[] array = new long[4];
        final long base = regions.attach("t", MemorySegment.ofArray(array));

        regions.span(base + 2 * Long.BYTES, Long.BYTES).memory().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 42);

        assertArrayEquals(new long[] {0, 0, 42, 0}, array);
    }

    @Test
    void shouldRefuseAnAccessThatRunsPastTheRegionsEndNamingTheRegion()
    {
        final long base = regions.attach("t", MemorySegment.ofArray(new int[2]));

        final AccessFault fault = assertThrows(AccessFault.class, () -> regions.span(base + 4, 8));

        assertEquals("MPI_ERR_RMA_RANGE: Win.flush: an earlier put or accumulate of this process to rank 3 was " +
            "not applied: rank 3 has 8 bytes attached at address " + base + ", and 8 bytes at address " + (base + 4) +
            " run past their end (and 1 more such accesses since the last synchronisation) (MPI-4.1 section 12.2.4: " +
            "a dynamic window's target memory must be attached for every access)",
            fault.deferred("Win.flush", 3, 2, "").getMessage());
    }

    @Test
    void shouldRefuseAddressesBelowTheFirstRegionAndInTheGap()
    {
        final long base = regions.attach("t", MemorySegment.ofArray(new byte[8]));

        assertThrows(AccessFault.class, () -> regions.span(0, 1));
        assertThrows(AccessFault.class, () -> regions.span(base - 1, 1));
        assertThrows(AccessFault.class, () -> regions.span(base + 8, 1));
        assertEquals(0, regions.span(0, 0).memory().byteSize(), "a zero-byte access touches nothing and is allowed");
    }

    @Test
    void shouldRefuseTheSameMemoryTwiceAndOverlappingMemory()
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment whole = arena.allocate(128);
            final MemorySegment native64 = whole.asSlice(0, 64);
            final double[] array = new double[4];
            regions.attach("t", MemorySegment.ofArray(array));
            regions.attach("t", native64);

            final RmaException twice = assertThrows(RmaException.class,
                () -> regions.attach("Win.attach", MemorySegment.ofArray(array)));
            final RmaException overlap = assertThrows(RmaException.class,
                () -> regions.attach("Win.attach", whole.asSlice(32, 64)));

            assertEquals(ErrorClass.ERR_RMA_ATTACH, twice.errorClass());
            assertTrue(twice.getMessage().contains("is already attached to the window, at address " +
                AttachedRegions.FIRST_ADDRESS), twice.getMessage());
            assertEquals(ErrorClass.ERR_RMA_ATTACH, overlap.errorClass());
            assertTrue(overlap.getMessage().contains("overlaps the region of 64 bytes"), overlap.getMessage());
            assertEquals(2, regions.count());
        }
    }

    @Test
    void shouldTakeDisjointPiecesOfOneArrayAndOneSegment()
    {
        final MemorySegment whole = MemorySegment.ofArray(new long[4]);

        final long low = regions.attach("t", whole.asSlice(0, 16));
        final long high = regions.attach("t", whole.asSlice(16, 16));

        assertTrue(high > low);
        assertEquals(2, regions.count());
    }

    @Test
    void shouldGiveTouchingPiecesOfOneArrayTouchingAddressesInEitherOrder()
    {
        final MemorySegment whole = MemorySegment.ofArray(new long[8]);

        final long upper = regions.attach("t", whole.asSlice(32, 32));
        final long lower = regions.attach("t", whole.asSlice(0, 32));
        final long other = regions.attach("t", MemorySegment.ofArray(new long[1]));

        assertEquals(lower + 32, upper, "the upper half's address is right after the lower half's last byte");
        assertTrue(other >= upper + 32 + AttachedRegions.ALIGNMENT, () -> "another array at " + other +
            " is not apart from the whole array's addresses, which end at " + (upper + 32));
    }

    @Test
    void shouldGiveTouchingPiecesOfOneNativeSegmentTouchingAddresses()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment whole = arena.allocate(4096, 64);

            final long first = regions.attach("t", whole.asSlice(0, 2048));
            final long second = regions.attach("t", whole.asSlice(2048, 2048));

            assertEquals(first + 2048, second);
            assertEquals(first + 3000, regions.address("t", whole.asSlice(2048), 952));
        }
    }

    @Test
    void shouldLetAnAccessRunAcrossTouchingRegionsAndWriteEachRegion()
    {
        final ExposedMemory exposed = ExposedMemory.dynamic();
        final int[] array = new int[6];
        final MemorySegment whole = MemorySegment.ofArray(array);
        // Split at byte 10: the int at bytes 8 to 11 lies in both regions.
        final long base = exposed.attach("t", whole.asSlice(0, 10));
        exposed.attach("t", whole.asSlice(10, 14));

        exposed.put(BasicType.INT, new int[] {1, 2, 3, 4, 5}, 0, 5, base);
        exposed.accumulate(BasicType.INT, ReduceOp.SUM, new int[] {10, 10}, 0, null, 0, 2, base + 8);
        final long old = exposed.compareAndSwap(BasicType.INT, base + 8, 13, 30);
        final int[] back = new int[6];
        exposed.get(BasicType.INT, base, back, 0, 6);

        assertEquals(13, old);
        assertArrayEquals(new int[] {1, 2, 30, 14, 5, 0}, array);
        assertArrayEquals(array, back);
    }

    @Test
    void shouldRefuseARunPastTheLastTouchingRegionNamingTheRun()
    {
        final MemorySegment whole = MemorySegment.ofArray(new byte[32]);
        final long base = regions.attach("t", whole.asSlice(0, 8));
        regions.attach("t", whole.asSlice(8, 8));

        final AccessFault past = assertThrows(AccessFault.class, () -> regions.span(base + 4, 16));
        assertThrows(AccessFault.class, () -> regions.span(base + 16, 1), "bytes 16 on are not attached");
        assertEquals(12, regions.span(base + 4, 12).memory().byteSize());

        assertTrue(past.immediate("Win.get", 1).getMessage().contains("rank 1 has 16 bytes attached at address " +
            base), past.immediate("Win.get", 1).getMessage());
    }

    @Test
    void shouldRefuseAnAccessAcrossAHoleBetweenPiecesOfOneArray()
    {
        final MemorySegment whole = MemorySegment.ofArray(new byte[32]);
        final long low = regions.attach("t", whole.asSlice(0, 8));
        final long high = regions.attach("t", whole.asSlice(16, 8));

        assertEquals(low + 16, high, "pieces of one array keep their distance in addresses");
        assertThrows(AccessFault.class, () -> regions.span(low, 20));
    }

    @Test
    void shouldGiveNewAddressesToMemoryAttachedAfterAPieceOfItsBlockWasDetached()
    {
        final MemorySegment whole = MemorySegment.ofArray(new long[4]);
        final long lower = regions.attach("t", whole.asSlice(0, 16));
        final long upper = regions.attach("t", whole.asSlice(16, 16));

        regions.detach("t", whole.asSlice(16, 16));
        final long again = regions.attach("t", whole.asSlice(16, 16));

        assertEquals(lower + 16, upper);
        assertTrue(again > upper + 16, () -> "reattached at " + again + ", within the old addresses up to " +
            (upper + 16));
        assertThrows(AccessFault.class, () -> regions.span(upper, 8), "the old address names nothing");
        assertThrows(AccessFault.class, () -> regions.span(lower, 32), "the halves no longer touch");
    }

    @Test
    void shouldDetachOnlyWhatWasAttached()
    {
        final double[] array = new double[4];
        regions.attach("t", MemorySegment.ofArray(array));

        final RmaException other = assertThrows(RmaException.class,
            () -> regions.detach("Win.detach", MemorySegment.ofArray(new double[4])));
        final RmaException part = assertThrows(RmaException.class,
            () -> regions.detach("Win.detach", MemorySegment.ofArray(array).asSlice(8)));
        regions.detach("Win.detach", MemorySegment.ofArray(array));
        final RmaException again = assertThrows(RmaException.class,
            () -> regions.detach("Win.detach", MemorySegment.ofArray(array)));

        assertEquals(ErrorClass.ERR_BASE, other.errorClass());
        assertEquals(ErrorClass.ERR_BASE, part.errorClass());
        assertTrue(again.getMessage().contains("is not attached to the window (never attached, or detached " +
            "already)"), again.getMessage());
        assertEquals(0, regions.count());
    }

    @Test
    void shouldGiveTheAddressOfAnyByteOfAttachedMemoryAndOfASliceOfIt()
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(32);
        final MemorySegment segment = MemorySegment.ofBuffer(buffer);
        final long base = regions.attach("t", segment);

        assertEquals(base + 8, regions.address("t", MemorySegment.ofBuffer(buffer), 8));
        assertEquals(base + 32, regions.address("t", segment, 32), "the end, to compute where the region ends");
        assertEquals(base + 16 + 4, regions.address("t", segment.asSlice(16, 8), 4));
        assertEquals(ErrorClass.ERR_ARG, assertThrows(RmaException.class,
            () -> regions.address("t", segment, 33)).errorClass());
        assertEquals(ErrorClass.ERR_BASE, assertThrows(RmaException.class,
            () -> regions.address("t", MemorySegment.ofArray(new byte[4]), 0)).errorClass());
    }

    @Test
    void shouldApplyOperationsOfADynamicExposedMemoryToTheAttachedArray()
    {
        final ExposedMemory exposed = ExposedMemory.dynamic();
        final int[] array = new int[3];
        final long base = exposed.attach("t", MemorySegment.ofArray(array));

        exposed.put(BasicType.INT, new int[] {5, 6}, 0, 2, base + Integer.BYTES);
        exposed.accumulate(BasicType.INT, ReduceOp.SUM, new int[] {10}, 0, null, 0, 1, base + Integer.BYTES);
        final long old = exposed.compareAndSwap(BasicType.INT, base, 0, 7);
        final int[] back = new int[3];
        exposed.get(BasicType.INT, base, back, 0, 3);

        assertEquals(0, old);
        assertArrayEquals(new int[] {7, 15, 6}, array);
        assertArrayEquals(array, back);
        assertThrows(AccessFault.class, () -> exposed.put(BasicType.INT, new int[] {1, 2}, 0, 2,
            base + 2 * Integer.BYTES));
        assertEquals(6, array[2], "a faulting put writes nothing, not even its first element");
    }
}
