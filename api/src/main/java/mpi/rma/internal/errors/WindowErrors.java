package mpi.rma.internal.errors;

import mpi.Errhandler;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import mpi.rma.WinErrhandler;

/**
 * The error handler of one window (MPI-4.1 §12.6.1, §9.3): which one is attached, and the call of it that
 * every failing call on the window makes before it throws.
 */
public final class WindowErrors
{
    private WinErrhandler handler = WinErrhandler.ERRORS_RETURN;
    /** The error handled last: a call that fails inside another call of the window (getAttr's base()) calls once. */
    private RmaException lastRaised;

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

    /** MPJ Express's two predefined handlers, as the {@link WinErrhandler} each stands for; ERR_ARG for others. */
    public static WinErrhandler of(final String call, final Errhandler mpj)
    {
        if (mpj != null && mpj == MPI.ERRORS_RETURN)
        {
            return WinErrhandler.ERRORS_RETURN;
        }
        if (mpj != null && mpj == MPI.ERRORS_ARE_FATAL)
        {
            return WinErrhandler.ERRORS_ARE_FATAL;
        }
        throw new RmaException(ErrorClass.ERR_ARG, call + ": errhandler " + (mpj == null ? "is null (MPJ Express " +
            "makes MPI.ERRORS_RETURN and MPI.ERRORS_ARE_FATAL in MPI.Init)" :
            "is not MPI.ERRORS_RETURN nor MPI.ERRORS_ARE_FATAL") + " (MPJ Express has no others; for a handler of " +
            "your own give a WinErrhandler)");
    }

    /**
     * Calls the handler for {@code error}, raised by a call on {@code win}, and returns the error for the call to
     * throw. A handler that throws ends the call with its own exception.
     */
    public RmaException raise(final Win win, final RmaException error)
    {
        if (error != lastRaised)
        {
            lastRaised = error;
            handler.call(win, error.errorClass(), error.getMessage());
        }
        return error;
    }

    /** {@code MPI_Win_call_errhandler}: the handler, called with {@code errorClass}; ERR_ARG for null. */
    public void call(final Win win, final ErrorClass errorClass)
    {
        if (errorClass == null)
        {
            throw new RmaException(ErrorClass.ERR_ARG, "Win.callErrhandler: errorClass is null: give the class to " +
                "report, e.g. ErrorClass.ERR_OTHER");
        }
        handler.call(win, errorClass, errorClass.mpiName() + ": raised by Win.callErrhandler");
    }
}
