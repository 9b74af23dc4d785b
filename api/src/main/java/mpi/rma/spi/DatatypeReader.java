package mpi.rma.spi;

import mpi.Datatype;

/**
 * Reads the type map of an MPJ Express derived datatype: where its elements lie. MPJ Express
 * 0.44 keeps a derived type's displacements and block lengths in private fields and offers no
 * call that lists them, so reading them depends on its version; the API's own reader knows
 * release 0.44. Another one is chosen with the system property {@code mpi.rma.datatypeReader}
 * (its {@link #name()}) and found with {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/mpi.rma.spi.DatatypeReader} entry): for another MPJ Express release,
 * or, in the conformance suite, a deliberately wrong one that shows the datatype cases can fail.
 */
public interface DatatypeReader
{
    /** A short name for messages and for the system property, e.g. "mpj-0.44". */
    String name();

    /**
     * The type map of one copy of {@code datatype}, as pairs {@code (displacement, length)} in
     * elements of its base type (MPJ Express measures displacements in array elements, never in
     * bytes), in type-map order: element {@code k} of the type is the {@code k}-th element these
     * blocks list. Empty for a type without data.
     *
     * @return {@code {displacement0, length0, displacement1, length1, ...}}.
     * @throws mpi.rma.RmaException ERR_TYPE for a datatype this reader cannot read.
     */
    long[] typeMap(Datatype datatype);
}
