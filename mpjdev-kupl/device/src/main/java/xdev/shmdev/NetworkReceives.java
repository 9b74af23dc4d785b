package xdev.shmdev;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import mpjbuf.Buffer;
import mpjdev.Status;
import xdev.Device;
import xdev.ProcessID;

/**
 * MPI's matching across the two paths of {@link ClusterShmDevice}, for the receives the network may
 * serve: niodev matches what it is given in the order it is given it, and the node's device likewise, so
 * what has to be decided here is only which receive goes where, and when.
 *
 * <ul>
 * <li>A receive from a rank of another node goes straight to niodev, unless an earlier receive that is
 *     still unmatched could take the same message (a receive from any rank, or an earlier one held back
 *     here): then it waits in {@link #waiting}, behind it, in posting order.</li>
 * <li>A receive from any rank is posted on the node's device at once (so that this node's messages match
 *     it in order with the node's other receives), and waits here too. At each pass, if niodev has a
 *     message that fits it and that no earlier waiting receive could take, the receive is taken back from
 *     the node's device and given to niodev for exactly that message (its source and tag), which is the
 *     first of that sender's that fits: so the first message to arrive on either path matches it, nothing
 *     is matched twice, and no sender's messages overtake each other.</li>
 * <li>A held-back receive from one rank is given to niodev once no earlier waiting receive could take
 *     its message: at once when none overlaps it, or for a message niodev already has that none of them
 *     fits.</li>
 * </ul>
 * Every method runs under the node device's lock ({@link Progress}): the node's matching only runs under
 * it, so a receive taken back cannot be matched meanwhile.
 */
final class NetworkReceives
{
    private final Device network;
    private final ShmDevice node;
    private final ProcessID[] ids;
    private final RankIndex ranks;
    /** Receives no path has taken yet, in the order they were posted. */
    private final List<CrossNodeRequest> waiting = new ArrayList<>();

    NetworkReceives(final Device network, final ShmDevice node, final ProcessID[] ids, final RankIndex ranks)
    {
        this.network = network;
        this.node = node;
        this.ids = ids.clone();
        this.ranks = ranks;
    }

    /** A receive from {@code source}, a rank of another node. */
    CrossNodeRequest postFromNetwork(final NetworkWaits waits, final Buffer buffer, final int source, final int tag,
        final int context, final Status status)
    {
        final CrossNodeRequest receive = new CrossNodeRequest(waits, source, tag, context, buffer, status, null);
        for (final CrossNodeRequest earlier : waiting)
        {
            if (earlier.overlaps(receive))
            {
                waiting.add(receive);
                return receive;
            }
        }
        receive.bind(network.irecv(buffer, ids[source], tag, context, status));
        return receive;
    }

    /** A receive from any rank, whose node side {@code local} is already posted on the node's device. */
    CrossNodeRequest postFromAny(final NetworkWaits waits, final RecvRequest local, final Buffer buffer,
        final int tag, final int context, final Status status)
    {
        final CrossNodeRequest receive = new CrossNodeRequest(waits, CrossNodeRequest.ANY, tag, context, buffer,
            status, local);
        if (!local.isBound())
        {
            waiting.add(receive);
            pass();
        }
        return receive;
    }

    /** Whether a receive waits here: a probe of the network then also looks at what it might take. */
    boolean isEmpty()
    {
        return waiting.isEmpty();
    }

    /** Gives waiting receives to niodev where their turn has come; whether any was. */
    boolean pass()
    {
        if (waiting.isEmpty())
        {
            return false;
        }
        boolean moved = false;
        final List<CrossNodeRequest> before = new ArrayList<>();
        for (final Iterator<CrossNodeRequest> each = waiting.iterator(); each.hasNext(); )
        {
            final CrossNodeRequest receive = each.next();
            if (receive.local != null && receive.local.isBound())
            {
                // This node's message came first.
                each.remove();
                continue;
            }
            if (receive.source != CrossNodeRequest.ANY && before.stream().noneMatch(receive::overlaps))
            {
                receive.bind(network.irecv(receive.buffer, ids[receive.source], receive.tag, receive.context,
                    receive.status));
                each.remove();
                moved = true;
                continue;
            }
            final Status there = network.iprobe(receive.source == CrossNodeRequest.ANY ? Device.ANY_SRC :
                ids[receive.source], receive.tag, receive.context);
            final int from = there == null ? -1 : ranks.rankOf(there.srcID);
            if (there == null || from < 0 || takenBefore(before, from, there.tag, receive.context))
            {
                before.add(receive);
                continue;
            }
            if (receive.local != null && !node.retract(receive.local))
            {
                each.remove();
                continue;
            }
            receive.bind(network.irecv(receive.buffer, ids[from], there.tag, receive.context, receive.status));
            each.remove();
            moved = true;
        }
        return moved;
    }

    private static boolean takenBefore(final List<CrossNodeRequest> before, final int from, final int tag,
        final int context)
    {
        for (final CrossNodeRequest earlier : before)
        {
            if (earlier.fits(from, tag, context))
            {
                return true;
            }
        }
        return false;
    }
}
