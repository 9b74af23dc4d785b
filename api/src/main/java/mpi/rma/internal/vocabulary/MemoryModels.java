package mpi.rma.internal.vocabulary;

/** The memory models ({@code MPI_WIN_SEPARATE}, {@code MPI_WIN_UNIFIED}); {@code Win} re-exports them. */
public final class MemoryModels
{
    /** The public and private copies of the window may differ (windows reached by messages). */
    public static final int SEPARATE = 1;
    /** One copy: a store is seen by every process (shared windows). */
    public static final int UNIFIED = 2;

    private MemoryModels()
    {
    }
}
