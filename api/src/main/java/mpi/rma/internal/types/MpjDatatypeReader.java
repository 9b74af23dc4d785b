package mpi.rma.internal.types;

import java.lang.reflect.Field;

import mpi.Datatype;
import mpi.MPIException;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.DatatypeReader;
import mpi.rma.spi.common.BasicType;

/**
 * The type map of an MPJ Express 0.44 datatype, read from its private fields.
 *
 * <p>Why private state: MPJ Express 0.44's {@code Datatype} tells only its size, extent, bounds
 * and base type ({@code Size()}, {@code Extent()}, {@code Lb()}, {@code Ub()}, the public field
 * {@code baseType}); where the elements lie is known only to its packers, which are package-private
 * and which, for nested types, pack the elements in an order other than MPI's type map (a vector
 * of contiguous blocks comes out column by column). So this class reads the constructors'
 * arguments that each subclass keeps ({@code mpi.Contiguous.count}, {@code mpi.Vector.realStride},
 * {@code mpi.Indexed.displacements}, ...) and expands them by MPI's definitions (MPI-4.1 §5.1.2 to
 * §5.1.6). Every such read is in this class; a release that keeps them differently gets an
 * ERR_TYPE naming the missing field, never a wrong layout.
 *
 * <p>Units are MPJ Express's: displacements, strides and extents in array elements (its
 * {@code Hvector} and {@code Hindexed} take element units too, unlike C's bytes).
 */
public final class MpjDatatypeReader implements DatatypeReader
{
    static final String NAME = "mpj-0.44";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public long[] typeMap(final Datatype datatype)
    {
        return mapOf(datatype);
    }

    private static void expand(final Datatype type, final long displacement, final BlockList into)
    {
        final String kind = type.getClass().getName();
        switch (kind)
        {
            case "mpi.BasicType" ->
            {
                if (size(type) > 0)
                {
                    into.add(displacement, 1);
                }
            }
            case "mpi.Contiguous" ->
            {
                final Datatype old = (Datatype)Fields.get(type, Fields.CONTIGUOUS_OLD_TYPE);
                replicate(old, displacement, Fields.getInt(type, Fields.CONTIGUOUS_COUNT), into);
            }
            case "mpi.Vector" ->
            {
                final Datatype old = (Datatype)Fields.get(type, Fields.VECTOR_OLD_TYPE);
                final int count = Fields.getInt(type, Fields.VECTOR_COUNT);
                final int blockLength = Fields.getInt(type, Fields.VECTOR_BLOCK_LENGTH);
                // realStride: already in elements (stride * old extent for Vector, stride for Hvector).
                final long stride = Fields.getInt(type, Fields.VECTOR_REAL_STRIDE);
                final long[] oldMap = mapOf(old);
                final long oldExtent = extent(old);
                for (int block = 0; block < count; block++)
                {
                    for (int j = 0; j < blockLength; j++)
                    {
                        into.addShifted(oldMap, displacement + block * stride + j * oldExtent);
                    }
                }
            }
            case "mpi.Indexed" ->
            {
                final Datatype old = (Datatype)Fields.get(type, Fields.INDEXED_OLD_TYPE);
                // Displacements are stored in elements ("real" ones); block lengths are dropped when all are 1.
                final int[] displacements = (int[])Fields.get(type, Fields.INDEXED_DISPLACEMENTS);
                final int[] blockLengths = (int[])Fields.get(type, Fields.INDEXED_BLOCK_LENGTHS);
                final long[] oldMap = mapOf(old);
                final long oldExtent = extent(old);
                for (int block = 0; block < displacements.length; block++)
                {
                    final int length = blockLengths == null ? 1 : blockLengths[block];
                    for (int j = 0; j < length; j++)
                    {
                        into.addShifted(oldMap, displacement + displacements[block] + j * oldExtent);
                    }
                }
            }
            case "mpi.Struct" ->
            {
                final Datatype[] oldTypes = (Datatype[])Fields.get(type, Fields.STRUCT_OLD_TYPES);
                final int[] displacements = (int[])Fields.get(type, Fields.STRUCT_DISPLACEMENTS);
                final int[] blockLengths = (int[])Fields.get(type, Fields.STRUCT_BLOCK_LENGTHS);
                for (int block = 0; block < oldTypes.length; block++)
                {
                    replicate(oldTypes[block], displacement + displacements[block], blockLengths[block], into);
                }
            }
            default -> throw new RmaException(ErrorClass.ERR_TYPE, "a datatype of class " + kind +
                " is not one MPJ Express 0.44's constructors make (Contiguous, Vector, Hvector, Indexed, Hindexed, " +
                "Struct): its type map cannot be read");
        }
    }

    /** {@code count} copies of {@code old}, each {@code old}'s extent after the previous one. */
    private static void replicate(final Datatype old, final long displacement, final int count, final BlockList into)
    {
        final long[] oldMap = mapOf(old);
        final long oldExtent = extent(old);
        for (int i = 0; i < count; i++)
        {
            into.addShifted(oldMap, displacement + i * oldExtent);
        }
    }

    private static long[] mapOf(final Datatype type)
    {
        final BlockList blocks = new BlockList();
        expand(type, 0, blocks);
        return blocks.toPairs();
    }

    static long extent(final Datatype type)
    {
        try
        {
            return type.Extent();
        }
        catch (final MPIException e)
        {
            throw new RmaException(ErrorClass.ERR_TYPE, "MPJ Express could not give a datatype's extent: " + e);
        }
    }

    static long size(final Datatype type)
    {
        try
        {
            return type.Size();
        }
        catch (final MPIException e)
        {
            throw new RmaException(ErrorClass.ERR_TYPE, "MPJ Express could not give a datatype's size: " + e);
        }
    }

    /** The private fields read, looked up once; a lookup that failed is reported when that field is needed. */
    private static final class Fields
    {
        static final Field CONTIGUOUS_COUNT = find("mpi.Contiguous", "count");
        static final Field CONTIGUOUS_OLD_TYPE = find("mpi.Contiguous", "oldType");
        static final Field VECTOR_COUNT = find("mpi.Vector", "count");
        static final Field VECTOR_BLOCK_LENGTH = find("mpi.Vector", "blockLength");
        static final Field VECTOR_REAL_STRIDE = find("mpi.Vector", "realStride");
        static final Field VECTOR_OLD_TYPE = find("mpi.Vector", "oldType");
        static final Field INDEXED_BLOCK_LENGTHS = find("mpi.Indexed", "blockLengths");
        static final Field INDEXED_DISPLACEMENTS = find("mpi.Indexed", "displacements");
        static final Field INDEXED_OLD_TYPE = find("mpi.Indexed", "oldType");
        static final Field STRUCT_BLOCK_LENGTHS = find("mpi.Struct", "blockLengths");
        static final Field STRUCT_DISPLACEMENTS = find("mpi.Struct", "displacements");
        static final Field STRUCT_OLD_TYPES = find("mpi.Struct", "oldTypes");

        private Fields()
        {
        }

        /** Null if the field is missing or closed: {@link #get} then says which. */
        private static Field find(final String className, final String fieldName)
        {
            try
            {
                final Field field = Class.forName(className, false, Datatype.class.getClassLoader())
                    .getDeclaredField(fieldName);
                field.setAccessible(true);
                return field;
            }
            catch (final ReflectiveOperationException | RuntimeException e)
            {
                return null;
            }
        }

        static Object get(final Datatype type, final Field field)
        {
            if (field == null)
            {
                throw new RmaException(ErrorClass.ERR_TYPE, "this MPJ Express keeps " + type.getClass().getName() +
                    " differently from release 0.44 (a field the one-sided calls read is missing or closed): " +
                    "use MPJ Express 0.44, or name a reader for this release with -Dmpi.rma.datatypeReader");
            }
            try
            {
                return field.get(type);
            }
            catch (final IllegalAccessException e)
            {
                throw new RmaException(ErrorClass.ERR_TYPE, "cannot read " + field + " of MPJ Express: " + e);
            }
        }

        static int getInt(final Datatype type, final Field field)
        {
            return (Integer)get(type, field);
        }
    }
}
