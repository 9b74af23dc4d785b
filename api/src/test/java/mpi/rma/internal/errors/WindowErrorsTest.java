package mpi.rma.internal.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.WinErrhandler;
import org.junit.jupiter.api.Test;

/** A window's error handler without a window: which one is attached, and what a failing call makes of it. */
class WindowErrorsTest
{
    private final WindowErrors errors =
        new WindowErrors((handler, errorClass, message) -> handler.call(null, errorClass, message));
    private final List<String> calls = new ArrayList<>();
    private final WinErrhandler recording = (win, errorClass, message) -> calls.add(errorClass + " " + message);

    @Test
    void shouldReturnErrorsByDefaultAndCallNothing()
    {
        final RmaException error = new RmaException(ErrorClass.ERR_RANK, "Win.put: targetRank=9");

        assertSame(WinErrhandler.ERRORS_RETURN, errors.handler());
        assertSame(error, errors.raise(error));
        errors.call(ErrorClass.ERR_OTHER);
    }

    @Test
    void shouldCallAUserHandlerOnceForEachErrorBeforeItIsThrown()
    {
        errors.attach("Win.setErrhandler", recording);
        final RmaException error = new RmaException(ErrorClass.ERR_RMA_SYNC, "Win.put: no epoch");

        assertSame(error, errors.raise(error));
        assertSame(error, errors.raise(error), "an outer call rethrowing the same error");
        errors.call(ErrorClass.ERR_ARG);

        assertEquals(List.of("ERR_RMA_SYNC MPI_ERR_RMA_SYNC: Win.put: no epoch",
            "ERR_ARG MPI_ERR_ARG: raised by Win.callErrhandler"), calls);
    }

    @Test
    void shouldRefuseNullHandlersAndClasses()
    {
        assertArgError("errhandler is null", () -> errors.attach("Win.setErrhandler", null));
        assertArgError("errorClass is null", () -> errors.call(null));
        assertSame(WinErrhandler.ERRORS_RETURN, errors.handler(), "a refused handler changes nothing");
    }

    private static void assertArgError(final String fragment, final org.junit.jupiter.api.function.Executable call)
    {
        final RmaException e = assertThrows(RmaException.class, call);
        assertEquals(ErrorClass.ERR_ARG, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }
}
