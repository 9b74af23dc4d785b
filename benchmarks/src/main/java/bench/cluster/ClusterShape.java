package bench.cluster;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;

import bench.device.DeviceRank;

/**
 * How a job of {@link ClusterBenchmark} lies on the simulated nodes: {@code nodes} nodes of
 * {@code ranksPerNode} ranks each, placed in blocks (node 1 holds ranks 0..ranksPerNode-1, node 2 the next
 * ranksPerNode, and so on), as MPJ Express's starter places them from the machines file.
 */
record ClusterShape(int nodes, int ranksPerNode)
{
    ClusterShape
    {
        if (nodes < 2 || ranksPerNode < 2)
        {
            throw new IllegalArgumentException("a job that spans nodes, with a pair of ranks within a node, needs " +
                "at least 2 nodes of 2 ranks, not " + nodes + " x " + ranksPerNode);
        }
    }

    /** Every rank of the job. */
    int processes()
    {
        return nodes * ranksPerNode;
    }

    /** The first rank of node {@code node} (from 1). */
    int firstRankOf(final int node)
    {
        return (node - 1) * ranksPerNode;
    }

    /** The node (from 1) that {@code rank} runs on. */
    int nodeOf(final int rank)
    {
        return rank / ranksPerNode + 1;
    }

    /** E.g. {@code "2 nodes x 2 ranks"}. */
    String label()
    {
        return nodes + " nodes x " + ranksPerNode + " ranks";
    }

    /** E.g. {@code "ranks 0-1 on node 1, 2-3 on node 2"}. */
    String placement()
    {
        final StringBuilder text = new StringBuilder("ranks ");
        for (int node = 1; node <= nodes; node++)
        {
            text.append(node == 1 ? "" : ", ").append(firstRankOf(node)).append('-')
                .append(firstRankOf(node) + ranksPerNode - 1).append(" on node ").append(node);
        }
        return text.toString();
    }

    /**
     * Why the ranks of a {@link DeviceRank#HOSTS} part in {@code output} do not lie as this shape says (ranks of
     * one node on one host, nodes on different hosts), or null if they do.
     */
    String placementProblem(final String output)
    {
        final Map<Integer, String> hosts = new HashMap<>();
        for (final String line : output.lines().map(String::strip).toList())
        {
            if (line.startsWith(DeviceRank.PLACEMENT_PREFIX))
            {
                final String[] words = line.split(" ");
                hosts.put(Integer.parseInt(words[1].substring("rank=".length())), words[2].substring("host=".length()));
            }
        }
        if (hosts.size() != processes())
        {
            return "expected where each of " + processes() + " ranks runs, got " + hosts.size() + " ranks' hosts";
        }
        final Map<Integer, String> nodeHosts = new HashMap<>();
        for (int rank = 0; rank < processes(); rank++)
        {
            final String host = hosts.get(rank);
            final String first = nodeHosts.putIfAbsent(nodeOf(rank), host);
            if (first != null && !first.equals(host))
            {
                return "rank " + rank + " runs on " + host + ", not with the other ranks of node " + nodeOf(rank) +
                    " on " + first + ": " + hosts;
            }
        }
        if (new LinkedHashSet<>(nodeHosts.values()).size() != nodes())
        {
            return "the nodes' ranks share hosts (" + hosts + "): the rows across nodes would be within one";
        }
        return null;
    }
}
