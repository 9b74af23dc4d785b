package mpi.rma;

/**
 * The MPI error classes that {@link RmaException} carries: those of MPI-4.1 section 9.4 that the
 * one-sided calls, their arguments and their info objects can raise, the one-sided classes of
 * section 12.6.2, and {@link #ERR_PROC_FAILED} from MPI 5.0. Each is thrown where MPI names it
 * (docs/design.md#error-classes).
 */
public enum ErrorClass
{
    // Arguments (MPI-4.1 section 9.4)

    /** An argument no other class covers: an offset past an array's end, a null name, an address offset. */
    ERR_ARG,
    /** An invalid buffer: a null origin, result or compare array. */
    ERR_BUFFER,
    /** An invalid communicator: a null one where a window is made or split. */
    ERR_COMM,
    /** A rank outside the window's group (and not {@code MPI.PROC_NULL} where that is allowed). */
    ERR_RANK,
    /** A negative count, or origin and target counts that do not match. */
    ERR_COUNT,
    /**
     * A datatype that is null, not built from MPJ Express's basic types, or that does not match the buffer or
     * the other side.
     */
    ERR_TYPE,
    /** An operation that is not allowed here or not defined on the datatype. */
    ERR_OP,
    /** An invalid request: a request-based RMA call's request cannot be cancelled ({@link WinRequest#Cancel}). */
    ERR_REQUEST,
    /** An attribute key that the window does not have ({@link Win#getAttr}). */
    ERR_KEYVAL,
    /** An invalid info object: a null one where an info is required. */
    ERR_INFO,
    /** An info key that is null, empty or longer than {@link Info#MAX_INFO_KEY}. */
    ERR_INFO_KEY,
    /** An info value that the key does not accept, or a null or too long one. */
    ERR_INFO_VALUE,
    /** An info key that has no value ({@link Info#delete}). */
    ERR_INFO_NOKEY,

    // One-sided communication (MPI-4.1 section 12.6.2)

    /** A window that has been freed. */
    ERR_WIN,
    /** Invalid memory for a window: a base of a kind a window cannot expose, or memory a dynamic window lacks. */
    ERR_BASE,
    /**
     * A group argument that is null, or holds a process outside the window's communicator (the group of
     * {@link Win#post} and {@link Win#start} must be a subgroup of the window's group).
     */
    ERR_GROUP,
    /** A negative window size. */
    ERR_SIZE,
    /** A displacement unit that is not positive, or a negative target displacement. */
    ERR_DISP,
    /** A lock type that is neither {@link Win#LOCK_EXCLUSIVE} nor {@link Win#LOCK_SHARED}. */
    ERR_LOCKTYPE,
    /** Assertion bits that are not allowed in this call. */
    ERR_ASSERT,
    /**
     * Conflicting accesses that the implementation detected. MPI lets an implementation leave conflicts
     * undetected, and this one does: no call throws it (docs/design.md#error-classes).
     */
    ERR_RMA_CONFLICT,
    /** A call in the wrong synchronisation state (outside an epoch, unlock without lock, ...). */
    ERR_RMA_SYNC,
    /**
     * An access that does not fit in the target's segment, or, on a dynamic window, that does not
     * lie within memory attached at the target (one region, or regions that touch).
     */
    ERR_RMA_RANGE,
    /**
     * Memory that cannot be attached to a dynamic window ({@link Win#attach}): here, memory that
     * overlaps memory already attached to it, or the same memory attached twice.
     */
    ERR_RMA_ATTACH,
    /** The processes of the communicator cannot share memory (not on one node). */
    ERR_RMA_SHARED,
    /** A call that the window's flavor does not allow. */
    ERR_RMA_FLAVOR,

    // Resources and failures

    /** The node cannot provide the memory asked for. */
    ERR_NO_MEM,
    /**
     * A process of the communicator or window died (exited without {@code MPI.Finalize} or was
     * killed) during the call; the message names its rank. MPI-4.1 has no such class: the name is
     * {@code MPI_ERR_PROC_FAILED} of MPI 5.0's fault tolerance (ULFM).
     */
    ERR_PROC_FAILED,
    /**
     * A call this MPJ Express device cannot serve: every window creation on {@code hybdev}, whose wildcard
     * receives poll every 2 s; the message names the devices to use instead.
     */
    ERR_UNSUPPORTED_OPERATION,
    /** Anything else. */
    ERR_OTHER;

    /** The name MPI gives the class, e.g. {@code MPI_ERR_RMA_SYNC}. */
    public String mpiName()
    {
        return "MPI_" + name();
    }
}
