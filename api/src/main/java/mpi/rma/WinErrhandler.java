package mpi.rma;

import mpi.rma.internal.errors.FatalErrors;

/**
 * An error handler of a window (MPI-4.1 §9.3, §12.6.1), attached with {@link Win#setErrhandler}: called when a
 * call on the window fails, before the call throws its {@link RmaException}, with the window, the error class
 * and the exception's message ({@code MPI_Win_errhandler_function}; a lambda is the handler, so there is no
 * {@code MPI_Win_create_errhandler}). After a handler returns, the call throws, which is how a Java call
 * returns an error code. {@link #ERRORS_RETURN} and {@link #ERRORS_ARE_FATAL} are MPI's predefined handlers.
 * MPJ Express's own {@code mpi.Errhandler}s cannot stand for them: they have no public API, and MPJ Express
 * 0.44's {@code MPI.Init} assigns {@code MPI.ERRORS_ARE_FATAL} twice and leaves {@code MPI.ERRORS_RETURN} null.
 */
@FunctionalInterface
public interface WinErrhandler
{
    /**
     * {@code MPI_ERRORS_RETURN}: nothing more than the exception, which the caller may catch and go on. A
     * window's handler until {@link Win#setErrhandler} (docs/design.md#error-handlers-on-windows says why).
     */
    WinErrhandler ERRORS_RETURN = (win, errorClass, message) -> { };
    /**
     * {@code MPI_ERRORS_ARE_FATAL}: the error and the window are printed on standard error and the process
     * halts with status 1 at once, as {@code MPI_Abort} would; the launcher then ends the job's other processes
     * (a multicore job's ranks, threads of the one JVM, end with it).
     */
    WinErrhandler ERRORS_ARE_FATAL = FatalErrors::abort;

    /**
     * @param win        the window of the failing call.
     * @param errorClass the error's class.
     * @param message    what the exception says (for {@link Win#callErrhandler}, which call raised it).
     */
    void call(Win win, ErrorClass errorClass, String message);
}
