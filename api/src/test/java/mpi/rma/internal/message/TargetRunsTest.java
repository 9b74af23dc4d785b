package mpi.rma.internal.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.common.BasicType;
import mpi.rma.internal.types.TypeLayout;
import mpi.rma.internal.types.TypeLayouts;
import mpi.rma.internal.types.TypeModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The run lists that carry a derived target datatype on the message path, against the brute-force
 * expansion of each constructor ({@link TypeModel}): every element where the type map puts it, in
 * its order, after a trip through the wire form.
 */
public class TargetRunsTest
{
    @ParameterizedTest(name = "{0}")
    @MethodSource("mpi.rma.internal.types.TypeLayoutTest#types")
    void shouldListEveryTargetElementInTypeMapOrderAfterTheWire(final TypeModel model)
    {
        final TypeLayout layout = TypeLayouts.of(model.datatype(), "t");
        for (int count = 1; count <= 3; count++)
        {
            final TargetRuns sent = TargetRuns.of(layout, count);
            final List<Long> expected = model.elements(count);
            assertEquals(expected.size(), sent.elements(), "count " + count);
            if (expected.isEmpty())
            {
                continue;
            }
            final TargetRuns received = TargetRuns.decode(sent.encode(), 0, sent.encodedLongs(), BasicType.DOUBLE,
                expected.size());
            assertEquals(expected, positions(received), "count " + count + ", runs " + received);
            assertEquals(Collections.min(expected) * Double.BYTES, received.lowestByte(), "lowest byte");
            assertEquals((Collections.max(expected) + 1) * Double.BYTES, received.endByte(), "end byte");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mpi.rma.internal.types.TypeLayoutTest#types")
    void shouldScatterAndGatherEachElementWhereTheTypeMapSays(final TypeModel model)
    {
        final TypeLayout layout = TypeLayouts.of(model.datatype(), "t");
        final int count = 2;
        final List<Long> elements = model.elements(count);
        if (elements.isEmpty())
        {
            return;
        }
        final long base = -Collections.min(elements);
        final long span = base + Collections.max(elements) + 1;
        final double[] dense = new double[elements.size() + 3];
        for (int k = 0; k < dense.length; k++)
        {
            dense[k] = 100 + k;
        }
        final TargetRuns runs = TargetRuns.of(layout, count);
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(span * Double.BYTES, Double.BYTES);
            // From dense index 3: the dense data of a request need not start at 0 (a dense origin's offset).
            runs.scatter(BasicType.DOUBLE, dense, 3, memory, base * Double.BYTES);
            for (int k = 0; k < elements.size(); k++)
            {
                assertEquals(103 + k, memory.getAtIndex(ValueLayout.JAVA_DOUBLE, base + elements.get(k)),
                    "element " + k);
            }
            final double[] back = new double[elements.size() + 1];
            runs.gather(BasicType.DOUBLE, memory, base * Double.BYTES, back, 1);
            for (int k = 0; k < elements.size(); k++)
            {
                assertEquals(103 + k, back[1 + k], "gathered element " + k);
            }
            assertEquals(0, back[0], "nothing gathered before the index");
        }
    }

    @Test
    void shouldCarryAVectorOfAnyCountAsOneRepeatedRun() throws MPIException
    {
        final TypeLayout column = TypeLayouts.of(Datatype.Vector(1000, 1, 2, MPI.DOUBLE), "t");
        final TargetRuns runs = TargetRuns.of(column, 1);
        assertEquals(TargetRuns.FIXED_LONGS + 2, runs.encodedLongs(), "a thousand elements in " + runs);
        assertArrayEquals(new long[] {1, 0, 1000, 16, 1, 0, 1}, runs.encode());
        assertTrue(RmaRequest.inlineLayout(runs.encodedLongs()), "the halo column rides in the request header");
        final TypeLayout blocks = TypeLayouts.of(Datatype.Vector(3, 2, 5, MPI.INT), "t");
        assertArrayEquals(new long[] {4, 48, 3, 20, 1, 0, 2}, TargetRuns.of(blocks, 4).encode(),
            "4 copies of a vector of extent 12 ints whose 3 blocks are 5 ints apart");
    }

    @Test
    void shouldCarryTheBlocksOfOneCopyRepeatedAtTheExtent() throws MPIException
    {
        final TypeLayout indexed = TypeLayouts.of(Datatype.Indexed(new int[] {2, 1, 3}, new int[] {5, 0, 9},
            MPI.INT), "t");
        assertArrayEquals(new long[] {2, 48, 1, 0, 3, 20, 2, 0, 1, 36, 3}, TargetRuns.of(indexed, 2).encode(),
            "extent 12 ints: 48 bytes from one copy to the next, each block in type-map order");
    }

    @Test
    void shouldMergeRunsThatMeetAcrossCopies() throws MPIException
    {
        // Blocks at 0 (2 ints) and 5 (2 ints), extent 7: the second block of a copy ends where the next copy begins.
        final TypeLayout layout = TypeLayouts.of(Datatype.Indexed(new int[] {2, 2}, new int[] {0, 5}, MPI.INT), "t");
        final List<long[]> walked = new ArrayList<>();
        TargetRuns.of(layout, 2).forEachRun((offset, count, index) -> walked.add(new long[] {offset, count, index}));
        assertEquals(3, walked.size());
        assertArrayEquals(new long[] {0, 2, 0}, walked.get(0));
        assertArrayEquals(new long[] {20, 4, 2}, walked.get(1), "ints 5 and 6 of copy 0 with ints 0 and 1 of copy 1");
        assertArrayEquals(new long[] {48, 2, 6}, walked.get(2));
    }

    @Test
    void shouldCarryAContiguousRepetitionAsOneRun() throws MPIException
    {
        // Two copies of Hindexed({3}, {2}): blocks 2..4 and 5..7, one run of 6.
        final TypeLayout layout = TypeLayouts.of(Datatype.Hindexed(new int[] {3}, new int[] {2}, MPI.LONG), "t");
        assertArrayEquals(new long[] {1, 0, 1, 0, 1, 16, 6}, TargetRuns.of(layout, 2).encode());
    }

    @Test
    void shouldKeepANestedVectorOfContiguousInTypeMapOrder() throws MPIException
    {
        final Datatype pair = Datatype.Contiguous(2, MPI.SHORT);
        final TypeLayout layout = TypeLayouts.of(Datatype.Vector(3, 1, 3, pair), "t");
        // Pairs at shorts 0, 6 and 12: one run of two shorts repeated 12 bytes apart.
        assertArrayEquals(new long[] {1, 0, 3, 12, 1, 0, 2}, TargetRuns.of(layout, 1).encode());
    }

    @Test
    void shouldHoldNoRunForNoElement() throws MPIException
    {
        final TypeLayout column = TypeLayouts.of(Datatype.Vector(4, 1, 3, MPI.INT), "t");
        final TypeLayout empty = TypeLayouts.of(Datatype.Vector(0, 1, 3, MPI.INT), "t");
        for (final TargetRuns runs : List.of(TargetRuns.of(column, 0), TargetRuns.of(empty, 5)))
        {
            assertEquals(0, runs.elements());
            runs.forEachRun((offset, count, index) -> { throw new AssertionError("a run of no element"); });
            assertEquals(0, runs.lowestByte());
            assertEquals(0, runs.endByte());
        }
    }

    @Test
    void shouldRefuseAMalformedRunListAsMessagesOutOfStep() throws MPIException
    {
        final long[] encoded = TargetRuns.of(TypeLayouts.of(Datatype.Vector(4, 1, 3, MPI.INT), "t"), 1).encode();
        final RmaException wrongCount = assertThrows(RmaException.class,
            () -> TargetRuns.decode(encoded, 0, encoded.length, BasicType.INT, 5));
        assertEquals(ErrorClass.ERR_OTHER, wrongCount.errorClass());
        assertTrue(wrongCount.getMessage().contains("out of step"), wrongCount.getMessage());
        assertThrows(RmaException.class, () -> TargetRuns.decode(encoded, 0, encoded.length - 1, BasicType.INT, 4));
        final long[] emptyRun = encoded.clone();
        emptyRun[TargetRuns.FIXED_LONGS + 1] = 0;
        assertThrows(RmaException.class, () -> TargetRuns.decode(emptyRun, 0, emptyRun.length, BasicType.INT, 0));
    }

    @Test
    void shouldDecodeARunListInsideARequestHeader() throws MPIException
    {
        final TargetRuns runs = TargetRuns.of(TypeLayouts.of(Datatype.Vector(3, 1, 2, MPI.LONG), "t"), 1);
        final long[] header = RmaRequest.withRuns(RmaRequest.PUT, BasicType.LONG, null, 3, 800, runs,
            new long[] {7, 8, 9, 10}, 1);
        assertEquals(RmaRequest.HEADER_LONGS + runs.encodedLongs() + 3, header.length);
        assertEquals(runs.encodedLongs(), header[RmaRequest.LAYOUT_LONGS]);
        final TargetRuns decoded = TargetRuns.decode(header, RmaRequest.HEADER_LONGS,
            (int)header[RmaRequest.LAYOUT_LONGS], BasicType.LONG, header[RmaRequest.COUNT]);
        assertEquals(List.of(0L, 2L, 4L), positions(decoded));
        final int dataAt = RmaRequest.dataIndex(header);
        assertArrayEquals(new long[] {8, 9, 10}, (long[])RmaRequest.inlineData(header, dataAt, BasicType.LONG, 3));
        final long[] dense = RmaRequest.header(RmaRequest.PUT, BasicType.LONG, null, 3, 800, false);
        assertEquals(0, dense[RmaRequest.LAYOUT_LONGS], "a dense request says it has no run list");
        assertEquals(RmaRequest.HEADER_LONGS, RmaRequest.dataIndex(dense));
    }

    /** Each element's position in doubles, relative to the target displacement, in the runs' order. */
    private static List<Long> positions(final TargetRuns runs)
    {
        final List<Long> positions = new ArrayList<>();
        runs.forEachRun((offset, count, index) ->
        {
            assertEquals(positions.size(), index, "index of the run at byte " + offset);
            for (int i = 0; i < count; i++)
            {
                positions.add(offset / Double.BYTES + i);
            }
        });
        return positions;
    }
}
