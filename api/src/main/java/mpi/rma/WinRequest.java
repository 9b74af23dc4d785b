package mpi.rma;

import mpi.MPI;
import mpi.Status;
import mpi.rma.internal.Completion;

/**
 * The request of a request-based RMA call ({@code MPI_Request} of {@code MPI_Rput}, {@code MPI_Rget},
 * {@code MPI_Raccumulate}, {@code MPI_Rget_accumulate}; MPI-4.1 section 12.3.5), returned by
 * {@link Win#rPut}, {@link Win#rGet}, {@link Win#rAccumulate} and {@link Win#rGetAccumulate}.
 *
 * <p><b>Completion.</b> {@link #waitFor()} returns, and {@link #test()} returns true, once the operation is
 * complete at the origin: for rPut and rAccumulate the origin buffer may be reused (completion at the target
 * takes a flush or unlock, as for put); for rGet and rGetAccumulate the elements are in the origin or result
 * array. A flush, flushLocal or unlock that covers the target completes the operation too; the request then
 * completes at once. The calls that complete before they return (shared memory, this process's own memory,
 * every put and accumulate) give a request that is already complete.
 *
 * <p><b>Several at once.</b> {@link #waitAll}, {@link #waitAny} and {@link #testAll}, as {@code MPI_Waitall},
 * {@code MPI_Waitany} and {@code MPI_Testall}; null entries are ignored, as {@code MPI_REQUEST_NULL} is.
 *
 * <p><b>An {@link mpi.Request} too.</b> MPJ Express's own {@code Request.Waitall}, {@code Waitany} and
 * {@code Testany} accept it beside point-to-point requests: its {@code Wait}, {@code Test} and {@code Is_null}
 * are this class's. Its static helpers are not used here because of what they do with their own requests
 * (docs/design.md#request-based-rma). {@code Cancel} is {@link ErrorClass#ERR_REQUEST}: an RMA operation
 * cannot be taken back.
 *
 * <p>Like its window, a request is used by one thread at a time.
 */
public final class WinRequest extends mpi.Request
{
    /** Rounds of polling that {@link #waitAny} makes before it blocks on the oldest request still pending. */
    private static final int POLL_ROUNDS = 64;

    private final String call;
    /** What is left of the operation; {@link Completion#DONE} once complete. */
    private Completion pending;
    /** What completing it threw, thrown again to every later caller. */
    private RmaException failure;
    /** Whether {@link #waitFor}, {@link #test} or a multiple completion has reported it complete. */
    private boolean inactive;

    WinRequest(final String call, final Completion pending)
    {
        // An operation complete at the call needs no view of its own: one that is always complete serves them all,
        // and saves the two objects per call that a view costs (MPJ Express's Request makes a list in each).
        this(call, pending, pending == Completion.DONE ? DeviceView.COMPLETE : new DeviceView());
    }

    private WinRequest(final String call, final Completion pending, final DeviceView view)
    {
        super(view);
        if (view != DeviceView.COMPLETE)
        {
            view.owner = this;
        }
        this.call = call;
        this.pending = pending;
    }

    /** Returns once the operation is complete ({@code MPI_Wait}); at once if it is already. */
    public void waitFor()
    {
        complete();
        inactive = true;
    }

    /** Whether the operation is complete ({@code MPI_Test}); moves it on if not. */
    public boolean test()
    {
        if (poll())
        {
            inactive = true;
            return true;
        }
        return false;
    }

    /**
     * Waits for every request ({@code MPI_Waitall}), in order. If completing one fails, the others are still
     * completed, and then the first failure is thrown.
     */
    public static void waitAll(final WinRequest... requests)
    {
        checkArray("WinRequest.waitAll", requests);
        RmaException first = null;
        for (final WinRequest request : requests)
        {
            try
            {
                if (request != null)
                {
                    request.waitFor();
                }
            }
            catch (final RmaException e)
            {
                first = first == null ? e : first;
            }
        }
        if (first != null)
        {
            throw first;
        }
    }

    /**
     * Waits until one of the requests is complete and returns its index ({@code MPI_Waitany}); that request
     * becomes inactive, so a loop of waitAny returns each once. Returns {@code MPI.UNDEFINED} when no request is
     * active (every entry null or already reported complete). Polls every request for a while, then waits for
     * the oldest one still pending (a blocking wait notices a dead target on {@code -dev shm}; polling does not).
     */
    public static int waitAny(final WinRequest... requests)
    {
        checkArray("WinRequest.waitAny", requests);
        for (int round = 0; ; round++)
        {
            int firstActive = -1;
            for (int i = 0; i < requests.length; i++)
            {
                final WinRequest request = requests[i];
                if (request == null || request.inactive)
                {
                    continue;
                }
                firstActive = firstActive < 0 ? i : firstActive;
                if (request.test())
                {
                    return i;
                }
            }
            if (firstActive < 0)
            {
                return MPI.UNDEFINED;
            }
            if (round == POLL_ROUNDS)
            {
                requests[firstActive].waitFor();
                return firstActive;
            }
            // The replies come from other processes' agents: give them the core on a busy machine.
            Thread.yield();
        }
    }

    /**
     * Whether every request is complete ({@code MPI_Testall}); if so all become inactive, else none does (those
     * found complete stay complete, and the next test of them says so).
     */
    public static boolean testAll(final WinRequest... requests)
    {
        checkArray("WinRequest.testAll", requests);
        boolean all = true;
        for (final WinRequest request : requests)
        {
            all &= request == null || request.poll();
        }
        if (all)
        {
            for (final WinRequest request : requests)
            {
                if (request != null)
                {
                    request.inactive = true;
                }
            }
        }
        return all;
    }

    /** {@link #waitFor()}, as MPJ Express's {@code Request.Wait} (and its {@code Waitall}) calls it. */
    @Override
    public Status Wait()
    {
        waitFor();
        return new Status();
    }

    /** {@link #test()}, as MPJ Express's {@code Request.Test}: a status once complete, else null. */
    @Override
    public Status Test()
    {
        return test() ? new Status() : null;
    }

    /** Whether the request has been reported complete (MPJ Express's inactive request). */
    @Override
    public boolean Is_null()
    {
        return inactive;
    }

    /** Always ERR_REQUEST: an RMA operation, once issued, cannot be taken back. */
    @Override
    public void Cancel()
    {
        throw new RmaException(ErrorClass.ERR_REQUEST, "WinRequest.Cancel: the request of " + call + " cannot " +
            "be cancelled: an RMA operation, once issued, is carried out; wait for it with waitFor()");
    }

    @Override
    public String toString()
    {
        return "WinRequest[" + call + ", " + (failure != null ? "failed" : pending == Completion.DONE ? "complete" :
            "pending") + (inactive ? ", inactive" : "") + "]";
    }

    /** Whether the operation is complete, without making the request inactive. */
    private boolean poll()
    {
        if (failure != null)
        {
            throw failure;
        }
        try
        {
            if (pending.test(call))
            {
                pending = Completion.DONE;
                return true;
            }
            return false;
        }
        catch (final RmaException e)
        {
            failure = e;
            throw e;
        }
    }

    private void complete()
    {
        if (failure != null)
        {
            throw failure;
        }
        try
        {
            pending.await(call);
            pending = Completion.DONE;
        }
        catch (final RmaException e)
        {
            failure = e;
            throw e;
        }
    }

    private static void checkArray(final String call, final WinRequest[] requests)
    {
        if (requests == null)
        {
            throw new RmaException(ErrorClass.ERR_ARG, call + ": the array of requests is null: give the requests " +
                "(null entries are ignored)");
        }
    }

    /**
     * What MPJ Express's {@code mpi.Request} holds of a request: its own {@code Waitany} tests a request through
     * it. Complete when its {@link WinRequest} is.
     */
    private static class DeviceView extends mpjdev.Request
    {
        /** The view of every request whose operation was complete when its call returned. */
        static final DeviceView COMPLETE = new DeviceView()
        {
            @Override
            public mpjdev.Status iwait()
            {
                return new mpjdev.Status();
            }

            @Override
            public mpjdev.Status itest()
            {
                return new mpjdev.Status();
            }

            @Override
            public boolean isnull()
            {
                return false;
            }
        };

        private WinRequest owner;

        @Override
        public mpjdev.Status iwait()
        {
            owner.complete();
            return new mpjdev.Status();
        }

        @Override
        public mpjdev.Status itest()
        {
            return owner.poll() ? new mpjdev.Status() : null;
        }

        @Override
        public void free()
        {
            // Nothing is held for the request.
        }

        @Override
        public boolean isnull()
        {
            return owner.inactive;
        }

        @Override
        public boolean cancel()
        {
            return false;
        }
    }
}
