package mpi.rma.internal.sync;

import mpi.rma.RmaException;
import mpi.rma.internal.creation.MixedTargets;

/**
 * Post and complete for a window made by {@code Win.allocate} across nodes: flag words in the
 * node's shared memory with the peers on this process's node ({@link PscwFlags}, indexed by node
 * rank), messages with the others ({@link PscwMessages}), per peer, as {@link MixedTargets} chooses
 * the path of each RMA call. Both arrive at the same memory, so a wait covers origins of both.
 */
public final class PscwMixed implements PscwPath
{
    /** Each rank's index among the node's processes, or -1 for a rank on another node. */
    private final int[] nodeRankOf;
    private final PscwFlags node;
    private final PscwPath messages;

    public PscwMixed(final int[] nodeRankOf, final PscwFlags node, final PscwPath messages)
    {
        this.nodeRankOf = nodeRankOf;
        this.node = node;
        this.messages = messages;
    }

    @Override
    public void post(final String call, final int origin, final boolean noCheck)
    {
        if (nodeRankOf[origin] >= 0)
        {
            node.post(call, nodeRankOf[origin], noCheck);
            return;
        }
        messages.post(call, origin, noCheck);
    }

    @Override
    public void start(final String call, final int target, final boolean noCheck)
    {
        if (nodeRankOf[target] >= 0)
        {
            node.start(call, nodeRankOf[target], noCheck);
            return;
        }
        messages.start(call, target, noCheck);
    }

    @Override
    public RmaException complete(final String call, final int target)
    {
        return nodeRankOf[target] >= 0 ? node.complete(call, nodeRankOf[target]) : messages.complete(call, target);
    }

    @Override
    public boolean completed(final String call, final int origin)
    {
        return nodeRankOf[origin] >= 0 ? node.completed(call, nodeRankOf[origin]) : messages.completed(call, origin);
    }

    @Override
    public void awaitComplete(final String call, final int origin)
    {
        if (nodeRankOf[origin] >= 0)
        {
            node.awaitComplete(call, nodeRankOf[origin]);
            return;
        }
        messages.awaitComplete(call, origin);
    }
}
