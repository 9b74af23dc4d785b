package mpi.rma.internal.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Collections;
import java.util.List;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.rma.spi.common.BasicType;
import mpi.rma.internal.types.MpjLogger;
import mpi.rma.internal.types.TypeLayout;
import mpi.rma.internal.types.TypeLayouts;
import mpi.rma.internal.types.TypeModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The origin side of a derived datatype on the message path: packing a buffer's elements densely in
 * type-map order, and unpacking a reply into a derived buffer, against {@link TypeModel}.
 */
public class ElementPackingTest
{
    @BeforeAll
    static void giveMpjExpressItsLogger()
    {
        // Struct logs through MPI.logger, which only MPI.Init (or a test before this one in the same JVM) sets.
        MpjLogger.install();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mpi.rma.internal.types.TypeLayoutTest#types")
    void shouldPackAndUnpackInTypeMapOrder(final TypeModel model)
    {
        final TypeLayout layout = TypeLayouts.of(model.datatype(), "t");
        for (int count = 1; count <= 3; count++)
        {
            final List<Long> elements = model.elements(count);
            if (elements.isEmpty())
            {
                continue;
            }
            final int base = (int)-Collections.min(elements) + 2;
            final double[] array = new double[base + (int)(long)Collections.max(elements) + 3];
            for (int i = 0; i < array.length; i++)
            {
                array[i] = i;
            }
            final double[] packed = (double[])ElementPacking.pack(layout, array, base, count, elements.size());
            for (int k = 0; k < elements.size(); k++)
            {
                assertEquals(base + elements.get(k), packed[k], "count " + count + ", element " + k);
            }
            final double[] back = new double[array.length];
            ElementPacking.unpack(packed, layout, back, base, count);
            for (int i = 0; i < back.length; i++)
            {
                final boolean named = elements.contains((long)(i - base));
                assertEquals(named ? i : 0, back[i], "count " + count + ", array index " + i);
            }
        }
    }

    @Test
    void shouldPackEveryBasicTypeOfAStridedColumn() throws MPIException
    {
        for (final BasicType basic : BasicType.values())
        {
            final Datatype column = Datatype.Vector(3, 1, 4, basic.datatype());
            final TypeLayout layout = TypeLayouts.of(column, "t");
            final Object array = RmaRequest.newArray(basic, 12);
            for (int i = 0; i < 12; i++)
            {
                basic.rawToArray(i % 2 == 0 ? i / 2 + 1 : 0, array, i);
            }
            final Object packed = ElementPacking.pack(layout, array, 0, 1, 3);
            final Object back = RmaRequest.newArray(basic, 12);
            ElementPacking.unpack(packed, layout, back, 0, 1);
            for (int k = 0; k < 3; k++)
            {
                assertEquals(basic.rawFromArray(array, 4 * k), basic.rawFromArray(packed, k), basic + " element " + k);
                assertEquals(basic.rawFromArray(array, 4 * k), basic.rawFromArray(back, 4 * k), basic + " back " + k);
            }
        }
    }

    @Test
    void shouldPackAStructOfOneBasicTypeAndANestedVectorOfContiguous() throws MPIException
    {
        final Datatype pair = Datatype.Contiguous(2, MPI.INT);
        final Datatype struct = Datatype.Struct(new int[] {1, 2}, new int[] {5, 0}, new Datatype[] {MPI.INT, pair});
        final int[] array = {10, 11, 12, 13, 14, 15};
        assertArrayEquals(new int[] {15, 10, 11, 12, 13},
            (int[])ElementPacking.pack(TypeLayouts.of(struct, "t"), array, 0, 1, 5));
        final Datatype nested = Datatype.Vector(2, 1, 2, pair);
        assertArrayEquals(new int[] {10, 11, 14, 15},
            (int[])ElementPacking.pack(TypeLayouts.of(nested, "t"), array, 0, 1, 4));
    }
}
