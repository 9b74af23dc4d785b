package mpi.rma.kupl;

import java.util.Optional;

import kupl.KuplException;
import kupl.PeerDeathException;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;

/**
 * The MPI error for an engine failure: {@link ErrorClass#ERR_PROC_FAILED} when a process died
 * (a {@link PeerDeathException} anywhere in the cause chain, whatever step it broke), else the
 * class the step's other failures have. The engine's exception is the cause.
 */
final class KuplFailures
{
    private KuplFailures()
    {
    }

    /**
     * @param e         what the engine threw.
     * @param call      the call or wait that failed, starting the message ("Win.fence").
     * @param otherwise the class when no process died (ERR_NO_MEM for allocation, ...).
     * @param meaning   what such a failure means, for the message, or null to give the engine's alone.
     */
    static RmaException toRmaException(final KuplException e, final String call, final ErrorClass otherwise,
        final String meaning)
    {
        final Optional<PeerDeathException> death = PeerDeathException.in(e);
        // The death's message starts "rank N died": it comes right after the call, so the rank is read first.
        return death.isPresent() ?
            new RmaException(ErrorClass.ERR_PROC_FAILED, call + ": " + death.get().getMessage(), e) :
            new RmaException(otherwise, call + ": " + (meaning == null ? "" : meaning + ": ") + e.getMessage(), e);
    }
}
