package xdev.shmdev.coll;

import java.lang.reflect.Array;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.rma.spi.common.NodeIdentity;

/**
 * The collectives of a communicator that spans nodes, in two levels (the shape of MPICH's SMP collectives
 * and Open MPI's {@code coll/han}): within each node through its shared memory (a communicator of the node's
 * ranks, whose collectives {@link ShmCollectives} runs), between nodes over one leader per node (the node's
 * lowest rank) with MPJ Express's own algorithms. Only the leaders' step crosses the network, once per
 * collective, instead of every rank's messages of MPJ Express's trees.
 *
 * <p><b>Order of a reduction.</b> Each node reduces its ranks' values first (in MPJ Express's order for that
 * node's communicator), then the leaders reduce the nodes' results (in its order for theirs): for 4 ranks on
 * 2 nodes, {@code (v0 + v1) + (v2 + v3)}. Floating-point results are those of this order, the same on every
 * run and every rank; they equal MPJ Express's whenever its tree groups the ranks the same way (as its
 * binomial tree does for nodes of 2^k consecutive ranks). An operation must be associative (MPI's rule);
 * commutativity is not needed, since the nodes hold consecutive ranks (a communicator whose nodes do not is
 * left to MPJ Express).
 *
 * <p>Buffers of MPJ Express's basic datatypes are handled here; other datatypes ({@code MPI.OBJECT}, derived)
 * are left to MPJ Express's algorithms on the whole communicator, as are Gathers whose receive type differs
 * from the send type.
 */
final class TwoLevelCollectives
{
    /** Tag of the leaders' hand-over to a root that is not its node's leader, on the node's communicator. */
    private static final int RESULT_TAG = 1;

    private final Intracomm node;
    /** The node leaders' communicator; null on the other ranks. */
    private final Intracomm leaders;
    /** The first rank of each node, in node order (which is rank order), and one past the last. */
    private final int[] nodeStart;
    private final int rank;
    private final int ownNode;

    private TwoLevelCollectives(final Intracomm node, final Intracomm leaders, final int[] nodeStart,
        final int rank, final int ownNode)
    {
        this.node = node;
        this.leaders = leaders;
        this.nodeStart = nodeStart;
        this.rank = rank;
        this.ownNode = ownNode;
    }

    /** How a communicator's collectives run on a device whose jobs span nodes. */
    enum Shape
    {
        /** Every rank on one node: shared memory alone ({@link CommCollectives}). */
        ONE_NODE,
        /** Nodes of consecutive ranks, one with two ranks or more: {@link TwoLevelCollectives}. */
        TWO_LEVEL,
        /** One rank per node, or nodes whose ranks are not consecutive: MPJ Express's algorithms. */
        MPJ
    }

    /** Each rank's node, numbered in the order of each node's lowest rank (collective over {@code comm}). */
    static int[] nodesOf(final Intracomm comm) throws MPIException
    {
        final long[] keys = new long[comm.Size()];
        comm.Allgather(new long[] {NodeIdentity.current()}, 0, 1, MPI.LONG, keys, 0, 1, MPI.LONG);
        final int[] nodes = new int[keys.length];
        int count = 0;
        for (int r = 0; r < keys.length; r++)
        {
            final int lowest = NodeIdentity.lowestRankOnNode(keys, r);
            nodes[r] = lowest == r ? count++ : nodes[lowest];
        }
        return nodes;
    }

    /** The shape of a communicator whose ranks are on {@code nodes}. */
    static Shape shapeOf(final int[] nodes)
    {
        boolean consecutive = true;
        boolean shared = false;
        int distinct = 1;
        for (int r = 1; r < nodes.length; r++)
        {
            if (nodes[r] != nodes[r - 1])
            {
                consecutive &= nodes[r] == distinct;
                distinct++;
            }
            else
            {
                shared = true;
            }
        }
        if (distinct == 1)
        {
            return Shape.ONE_NODE;
        }
        return consecutive && shared ? Shape.TWO_LEVEL : Shape.MPJ;
    }

    /** Splits {@code comm} into its nodes and their leaders (collective; {@code nodes} of shape TWO_LEVEL). */
    static TwoLevelCollectives create(final Intracomm comm, final int[] nodes) throws MPIException
    {
        final int rank = comm.Rank();
        final int count = nodes[nodes.length - 1] + 1;
        final int[] nodeStart = new int[count + 1];
        for (int r = nodes.length - 1; r >= 0; r--)
        {
            nodeStart[nodes[r]] = r;
        }
        nodeStart[count] = nodes.length;
        final boolean leader = nodeStart[nodes[rank]] == rank;
        final Intracomm node = comm.Split(nodes[rank], rank);
        // MPJ Express 0.44 gives the ranks of colour MPI.UNDEFINED a communicator of their own: freed at once.
        final Intracomm split = comm.Split(leader ? 0 : MPI.UNDEFINED, rank);
        final Intracomm leaders = leader ? split : null;
        if (!leader && split != null)
        {
            split.Free();
        }
        return new TwoLevelCollectives(node, leaders, nodeStart, rank, nodes[rank]);
    }

    /** Whether MPJ Express's basic datatype {@code type} is one handled here. */
    static boolean handles(final Datatype type)
    {
        return ElementType.of(type) != null;
    }

    private boolean isLeader()
    {
        return leaders != null;
    }

    private int nodeOf(final int r)
    {
        int n = 0;
        while (nodeStart[n + 1] <= r)
        {
            n++;
        }
        return n;
    }

    private int nodeSize(final int n)
    {
        return nodeStart[n + 1] - nodeStart[n];
    }

    void barrier() throws MPIException
    {
        node.Barrier();
        if (isLeader())
        {
            leaders.Barrier();
        }
        node.Barrier();
    }

    void bcast(final Object buf, final int offset, final int count, final Datatype type, final int root)
        throws MPIException
    {
        final int rootNode = nodeOf(root);
        if (ownNode == rootNode)
        {
            node.Bcast(buf, offset, count, type, root - nodeStart[rootNode]);
        }
        if (isLeader())
        {
            leaders.Bcast(buf, offset, count, type, rootNode);
        }
        if (ownNode != rootNode)
        {
            node.Bcast(buf, offset, count, type, 0);
        }
    }

    void reduce(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
        final int count, final Datatype type, final Op op, final int root) throws MPIException
    {
        final int elements = count * type.Size();
        final Object nodeResult = isLeader() ? newArray(sendbuf, elements) : recvbuf;
        node.Reduce(sendbuf, sendoffset, nodeResult, 0, count, type, op, 0);
        final int rootNode = nodeOf(root);
        final boolean rootLeads = nodeStart[rootNode] == root;
        if (isLeader())
        {
            final boolean intoRoot = rank == root;
            final Object result = intoRoot ? recvbuf : ownNode == rootNode ? newArray(sendbuf, elements) : nodeResult;
            leaders.Reduce(nodeResult, 0, result, intoRoot ? recvoffset : 0, count, type, op, rootNode);
            if (ownNode == rootNode && !rootLeads)
            {
                node.Send(result, 0, count, type, root - nodeStart[rootNode], RESULT_TAG);
            }
        }
        else if (rank == root)
        {
            node.Recv(recvbuf, recvoffset, count, type, 0, RESULT_TAG);
        }
    }

    void allreduce(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
        final int count, final Datatype type, final Op op) throws MPIException
    {
        final Object nodeResult = isLeader() ? newArray(sendbuf, count * type.Size()) : recvbuf;
        node.Reduce(sendbuf, sendoffset, nodeResult, isLeader() ? 0 : recvoffset, count, type, op, 0);
        if (isLeader())
        {
            leaders.Allreduce(nodeResult, 0, recvbuf, recvoffset, count, type, op);
        }
        node.Bcast(recvbuf, recvoffset, count, type, 0);
    }

    /** A Gather (root at least 0) or an Allgather (root -1) of {@code count} items from every rank. */
    void gather(final Object sendbuf, final int sendoffset, final int count, final Datatype type,
        final Object recvbuf, final int recvoffset, final int root) throws MPIException
    {
        final int items = count * type.Size();
        final Object nodeItems = isLeader() ? newArray(sendbuf, items * nodeSize(ownNode)) : recvbuf;
        node.Gather(sendbuf, sendoffset, count, type, nodeItems, 0, count, type, 0);
        final int size = nodeStart[nodeStart.length - 1];
        final int rootNode = root < 0 ? -1 : nodeOf(root);
        if (isLeader())
        {
            final int nodes = nodeStart.length - 1;
            final int[] counts = new int[nodes];
            final int[] displacements = new int[nodes];
            for (int n = 0; n < nodes; n++)
            {
                counts[n] = nodeSize(n) * count;
                displacements[n] = nodeStart[n] * count;
            }
            if (root < 0)
            {
                leaders.Allgatherv(nodeItems, 0, counts[ownNode], type, recvbuf, recvoffset, counts, displacements,
                    type);
            }
            else
            {
                final boolean intoRoot = rank == root;
                final Object all = intoRoot ? recvbuf : ownNode == rootNode ? newArray(sendbuf, items * size) :
                    nodeItems;
                leaders.Gatherv(nodeItems, 0, counts[ownNode], type, all, intoRoot ? recvoffset : 0, counts,
                    displacements, type, rootNode);
                if (ownNode == rootNode && !intoRoot)
                {
                    node.Send(all, 0, count * size, type, root - nodeStart[rootNode], RESULT_TAG);
                }
            }
        }
        else if (rank == root)
        {
            node.Recv(recvbuf, recvoffset, count * size, type, 0, RESULT_TAG);
        }
        if (root < 0)
        {
            node.Bcast(recvbuf, recvoffset, count * size, type, 0);
        }
    }

    /** Frees the node's and the leaders' communicators (collective over the communicator). */
    void free() throws MPIException
    {
        node.Free();
        if (leaders != null)
        {
            leaders.Free();
        }
    }

    private static Object newArray(final Object like, final int length)
    {
        return Array.newInstance(like.getClass().getComponentType(), length);
    }
}
