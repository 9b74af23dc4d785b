package mpi.rma.internal.message;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.ProcessFailures;

/**
 * The life of this process's {@link TargetAgent} as its {@link MessageWindow} sees it: started with the window,
 * watched by every call (a stopped agent means a dead process, so the call fails at once, naming the rank), and
 * stopped by free. With one process there is no agent: nobody else sends requests.
 */
final class AgentLife
{
    /** How long free waits for this process's agent to take its STOP before calling it stuck. */
    private static final long AGENT_STOP_TIMEOUT_MS = 60_000;

    /** Null with one process. */
    private final TargetAgent agent;
    private final int rank;
    private final int ranks;

    AgentLife(final TargetAgent agent, final int rank, final int ranks)
    {
        this.agent = agent;
        this.rank = rank;
        this.ranks = ranks;
    }

    /** Starts the agent's thread, if there is one. */
    void start()
    {
        if (agent != null)
        {
            agent.start();
        }
    }

    /**
     * Throws the failure that stopped this process's agent, if one did: a volatile load. The agent stops on the
     * first dead process of the window its device reports; from then on no epoch of the window can complete,
     * so every call fails at once, naming the rank, instead of going on until it happens to wait for the dead
     * process.
     */
    void check(final String call)
    {
        final RmaException failure = failure(call);
        if (failure != null)
        {
            throw failure;
        }
    }

    /** The failure that stopped this process's agent, as the error of {@code call}; null while it serves. */
    RmaException failure(final String call)
    {
        final RuntimeException failure = agent == null ? null : agent.failure();
        return failure == null ? null : ProcessFailures.classify(call, "this process's RMA agent", failure);
    }

    /**
     * Stops the agent and frees {@code channel}'s communicators; to be called once every request to every agent is
     * applied.
     *
     * @throws RmaException ERR_OTHER if the agent does not stop in time, or the failure that had stopped it.
     */
    void stop(final String call, final RequestChannel channel)
    {
        if (agent == null)
        {
            return;
        }
        // Every request to every agent is applied (the fence's agreement came after each origin's flushes), so a
        // STOP from the left neighbour is the last message the agent takes. Never to itself: see TargetAgent.
        channel.send(call, (rank + 1) % ranks, RmaRequest.control(RmaRequest.STOP, false));
        try
        {
            if (!agent.join(AGENT_STOP_TIMEOUT_MS))
            {
                throw new RmaException(ErrorClass.ERR_OTHER, call + ": this process's RMA agent did not stop within " +
                    AGENT_STOP_TIMEOUT_MS + " ms of the window's free");
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new RmaException(ErrorClass.ERR_OTHER, call + ": interrupted while stopping the RMA agent", e);
        }
        final RuntimeException failure = agent.failure();
        channel.free();
        if (failure != null)
        {
            throw ProcessFailures.classify(call, "this process's RMA agent", failure);
        }
    }
}
