package xdev.shmdev;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which ranks of a job share a node, from one node identity per rank ({@code mpi.rma}'s
 * {@code NodeIdentity}, so that the device and the windows agree): a node's ranks in the order of their
 * world rank, and each rank's index among them (its rank in the node's shared memory).
 */
final class NodeMap
{
    private final int[] localIndex;
    private final int[] nodeOf;
    private final int[][] nodeRanks;
    private final int ownRank;

    /**
     * @param nodeKeys one node identity per world rank.
     * @param ownRank  this process's world rank.
     * @throws IllegalArgumentException if {@code ownRank} is not a rank of {@code nodeKeys}.
     */
    NodeMap(final long[] nodeKeys, final int ownRank)
    {
        if (ownRank < 0 || ownRank >= nodeKeys.length)
        {
            throw new IllegalArgumentException("ownRank=" + ownRank + " is outside the job of " + nodeKeys.length);
        }
        this.ownRank = ownRank;
        localIndex = new int[nodeKeys.length];
        nodeOf = new int[nodeKeys.length];
        final List<Long> keys = new ArrayList<>();
        final List<List<Integer>> members = new ArrayList<>();
        for (int rank = 0; rank < nodeKeys.length; rank++)
        {
            int node = keys.indexOf(nodeKeys[rank]);
            if (node < 0)
            {
                node = keys.size();
                keys.add(nodeKeys[rank]);
                members.add(new ArrayList<>());
            }
            nodeOf[rank] = node;
            localIndex[rank] = members.get(node).size();
            members.get(node).add(rank);
        }
        nodeRanks = new int[members.size()][];
        for (int node = 0; node < nodeRanks.length; node++)
        {
            nodeRanks[node] = members.get(node).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** How many nodes the job spans. */
    int nodes()
    {
        return nodeRanks.length;
    }

    /** The node of {@code rank}, numbered from 0 in the order of each node's lowest rank. */
    int nodeOf(final int rank)
    {
        return nodeOf[rank];
    }

    /** Whether {@code rank} shares this process's node. */
    boolean isLocal(final int rank)
    {
        return nodeOf[rank] == nodeOf[ownRank];
    }

    /** The index of {@code rank} among its node's ranks. */
    int localIndex(final int rank)
    {
        return localIndex[rank];
    }

    /** The world ranks of {@code node}, lowest first. */
    int[] ranksOf(final int node)
    {
        return nodeRanks[node].clone();
    }

    /** The world ranks of this process's node, lowest first. */
    int[] localRanks()
    {
        return ranksOf(nodeOf[ownRank]);
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        for (int node = 0; node < nodeRanks.length; node++)
        {
            text.append(node == 0 ? "" : ", ").append("node ").append(node).append(": ranks ")
                .append(Arrays.toString(nodeRanks[node]));
        }
        return text.toString();
    }
}
