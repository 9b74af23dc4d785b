package mpi.rma.internal.errors;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.WinErrhandler;
import mpi.rma.internal.message.MessageFaults;

/**
 * The error handler of one window (MPI-4.1 §12.6.1, §9.3): which one is attached, and the call of it that
 * every failing call on the window makes before it throws.
 */
public final class WindowErrors
{
    /** Calls a handler with the window it belongs to, which only the facade knows. */
    private final Calling calling;
    private WinErrhandler handler = WinErrhandler.ERRORS_RETURN;
    /** The error handled last: a call that fails inside another call of the window (getAttr's base()) calls once. */
    private RmaException lastRaised;

    /**
     * How a handler is called: {@code Win} gives {@code (handler, errorClass, message) -> handler.call(this,
     * errorClass, message)}, so that this class keeps the handler without knowing the window's type.
     */
    @FunctionalInterface
    public interface Calling
    {
        /** Calls {@code handler} for the window. */
        void call(WinErrhandler handler, ErrorClass errorClass, String message);
    }

    /** The window's errors, its handlers called through {@code calling}. */
    public WindowErrors(final Calling calling)
    {
        this.calling = calling;
    }

    /** The handler attached now. */
    public WinErrhandler handler()
    {
        return handler;
    }

    /** Attaches {@code next}; ERR_ARG for null. */
    public void attach(final String call, final WinErrhandler next)
    {
        if (next == null)
        {
            throw new RmaException(ErrorClass.ERR_ARG, call + ": errhandler is null: give WinErrhandler.ERRORS_RETURN, " +
                "WinErrhandler.ERRORS_ARE_FATAL or a handler of your own, (win, errorClass, message) -> ...");
        }
        handler = next;
    }

    /**
     * Calls the handler for {@code error}, raised by a call on the window, and returns the error for the call to
     * throw. A handler that throws ends the call with its own exception.
     */
    public RmaException raise(final RmaException error)
    {
        if (error != lastRaised && !MessageFaults.skipsErrhandlers())
        {
            lastRaised = error;
            calling.call(handler, error.errorClass(), error.getMessage());
        }
        return error;
    }

    /** {@code MPI_Win_call_errhandler}: the handler, called with {@code errorClass}; ERR_ARG for null. */
    public void call(final ErrorClass errorClass)
    {
        if (errorClass == null)
        {
            throw new RmaException(ErrorClass.ERR_ARG, "Win.callErrhandler: errorClass is null: give the class to " +
                "report, e.g. ErrorClass.ERR_OTHER");
        }
        if (!MessageFaults.skipsErrhandlers())
        {
            calling.call(handler, errorClass, errorClass.mpiName() + ": raised by Win.callErrhandler");
        }
    }
}
