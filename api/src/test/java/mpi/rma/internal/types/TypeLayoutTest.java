package mpi.rma.internal.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import mpi.rma.spi.common.BasicType;

/** Flattened layouts against a brute-force expansion of each constructor ({@link TypeModel}). */
public class TypeLayoutTest
{
    static List<Named<TypeModel>> types() throws MPIException
    {
        final TypeModel d = TypeModel.doubles();
        final TypeModel pair = TypeModel.contiguous(2, d);
        final TypeModel column = TypeModel.vector(4, 1, 5, d);
        return List.of(
            Named.of("basic", d),
            Named.of("contiguous", TypeModel.contiguous(3, d)),
            Named.of("vector stride 2", TypeModel.vector(5, 1, 2, d)),
            Named.of("vector of blocks", TypeModel.vector(3, 2, 4, d)),
            Named.of("vector negative stride", TypeModel.vector(3, 1, -2, d)),
            Named.of("hvector", TypeModel.hvector(3, 2, 7, d)),
            Named.of("indexed", TypeModel.indexed(new int[] {2, 1, 3}, new int[] {5, 0, 9}, d)),
            Named.of("indexed unit blocks", TypeModel.indexed(new int[] {1, 1, 1}, new int[] {4, 1, 2}, d)),
            Named.of("hindexed", TypeModel.hindexed(new int[] {1, 2}, new int[] {3, 10}, pair)),
            Named.of("struct", TypeModel.struct(new int[] {1, 2}, new int[] {0, 3}, d, pair)),
            Named.of("vector of contiguous", TypeModel.vector(3, 2, 4, pair)),
            Named.of("contiguous of vector", TypeModel.contiguous(2, column)),
            Named.of("vector of vector", TypeModel.vector(2, 1, 3, column)),
            Named.of("indexed of vector", TypeModel.indexed(new int[] {1, 2}, new int[] {3, 0}, column)),
            Named.of("struct of vector and indexed", TypeModel.struct(new int[] {1, 1}, new int[] {2, 40}, column,
                TypeModel.indexed(new int[] {2}, new int[] {1}, d))),
            Named.of("empty vector", TypeModel.vector(0, 1, 2, d)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void shouldListEveryElementInTypeMapOrder(final TypeModel model)
    {
        final TypeLayout layout = TypeLayouts.of(model.datatype(), "t");
        assertEquals(BasicType.DOUBLE, layout.basic());
        assertEquals(model.elements().size(), layout.size());
        for (int count = 0; count <= 3; count++)
        {
            assertEquals(model.elements(count), walk(layout, count), "count " + count);
            if (count > 0 && layout.size() > 0)
            {
                assertEquals(Collections.min(model.elements(count)), layout.lowestElement(count), "lowest");
                assertEquals(Collections.max(model.elements(count)) + 1, layout.endElement(count), "end");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void shouldPutAndGetEachElementWhereTheTypeMapSays(final TypeModel model)
    {
        final TypeLayout layout = TypeLayouts.of(model.datatype(), "t");
        final int count = 2;
        final List<Long> elements = model.elements(count);
        final long base = elements.isEmpty() ? 0 : -Collections.min(elements);
        final int span = (int)(base + (elements.isEmpty() ? 0 : Collections.max(elements) + 1));
        final TypeLayout flat = TypeLayouts.of(MPI.DOUBLE, "t");
        final double[] packed = new double[elements.size()];
        for (int k = 0; k < packed.length; k++)
        {
            packed[k] = 100 + k;
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(Math.max(1, span) * 8L, 8);
            // Contiguous origin into the derived target: element k lands at the target's k-th position.
            TypedMoves.put(packed, 0, flat, packed.length, memory, base * 8, layout, count);
            for (int k = 0; k < packed.length; k++)
            {
                assertEquals(100 + k, memory.getAtIndex(ValueLayout.JAVA_DOUBLE, base + elements.get(k)),
                    "element " + k);
            }
            // Derived origin from the array into contiguous memory, and back with get into a derived origin.
            final double[] scattered = new double[span];
            for (int k = 0; k < packed.length; k++)
            {
                scattered[(int)(base + elements.get(k))] = 200 + k;
            }
            TypedMoves.put(scattered, (int)base, layout, count, memory, 0, flat, packed.length);
            for (int k = 0; k < packed.length; k++)
            {
                assertEquals(200 + k, memory.getAtIndex(ValueLayout.JAVA_DOUBLE, k), "packed element " + k);
            }
            final double[] back = new double[span];
            TypedMoves.get(back, (int)base, layout, count, memory, 0, flat, packed.length);
            assertArrayEquals(scattered, back);
        }
    }

    @Test
    void shouldMoveBetweenTwoDerivedTypesOfDifferentShapes() throws MPIException
    {
        // 6 elements each: a stride-3 vector of pairs (origin) and an indexed type (target).
        final TypeModel origin = TypeModel.vector(3, 2, 3, TypeModel.doubles());
        final TypeModel target = TypeModel.indexed(new int[] {4, 1, 1}, new int[] {10, 0, 6}, TypeModel.doubles());
        final double[] array = new double[9];
        for (int i = 0; i < array.length; i++)
        {
            array[i] = i;
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(14 * 8L, 8);
            TypedMoves.put(array, 0, TypeLayouts.of(origin.datatype(), "o"), 1, memory, 0,
                TypeLayouts.of(target.datatype(), "t"), 1);
            for (int k = 0; k < 6; k++)
            {
                assertEquals((double)origin.elements().get(k),
                    memory.getAtIndex(ValueLayout.JAVA_DOUBLE, target.elements().get(k)), "element " + k);
            }
        }
    }

    @Test
    void shouldKeepAVectorAsThreeNumbers() throws MPIException
    {
        final TypeLayout column = TypeLayouts.of(Datatype.Vector(1000, 1, 2, MPI.DOUBLE), "t");
        assertEquals(new TypeLayout.Strided(0, 1000, 1, 2), column.strided(1));
        assertNull(column.strided(2), "two copies of a vector of extent 1999 are not one stride-2 pattern");
        final TypeLayout blocks = TypeLayouts.of(Datatype.Vector(3, 2, 5, MPI.INT), "t");
        assertEquals(new TypeLayout.Strided(0, 3, 2, 5), blocks.strided(1));
    }

    @Test
    void shouldMergeContiguousTypesIntoOneBlock() throws MPIException
    {
        final TypeLayout nested = TypeLayouts.of(Datatype.Contiguous(4, Datatype.Contiguous(3, MPI.LONG)), "t");
        assertEquals(1, nested.blockCount());
        assertTrue(nested.isDense());
        assertEquals(new TypeLayout.Strided(0, 1, 24, 24), nested.strided(2));
        final TypeLayout rows = TypeLayouts.of(Datatype.Vector(3, 4, 4, MPI.LONG), "t");
        assertEquals(1, rows.blockCount(), "a vector whose stride is its block length is contiguous");
    }

    @Test
    void shouldCacheOneLayoutPerDatatype() throws MPIException
    {
        final Datatype vector = Datatype.Vector(3, 1, 2, MPI.INT);
        assertTrue(TypeLayouts.of(vector, "t") == TypeLayouts.of(vector, "t"));
    }

    @Test
    void shouldDetectOverlappingEntries() throws MPIException
    {
        assertTrue(TypeLayouts.of(Datatype.Indexed(new int[] {2, 1}, new int[] {0, 1}, MPI.INT), "t").overlaps(1));
        assertTrue(TypeLayouts.of(Datatype.Hvector(2, 2, 1, MPI.INT), "t").overlaps(1));
        final TypeLayout column = TypeLayouts.of(Datatype.Vector(3, 1, 2, MPI.INT), "t");
        assertFalse(column.overlaps(1));
        assertFalse(column.overlaps(3), "copies of extent 5 do not meet");
    }

    @Test
    void shouldRefuseObjectsAndNull() throws MPIException
    {
        final Datatype objects = Datatype.Vector(2, 1, 2, MPI.OBJECT);
        final RmaException e = assertThrows(RmaException.class, () -> TypeLayouts.of(objects, "Win.put: originType"));
        assertEquals(ErrorClass.ERR_TYPE, e.errorClass());
        assertTrue(e.getMessage().contains("Win.put: originType is a datatype whose elements are objects"),
            e.getMessage());
        assertEquals(ErrorClass.ERR_TYPE,
            assertThrows(RmaException.class, () -> TypeLayouts.of(null, "t")).errorClass());
        assertEquals(ErrorClass.ERR_TYPE,
            assertThrows(RmaException.class, () -> TypeLayouts.of(MPI.OBJECT, "t")).errorClass());
    }

    @Test
    void shouldReadTheBasicTypeOfEveryDerivedType() throws MPIException
    {
        for (final BasicType basic : BasicType.values())
        {
            final TypeLayout layout = TypeLayouts.of(Datatype.Vector(2, 1, 3, basic.datatype()), "t");
            assertEquals(basic, layout.basic());
            assertNotNull(layout.strided(1));
        }
    }

    /** Every element position of {@code count} copies, as the cursor walks them. */
    private static List<Long> walk(final TypeLayout layout, final int count)
    {
        final List<Long> positions = new ArrayList<>();
        final TypeCursor cursor = new TypeCursor(layout, count);
        while (cursor.available() > 0)
        {
            final long run = cursor.available();
            for (long i = 0; i < run; i++)
            {
                positions.add(cursor.position() + i);
            }
            cursor.advance(run);
        }
        return positions;
    }
}
