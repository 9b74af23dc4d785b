package mpi.rma.internal.types;

import java.util.ArrayList;
import java.util.List;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * A datatype built twice: with MPJ Express's constructor, and as the list of its elements'
 * positions (array indices, type-map order) expanded one element at a time from the constructor's
 * arguments by MPI's definitions (MPI-4.1 §5.1.2 to §5.1.6, in MPJ Express's element units). The
 * brute-force reference the flattened layouts are compared with.
 */
public record TypeModel(Datatype datatype, List<Long> elements)
{
    static TypeModel basic(final Datatype basic)
    {
        MpjLogger.install();
        return new TypeModel(basic, List.of(0L));
    }

    static TypeModel contiguous(final int count, final TypeModel old) throws MPIException
    {
        final List<Long> elements = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            shifted(old, i * old.extent(), elements);
        }
        return new TypeModel(Datatype.Contiguous(count, old.datatype), elements);
    }

    static TypeModel vector(final int count, final int blockLength, final int stride, final TypeModel old)
        throws MPIException
    {
        final List<Long> elements = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            for (int j = 0; j < blockLength; j++)
            {
                shifted(old, ((long)i * stride + j) * old.extent(), elements);
            }
        }
        return new TypeModel(Datatype.Vector(count, blockLength, stride, old.datatype), elements);
    }

    /** MPJ Express's Hvector: the stride in array elements, not in the old type's extents. */
    static TypeModel hvector(final int count, final int blockLength, final int stride, final TypeModel old)
        throws MPIException
    {
        final List<Long> elements = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            for (int j = 0; j < blockLength; j++)
            {
                shifted(old, (long)i * stride + j * old.extent(), elements);
            }
        }
        return new TypeModel(Datatype.Hvector(count, blockLength, stride, old.datatype), elements);
    }

    static TypeModel indexed(final int[] blockLengths, final int[] displacements, final TypeModel old)
        throws MPIException
    {
        final List<Long> elements = new ArrayList<>();
        for (int i = 0; i < blockLengths.length; i++)
        {
            for (int j = 0; j < blockLengths[i]; j++)
            {
                shifted(old, ((long)displacements[i] + j) * old.extent(), elements);
            }
        }
        return new TypeModel(Datatype.Indexed(blockLengths, displacements, old.datatype), elements);
    }

    /** MPJ Express's Hindexed: displacements in array elements. */
    static TypeModel hindexed(final int[] blockLengths, final int[] displacements, final TypeModel old)
        throws MPIException
    {
        final List<Long> elements = new ArrayList<>();
        for (int i = 0; i < blockLengths.length; i++)
        {
            for (int j = 0; j < blockLengths[i]; j++)
            {
                shifted(old, displacements[i] + (long)j * old.extent(), elements);
            }
        }
        return new TypeModel(Datatype.Hindexed(blockLengths, displacements, old.datatype), elements);
    }

    /** MPJ Express's Struct: displacements in array elements; every component of one base type. */
    static TypeModel struct(final int[] blockLengths, final int[] displacements, final TypeModel... olds)
        throws MPIException
    {
        final List<Long> elements = new ArrayList<>();
        final Datatype[] types = new Datatype[olds.length];
        for (int i = 0; i < blockLengths.length; i++)
        {
            types[i] = olds[i].datatype;
            for (int j = 0; j < blockLengths[i]; j++)
            {
                shifted(olds[i], displacements[i] + (long)j * olds[i].extent(), elements);
            }
        }
        return new TypeModel(Datatype.Struct(blockLengths, displacements, types), elements);
    }

    /** MPJ Express's extent: copy i of a count starts i extents after the first. */
    long extent()
    {
        try
        {
            return datatype.Extent();
        }
        catch (final MPIException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /** The positions of {@code count} copies, type-map order. */
    public List<Long> elements(final int count)
    {
        final List<Long> all = new ArrayList<>();
        for (int copy = 0; copy < count; copy++)
        {
            shifted(this, copy * extent(), all);
        }
        return all;
    }

    private static void shifted(final TypeModel old, final long shift, final List<Long> into)
    {
        for (final long element : old.elements)
        {
            into.add(element + shift);
        }
    }

    @Override
    public String toString()
    {
        return datatype.getClass().getSimpleName() + elements;
    }

    static TypeModel doubles()
    {
        return basic(MPI.DOUBLE);
    }
}
