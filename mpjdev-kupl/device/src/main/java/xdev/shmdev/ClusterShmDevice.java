package xdev.shmdev;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

import mpi.rma.spi.common.NodeIdentity;
import mpjbuf.Buffer;
import mpjdev.Request;
import mpjdev.Status;
import xdev.Device;
import xdev.ProcessID;
import xdev.XDevException;
import xdev.niodev.NIODevice;

/**
 * The {@code shm} device of a job that spans nodes, started by MPJ Express's daemons as a {@code niodev}
 * job: ranks of one node exchange messages through shared memory (a {@link ShmDevice} of the node's
 * ranks), ranks of different nodes through MPJ Express's own {@code niodev}, which also sets the job up.
 *
 * <ul>
 * <li><b>Joining.</b> niodev connects every rank ({@code MPI.Init}'s arguments are niodev's); the ranks
 *     then tell each other their node ({@code mpi.rma}'s node identity, so that windows and device agree),
 *     and the ranks of each node build their shared memory, the engine's out-of-band steps going over
 *     niodev ({@link NodeOob}). Every rank keeps niodev's id, so a status names its source the same way on
 *     either path.</li>
 * <li><b>Paths.</b> A send goes the way of its destination; a receive from one rank the way of its source;
 *     a receive from any rank may be served by either, first come first served, as {@link NetworkReceives}
 *     decides.</li>
 * <li><b>Waiting.</b> A wait for the network drives the node's device too, and the reverse (the node's
 *     passes include {@link NetworkReceives#pass}), so neither path starves the other
 *     ({@link NetworkWaits}).</li>
 * </ul>
 */
public final class ClusterShmDevice implements Device
{
    /** Tags of the node exchange, apart from those {@link NodeOob} counts up from 0. */
    private static final int NODE_KEY_TAG = 1 << 30;
    private static final int NODE_TABLE_TAG = NODE_KEY_TAG + 1;

    /**
     * The longest the node's waits sleep between passes: a message from another node to a receive from any
     * rank is matched at the next pass (niodev rings no doorbell).
     */
    private static final long NODE_WAIT_PARK_NS = 1_000_000;

    private final NIODevice network = new NIODevice();
    private final ShmDevice node = new ShmDevice();
    private ProcessID[] ids;
    private RankIndex ranks;
    private NodeMap nodes;
    private int rank = -1;
    private NetworkReceives networkReceives;
    private NetworkWaits waits;

    /**
     * Joins the job: {@code args} are niodev's, as MPJ Express's daemon gives them. Collective over the job.
     */
    @Override
    public ProcessID[] init(final String[] args) throws XDevException
    {
        if (rank >= 0)
        {
            throw new XDevException("shm device: init called twice (rank " + rank + ")");
        }
        ids = network.init(args);
        ranks = new RankIndex(ids);
        final int own = ranks.rankOf(network.id(), "init", false);
        nodes = new NodeMap(exchangeNodeKeys(own, NodeIdentity.current()), own);
        final int[] local = nodes.localRanks();
        final ProcessID[] localIds = new ProcessID[local.length];
        for (int i = 0; i < local.length; i++)
        {
            localIds[i] = ids[local[i]];
        }
        final UUID first = localIds[0].uuid();
        final DeviceBootstrap joined = DeviceBootstrap.joinNode(nodes.localIndex(own), local.length,
            first.getMostSignificantBits() ^ first.getLeastSignificantBits(),
            "the ranks " + Arrays.toString(local) + " of node " + nodes.nodeOf(own) + " (" + nodes + ")",
            new NodeOob(network, localIds, nodes.localIndex(own)), ShmDevice.QUEUE_BYTES);
        node.start(joined, new JobRanks(localIds), NODE_WAIT_PARK_NS);
        waits = new NetworkWaits(node);
        networkReceives = new NetworkReceives(network, node, ids, ranks);
        node.progress().addNetworkPass(networkReceives::pass);
        rank = own;
        return ids.clone();
    }

    /** Every rank's node identity, through rank 0. */
    private long[] exchangeNodeKeys(final int own, final long key)
    {
        final long[] keys = new long[ids.length];
        if (own == 0)
        {
            keys[0] = key;
            for (int peer = 1; peer < ids.length; peer++)
            {
                keys[peer] = ByteBuffer.wrap(NetworkBytes.receive(network, ids[peer], NODE_KEY_TAG, Long.BYTES))
                    .getLong();
            }
            final ByteBuffer table = ByteBuffer.allocate(keys.length * Long.BYTES);
            table.asLongBuffer().put(keys);
            for (int peer = 1; peer < ids.length; peer++)
            {
                NetworkBytes.send(network, ids[peer], NODE_TABLE_TAG, table.array());
            }
            return keys;
        }
        NetworkBytes.send(network, ids[0], NODE_KEY_TAG, ByteBuffer.allocate(Long.BYTES).putLong(key).array());
        ByteBuffer.wrap(NetworkBytes.receive(network, ids[0], NODE_TABLE_TAG, keys.length * Long.BYTES))
            .asLongBuffer().get(keys);
        return keys;
    }

    /** How many nodes the job spans. */
    public int nodeCount()
    {
        checkInitialised();
        return nodes.nodes();
    }

    /** The world ranks of this process's node, lowest first. */
    public int[] nodeRanks()
    {
        checkInitialised();
        return nodes.localRanks();
    }

    @Override
    public int getSendOverhead()
    {
        // A buffer goes either way: niodev's room in front (the node's device needs none and skips it).
        return network.getSendOverhead();
    }

    @Override
    public int getRecvOverhead()
    {
        return Math.max(network.getRecvOverhead(), node.getRecvOverhead());
    }

    @Override
    public ProcessID id()
    {
        checkInitialised();
        return ids[rank];
    }

    /** Leaves the job: the node's shared memory with the node's ranks, then niodev with every rank. */
    @Override
    public void finish() throws XDevException
    {
        checkInitialised();
        node.finish();
        network.finish();
    }

    @Override
    public Request isend(final Buffer buf, final ProcessID destID, final int tag, final int context)
        throws XDevException
    {
        return isLocal(destID, "isend") ? node.isend(buf, destID, tag, context) :
            new CrossNodeRequest(waits, network.isend(buf, destID, tag, context), "a send to " + describe(destID));
    }

    @Override
    public void send(final Buffer buf, final ProcessID destID, final int tag, final int context) throws XDevException
    {
        isend(buf, destID, tag, context).iwait();
    }

    @Override
    public Request issend(final Buffer buf, final ProcessID destID, final int tag, final int context)
        throws XDevException
    {
        return isLocal(destID, "issend") ? node.issend(buf, destID, tag, context) :
            new CrossNodeRequest(waits, network.issend(buf, destID, tag, context),
                "a synchronous send to " + describe(destID));
    }

    @Override
    public void ssend(final Buffer buf, final ProcessID destID, final int tag, final int context) throws XDevException
    {
        issend(buf, destID, tag, context).iwait();
    }

    @Override
    public Status recv(final Buffer buf, final ProcessID srcID, final int tag, final int context) throws XDevException
    {
        final Status status = new Status(srcID == null ? null : srcID.uuid(), tag, -1);
        return irecv(buf, srcID, tag, context, status).iwait();
    }

    @Override
    public Request irecv(final Buffer buf, final ProcessID srcID, final int tag, final int context,
        final Status status) throws XDevException
    {
        checkInitialised();
        if (buf == null)
        {
            throw new XDevException("shm device: irecv with a null buffer");
        }
        final int source = ranks.rankOf(srcID, "irecv", true);
        if (source != CrossNodeRequest.ANY && nodes.isLocal(source))
        {
            return node.irecv(buf, srcID, tag, context, status);
        }
        final Status filled = status == null ? new Status() : status;
        return node.progress().locked(() ->
        {
            if (source != CrossNodeRequest.ANY)
            {
                return networkReceives.postFromNetwork(waits, buf, source, tag, context, filled);
            }
            final RecvRequest local = (RecvRequest)node.irecv(buf, srcID, tag, context, filled);
            return networkReceives.postFromAny(waits, local, buf, tag, context, filled);
        });
    }

    @Override
    public Status probe(final ProcessID srcID, final int tag, final int context) throws XDevException
    {
        checkInitialised();
        final int source = ranks.rankOf(srcID, "probe", true);
        if (source != CrossNodeRequest.ANY && nodes.isLocal(source))
        {
            return node.probe(srcID, tag, context);
        }
        final Status[] found = new Status[1];
        waits.await(() -> (found[0] = probeNow(source, srcID, tag, context)) != null,
            "probe for a message from " + (source == CrossNodeRequest.ANY ? "any rank" : "rank " + source));
        return found[0];
    }

    @Override
    public Status iprobe(final ProcessID srcID, final int tag, final int context) throws XDevException
    {
        checkInitialised();
        final int source = ranks.rankOf(srcID, "iprobe", true);
        if (source != CrossNodeRequest.ANY && nodes.isLocal(source))
        {
            return node.iprobe(srcID, tag, context);
        }
        waits.passOnce();
        return node.progress().locked(() -> probeNow(source, srcID, tag, context));
    }

    /** What a probe finds now: this node's messages first, then the network's (under the device's lock). */
    private Status probeNow(final int source, final ProcessID srcID, final int tag, final int context)
    {
        if (source == CrossNodeRequest.ANY)
        {
            final Status local = node.iprobe(srcID, tag, context);
            if (local != null)
            {
                return local;
            }
        }
        return network.iprobe(srcID, tag, context);
    }

    @Override
    public Status iprobe(final ProcessID srcID, final ProcessID dstID, final int tag, final int context)
        throws XDevException
    {
        // One process per rank: the destination is always this process.
        return iprobe(srcID, tag, context);
    }

    @Override
    public Status iprobeAndFetch(final ProcessID srcID, final ProcessID dstID, final int tag, final int context,
        final Buffer buf) throws XDevException
    {
        // Only MPJ Express's hybdev calls it; here a probe and the receive of what it found.
        final Status found = iprobe(srcID, tag, context);
        return found == null ? null : recv(buf, new ProcessID(found.srcID), found.tag, context);
    }

    /**
     * Not offered: {@code mpi.Request.Waitany} tests its requests in turn and never calls it, and niodev,
     * which carries half of this device's requests, has no queue of completed ones either.
     */
    @Override
    public Request peek() throws XDevException
    {
        throw new XDevException("shm device: peek (mpjdev.Request.iwaitany) is not offered in a job that spans " +
            "nodes; use mpi.Request.Waitany, which tests each request");
    }

    private boolean isLocal(final ProcessID id, final String operation)
    {
        checkInitialised();
        return nodes.isLocal(ranks.rankOf(id, operation, false));
    }

    private String describe(final ProcessID id)
    {
        final int other = ranks.rankOf(id.uuid());
        return "rank " + other + " on node " + nodes.nodeOf(other);
    }

    private void checkInitialised()
    {
        if (rank < 0)
        {
            throw new XDevException("shm device: not initialised (MPI.Init has not run with -dev shm)");
        }
    }

    @Override
    public String toString()
    {
        return "ClusterShmDevice[rank " + rank + " of " + (ids == null ? 0 : ids.length) + ", " + nodes + "]";
    }
}
