package xdev.shmdev;

import kupl.Kupl;
import kupl.OobCallbacks;
import kupl.ShmDatatype;
import xdev.Device;
import xdev.ProcessID;

/**
 * The engine's out-of-band steps among the ranks of one node, over the network device: an allgather is
 * a gather to the node's first rank and a broadcast back, a barrier an allgather of one byte. Every rank
 * of the node calls them in the same order (the engine's rule), so a running count tells one step's
 * messages from the next one's.
 */
final class NodeOob implements OobCallbacks
{
    private final Device network;
    private final ProcessID[] nodeRanks;
    private final int ownIndex;
    private int step;

    /**
     * @param nodeRanks the node's ranks, in the order of their index in the engine comm.
     * @param ownIndex  this process's index among them.
     */
    NodeOob(final Device network, final ProcessID[] nodeRanks, final int ownIndex)
    {
        this.network = network;
        this.nodeRanks = nodeRanks.clone();
        this.ownIndex = ownIndex;
    }

    @Override
    public synchronized int oobAllgather(final byte[] sendbuf, final byte[] recvbuf, final int size,
        final Object group, final ShmDatatype datatype)
    {
        final int bytes = size * datatype.sizeBytes();
        final int tag = step++;
        final byte[] own = new byte[bytes];
        System.arraycopy(sendbuf, 0, own, 0, bytes);
        if (ownIndex == 0)
        {
            System.arraycopy(own, 0, recvbuf, 0, bytes);
            for (int peer = 1; peer < nodeRanks.length; peer++)
            {
                System.arraycopy(NetworkBytes.receive(network, nodeRanks[peer], tag, bytes), 0, recvbuf,
                    peer * bytes, bytes);
            }
            final byte[] all = new byte[bytes * nodeRanks.length];
            System.arraycopy(recvbuf, 0, all, 0, all.length);
            for (int peer = 1; peer < nodeRanks.length; peer++)
            {
                NetworkBytes.send(network, nodeRanks[peer], tag, all);
            }
        }
        else
        {
            NetworkBytes.send(network, nodeRanks[0], tag, own);
            final byte[] all = NetworkBytes.receive(network, nodeRanks[0], tag, bytes * nodeRanks.length);
            System.arraycopy(all, 0, recvbuf, 0, all.length);
        }
        return Kupl.KUPL_OK;
    }

    @Override
    public int oobBarrier(final Object group)
    {
        return oobAllgather(new byte[1], new byte[nodeRanks.length], 1, group, ShmDatatype.CHAR);
    }
}
