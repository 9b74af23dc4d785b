package mpi.rma.internal.vocabulary;

/**
 * The predefined window attribute keys ({@code MPI_WIN_BASE} ...) and the limits of attributes and names;
 * {@code Win.WIN_*} and {@code Win.MAX_OBJECT_NAME} re-export them.
 */
public final class AttributeKeys
{
    /** This process's segment, a {@code MemorySegment}. */
    public static final int BASE = 1;
    /** This process's segment size in bytes, a {@code Long}. */
    public static final int SIZE = 2;
    /** This process's displacement unit, an {@code Integer}. */
    public static final int DISP_UNIT = 3;
    /** How the window was made, one of {@link Flavors}. */
    public static final int CREATE_FLAVOR = 4;
    /** The memory model, one of {@link MemoryModels}. */
    public static final int MODEL = 5;
    /** {@code MPI_MAX_OBJECT_NAME}: names are cut to one less than this. */
    public static final int MAX_OBJECT_NAME = 128;

    private AttributeKeys()
    {
    }
}
