package mpi.rma.internal.errors;

import java.io.PrintStream;

import mpi.rma.ErrorClass;
import mpi.rma.WinErrhandler;

/** {@link WinErrhandler#ERRORS_ARE_FATAL}: print the error, then end the process as MPI_Abort does. */
public final class FatalErrors
{
    /** The process's exit status: a failure the launcher reports, as any rank that fails. */
    public static final int STATUS = 1;

    private FatalErrors()
    {
    }

    /**
     * Prints the error and where it came from on standard error and halts the JVM. A halt, not an exit: shutdown
     * hooks and MPJ Express's own threads could block on the very state that failed, and MPI_Abort does not
     * wait for them either. {@code window} is only printed: an Object, so that this class needs nothing of the
     * facade.
     */
    public static void abort(final Object window, final ErrorClass errorClass, final String message)
    {
        final PrintStream err = System.err;
        err.println("mpi.rma: " + errorClass.mpiName() + " on " + window + ", whose error handler is " +
            "WinErrhandler.ERRORS_ARE_FATAL: aborting the process. " + message);
        new Throwable("the failing call").printStackTrace(err);
        err.flush();
        System.out.flush();
        Runtime.getRuntime().halt(STATUS);
    }
}
