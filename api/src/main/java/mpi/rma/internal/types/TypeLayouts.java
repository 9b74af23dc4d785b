package mpi.rma.internal.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.WeakHashMap;

import mpi.Datatype;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.DatatypeReader;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.PairType;

/**
 * The {@link TypeLayout} of a datatype: basic types at once, derived ones flattened by the
 * {@link DatatypeReader} once and kept while the datatype lives (MPJ Express's datatypes do not
 * change after construction, and its {@code Commit()} records nothing, so a datatype that was
 * built is usable).
 */
public final class TypeLayouts
{
    static final String READER_PROPERTY = "mpi.rma.datatypeReader";

    private static final TypeLayout[] BASIC = new TypeLayout[BasicType.values().length];
    /** Datatypes compare by identity (MPJ Express does not override equals). */
    private static final Map<Datatype, TypeLayout> DERIVED = new WeakHashMap<>();
    private static DatatypeReader reader;

    static
    {
        for (final BasicType type : BasicType.values())
        {
            BASIC[type.ordinal()] = TypeLayout.basic(type);
        }
    }

    private TypeLayouts()
    {
    }

    /**
     * The layout of the datatype argument {@code side + "Type"} of {@code call}: as {@link #of(Datatype, String)},
     * whose message it builds only for a derived or wrong type, since every put, get and accumulate asks.
     */
    public static TypeLayout of(final Datatype datatype, final String call, final String side)
    {
        final BasicType basic = BasicType.ofBasic(datatype);
        return basic != null ? BASIC[basic.ordinal()] : of(datatype, call + ": " + side + "Type");
    }

    /**
     * The layout of {@code datatype}.
     *
     * @param what the call and argument, for messages, e.g. "Win.put: originType".
     * @throws RmaException ERR_TYPE for null, MPI.OBJECT, a type whose elements are objects or
     *                      that has no basic type, and a type the reader cannot read.
     */
    public static TypeLayout of(final Datatype datatype, final String what)
    {
        final BasicType basic = BasicType.ofBasic(datatype);
        if (basic != null)
        {
            return BASIC[basic.ordinal()];
        }
        if (datatype == null)
        {
            throw new RmaException(ErrorClass.ERR_TYPE, what + " is null: give a datatype such as MPI.INT");
        }
        synchronized (DERIVED)
        {
            TypeLayout layout = DERIVED.get(datatype);
            if (layout == null)
            {
                layout = flatten(datatype, what);
                DERIVED.put(datatype, layout);
            }
            return layout;
        }
    }

    private static TypeLayout flatten(final Datatype datatype, final String what)
    {
        final BasicType basic = BasicType.ofBaseType(datatype.baseType);
        if (basic == null)
        {
            throw new RmaException(ErrorClass.ERR_TYPE, what + " is " + (datatype == MPI.OBJECT ? "MPI.OBJECT" :
                "a datatype whose elements are " + (datatype.baseType == MPI.OBJECT.baseType ? "objects" :
                "of no basic type (only MPI.LB or MPI.UB markers)")) + ": one-sided calls move MPI.BYTE, MPI.CHAR, " +
                "MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT and MPI.DOUBLE, and types built from them");
        }
        final long[] typeMap;
        try
        {
            typeMap = reader().typeMap(datatype);
        }
        catch (final RmaException e)
        {
            throw new RmaException(ErrorClass.ERR_TYPE, what + ": " + e.getMessage());
        }
        final long extent = MpjDatatypeReader.extent(datatype);
        final long size = MpjDatatypeReader.size(datatype);
        final PairType pair = PairType.of(datatype);
        final TypeLayout layout = new TypeLayout(basic, pair != null ? pair.mpiName() : "a derived datatype of " +
            size + " " + basic.mpiName() + " (extent " + extent + ")", extent, typeMap);
        if (layout.size() != size)
        {
            throw new RmaException(ErrorClass.ERR_TYPE, what + ": datatype reader " + reader().name() + " found " +
                layout.size() + " elements in a datatype of Size() " + size + ": the reader does not fit this " +
                "MPJ Express release");
        }
        return layout;
    }

    private static synchronized DatatypeReader reader()
    {
        if (reader == null)
        {
            final String wanted = System.getProperty(READER_PROPERTY);
            if (wanted == null || wanted.equals(MpjDatatypeReader.NAME))
            {
                reader = new MpjDatatypeReader();
                return reader;
            }
            final List<String> names = new ArrayList<>(List.of(MpjDatatypeReader.NAME));
            for (final DatatypeReader candidate :
                ServiceLoader.load(DatatypeReader.class, TypeLayouts.class.getClassLoader()))
            {
                names.add(candidate.name());
                if (wanted.equals(candidate.name()))
                {
                    reader = candidate;
                    return reader;
                }
            }
            throw new RmaException(ErrorClass.ERR_TYPE, "no datatype reader named " + READER_PROPERTY + "=" + wanted +
                " (found " + names + ")");
        }
        return reader;
    }
}
