package mpi.rma;

/**
 * The MPI error classes that {@link RmaException} carries (MPI-4.1 section 9.4 and the
 * one-sided classes of section 12.6.2), and {@link #ERR_PROC_FAILED} from MPI 5.0.
 */
public enum ErrorClass
{
    /** An argument that fits no other class: a null buffer, an offset past an array's end, a bad lock type. */
    ERR_ARG,
    /** A rank outside the window's group (and not {@code MPI.PROC_NULL} where that is allowed). */
    ERR_RANK,
    /**
     * A group argument that is null, or holds a process outside the window's communicator (the group of
     * {@link Win#post} and {@link Win#start} must be a subgroup of the window's group).
     */
    ERR_GROUP,
    /** A negative window size. */
    ERR_SIZE,
    /** A displacement unit that is not positive, or a negative target displacement. */
    ERR_DISP,
    /** A negative count, or origin and target counts that do not match. */
    ERR_COUNT,
    /** A datatype that is null, not a basic MPJ Express type, or does not match the buffer or the other side. */
    ERR_TYPE,
    /** An operation that is not allowed here or not defined on the datatype. */
    ERR_OP,
    /** Assertion bits that are not allowed in this call. */
    ERR_ASSERT,
    /** An info value that the key does not accept. */
    ERR_INFO_VALUE,
    /** A call in the wrong synchronisation state (outside an epoch, unlock without lock, ...). */
    ERR_RMA_SYNC,
    /**
     * An access that does not fit in the target's segment, or, on a dynamic window, that does not
     * lie within one region attached at the target.
     */
    ERR_RMA_RANGE,
    /** The processes of the communicator cannot share memory (not on one node). */
    ERR_RMA_SHARED,
    /** A call that the window's flavor does not allow. */
    ERR_RMA_FLAVOR,
    /** Conflicting accesses that the implementation detected. */
    ERR_RMA_CONFLICT,
    /**
     * Memory that cannot be attached to a dynamic window ({@link Win#attach}): here, memory that
     * overlaps memory already attached to it, or the same memory attached twice.
     */
    ERR_RMA_ATTACH,
    /** A window that has been freed. */
    ERR_WIN,
    /** The node cannot provide the memory asked for. */
    ERR_NO_MEM,
    /**
     * A process of the communicator or window died (exited without {@code MPI.Finalize} or was
     * killed) during the call; the message names its rank. MPI-4.1 has no such class: the name is
     * {@code MPI_ERR_PROC_FAILED} of MPI 5.0's fault tolerance (ULFM).
     */
    ERR_PROC_FAILED,
    /** Anything else. */
    ERR_OTHER;

    /** The name MPI gives the class, e.g. {@code MPI_ERR_RMA_SYNC}. */
    public String mpiName()
    {
        return "MPI_" + name();
    }
}
