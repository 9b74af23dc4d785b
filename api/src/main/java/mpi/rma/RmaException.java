package mpi.rma;

import java.util.Objects;

import mpi.MPIException;

/**
 * An MPI-3 one-sided communication call failed: the {@link #errorClass() error class} says
 * which rule was broken, the message names the call, the argument and its bad value.
 *
 * <p>Collective calls ({@link Win#allocateShared}, {@link Win#fence}, {@link Win#free}) fail on
 * every process of the window or on none; the processes that did nothing wrong get a message
 * naming the rank that did.
 */
public class RmaException extends MPIException
{
    private static final long serialVersionUID = 1L;

    private final ErrorClass errorClass;

    public RmaException(final ErrorClass errorClass, final String message)
    {
        super(Objects.requireNonNull(errorClass, "errorClass").mpiName() + ": " + message);
        this.errorClass = errorClass;
    }

    public RmaException(final ErrorClass errorClass, final String message, final Throwable cause)
    {
        this(errorClass, message);
        initCause(cause);
    }

    /** The MPI error class of the failure. */
    public ErrorClass errorClass()
    {
        return errorClass;
    }
}
