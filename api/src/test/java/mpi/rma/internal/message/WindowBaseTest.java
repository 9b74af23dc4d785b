package mpi.rma.internal.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import org.junit.jupiter.api.Test;

/** What {@link Win#create} accepts as memory, and the errors for the rest. */
public class WindowBaseTest
{
    @Test
    void shouldSeeArraysSegmentsAndDirectBuffersAsAllTheirBytes()
    {
        try (Arena arena = Arena.ofShared())
        {
            assertEquals(24, WindowBase.segmentOf(new double[3], "t").byteSize());
            assertEquals(12, WindowBase.segmentOf(new int[3], "t").byteSize());
            assertEquals(6, WindowBase.segmentOf(new char[3], "t").byteSize());
            assertEquals(0, WindowBase.segmentOf(new byte[0], "t").byteSize());
            assertEquals(40, WindowBase.segmentOf(arena.allocate(40), "t").byteSize());
            assertEquals(16, WindowBase.segmentOf(ByteBuffer.allocateDirect(16), "t").byteSize());
        }
    }

    @Test
    void shouldKeepAHeapArrayWrappedNotAddressed()
    {
        final long[] array = new long[2];
        final MemorySegment segment = WindowBase.segmentOf(array, "t");

        segment.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 1, 42);

        assertEquals(42, array[1]);
        assertTrue(segment.heapBase().isPresent());
    }

    @Test
    void shouldRefuseWhatTheAgentCannotWriteWithAnError()
    {
        try (Arena confined = Arena.ofConfined())
        {
            final MemorySegment confinedSegment = confined.allocate(8);
            assertRefused(null, "new byte[0]");
            assertRefused(new boolean[2], "byte[] of 0 and 1");
            assertRefused(ByteBuffer.allocate(8), "heap ByteBuffer");
            assertRefused(ByteBuffer.allocateDirect(8).asReadOnlyBuffer(), "read-only ByteBuffer");
            assertRefused(new String[1], "String[]");
            assertRefused(confinedSegment, "confined arena");
            assertRefused(MemorySegment.ofArray(new int[1]).asReadOnly(), "read-only MemorySegment");
        }
    }

    private static void assertRefused(final Object base, final String expected)
    {
        final RmaException e = assertThrows(RmaException.class, () -> WindowBase.segmentOf(base, "Win.create"));
        assertEquals(ErrorClass.ERR_BASE, e.errorClass());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
