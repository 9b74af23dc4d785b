package mpi.rma.spi;

/**
 * A deliberate fault in the message path of windows reached by messages ({@code Win.create},
 * {@code Win.allocate}, {@code Win.createDynamic}), or in the origin's argument checks of every window,
 * for test suites that must show their cases can fail: found with
 * {@link java.util.ServiceLoader} by {@link #name()} and chosen by the system property
 * {@value #PROPERTY}, read once per process. Without the property the message path applies no
 * fault and looks for none.
 */
public interface MessagePathFault
{
    /** The system property naming the fault to apply. */
    String PROPERTY = "mpi.rma.messageFault";

    /** The name {@value #PROPERTY} selects it by. */
    String name();

    /**
     * Whether this process's target agent throws away a put received from {@code origin} instead of
     * applying it. None by default.
     */
    default boolean dropsPut(final int origin)
    {
        return false;
    }

    /**
     * Whether accumulates applied to this process's memory read and write each element outside the
     * lock that makes them atomic, pausing between the read and the write. None by default.
     */
    default boolean tearsAccumulates()
    {
        return false;
    }

    /**
     * Whether this process's win.start goes ahead without waiting for the targets' posts (so its
     * accesses, and its complete, may come before a target exposed its memory). None by default.
     */
    default boolean startsWithoutPost()
    {
        return false;
    }

    /**
     * Whether this process's target agent applies a derived target datatype as a dense block at the
     * target displacement (a vector written as if contiguous). None by default.
     */
    default boolean ignoresTargetLayout()
    {
        return false;
    }

    /**
     * Whether the origin checks a transfer that moves nothing (count 0, or a datatype of size 0) as if it moved
     * data: a null buffer is then ERR_BUFFER and differing datatypes ERR_TYPE, as before MPI's rule that empty type
     * signatures match was followed. On every window flavour. None by default.
     */
    default boolean refusesEmptyTransfers()
    {
        return false;
    }

    /**
     * Whether windows of every flavour drop attributes without running their delete callbacks (at deleteAttr,
     * at setAttr of a key already set, at free). None by default.
     */
    default boolean skipsDeleteCallbacks()
    {
        return false;
    }

    /**
     * Whether a dynamic window gives every attached region addresses of its own, apart from the others, even
     * where the memory of two regions touches: an access that runs from one region into the next is then
     * ERR_RMA_RANGE. None by default.
     */
    default boolean separatesAttachedRegions()
    {
        return false;
    }

    /** Whether failing calls on windows of every flavour throw without calling the window's error handler. None by default. */
    default boolean skipsErrhandlers()
    {
        return false;
    }
}
