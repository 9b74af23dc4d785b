package mpi.rma.internal;

import java.util.Optional;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;

/**
 * Classifies the failure of a collective call of MPJ Express that the API makes itself (an
 * {@code Allgather} over the user's communicator): {@link ErrorClass#ERR_PROC_FAILED} naming the
 * rank if the provider recognises a process that died in it, else {@link ErrorClass#ERR_OTHER};
 * MPJ Express's exception is the cause either way (docs/design.md#a-dead-process-is-err_proc_failed).
 */
public final class ProcessFailures
{
    private ProcessFailures()
    {
    }

    /**
     * @param call    the API call, for the message ("Win.allocateShared").
     * @param step    what failed in it ("the agreement's Allgather").
     * @param failure what MPJ Express threw.
     */
    public static RmaException classify(final String call, final String step, final RuntimeException failure)
    {
        if (failure instanceof RmaException known)
        {
            return known;
        }
        final Optional<String> death = deathIn(failure);
        return death.isPresent() ?
            new RmaException(ErrorClass.ERR_PROC_FAILED, call + ": " + death.get() + " (" + step + " failed)",
                failure) :
            new RmaException(ErrorClass.ERR_OTHER, call + ": " + step + " failed: " + failure, failure);
    }

    private static Optional<String> deathIn(final RuntimeException failure)
    {
        try
        {
            return Providers.get().processFailure(failure);
        }
        catch (final RmaException noProvider)
        {
            // Without a provider (Shared.split needs none) nobody can read the device's exceptions.
            return Optional.empty();
        }
    }
}
