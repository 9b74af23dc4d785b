package mpi.rma.internal.vocabulary;

/** The lock types of {@code Win.lock} ({@code MPI_LOCK_*}); {@code Win.LOCK_*} re-exports them. */
public final class LockTypes
{
    /** Excludes every other lock on the target, and protects direct loads and stores of its segment. */
    public static final int EXCLUSIVE = 234;
    /** Shares the target with other shared locks. */
    public static final int SHARED = 235;

    private LockTypes()
    {
    }
}
