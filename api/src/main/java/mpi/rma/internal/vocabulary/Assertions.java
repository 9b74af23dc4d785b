package mpi.rma.internal.vocabulary;

/** The assertion bits of fence, post, start and lock ({@code MPI_MODE_*}); {@code Win.MODE_*} re-exports them. */
public final class Assertions
{
    /**
     * Lock, start and post: no other process holds or will try to take a conflicting lock; for start and post
     * (given to both or neither), the matching posts have all been called already.
     */
    public static final int NOCHECK = 1024;
    /** Fence and post: the local window was not stored to since the last synchronisation. */
    public static final int NOSTORE = 2048;
    /** Fence and post: no put or accumulate will update the local window until the next synchronisation. */
    public static final int NOPUT = 4096;
    /** Fence: the fence completes no RMA calls of this process (all processes must agree). */
    public static final int NOPRECEDE = 8192;
    /** Fence: no RMA calls follow this fence; it ends the fence epochs (all processes must agree). */
    public static final int NOSUCCEED = 16384;

    /** Every bit a fence accepts. */
    public static final int FENCE = NOSTORE | NOPUT | NOPRECEDE | NOSUCCEED;
    private Assertions()
    {
    }
}
