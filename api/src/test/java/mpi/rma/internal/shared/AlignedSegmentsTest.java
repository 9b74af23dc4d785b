package mpi.rma.internal.shared;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;

public class AlignedSegmentsTest
{
    @Test
    void shouldRoundNonEmptySizesUpToTheAlignmentAndLeaveEmptyOnesEmpty()
    {
        assertArrayEquals(new long[] {64, 0, 128, 64}, AlignedSegments.padded(new long[] {3, 0, 65, 64}, 64));
    }

    @Test
    void shouldReturnTheSameSizesWhenNothingNeedsPadding()
    {
        final long[] sizes = {8, 16, 0};

        assertSame(sizes, AlignedSegments.padded(sizes, 8));
        assertSame(sizes, AlignedSegments.padded(sizes, 1));
    }

    @Test
    void shouldReportTheAlignmentOfTheFirstByteUpToAPage()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment page = arena.allocate(8192, 4096);

            assertEquals(4096, AlignedSegments.alignmentOf(page, 1));
            assertEquals(64, AlignedSegments.alignmentOf(page.asSlice(64 + 4096), 1));
            assertEquals(1, AlignedSegments.alignmentOf(page.asSlice(3), 1));
            assertEquals(16, AlignedSegments.alignmentOf(page.asSlice(3, 0), 16), "empty: what was agreed");
        }
    }
}
