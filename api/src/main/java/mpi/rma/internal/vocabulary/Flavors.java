package mpi.rma.internal.vocabulary;

/** How a window was made ({@code MPI_WIN_FLAVOR_*}); {@code Win.FLAVOR_*} re-exports them. */
public final class Flavors
{
    /** {@code Win.create}: memory each process owns. */
    public static final int CREATE = 1;
    /** {@code Win.allocate}: memory the library allocates. */
    public static final int ALLOCATE = 2;
    /** {@code Win.createDynamic}: memory attached later. */
    public static final int DYNAMIC = 3;
    /** {@code Win.allocateShared}: one node's shared memory. */
    public static final int SHARED = 4;

    private Flavors()
    {
    }

    /** The call that makes a window of {@code flavor}, for error messages. */
    public static String maker(final int flavor)
    {
        return switch (flavor)
        {
            case CREATE -> "Win.create";
            case ALLOCATE -> "Win.allocate";
            case DYNAMIC -> "Win.createDynamic";
            case SHARED -> "Win.allocateShared";
            default -> throw new IllegalArgumentException("flavor=" + flavor + " is none of Flavors' constants");
        };
    }
}
