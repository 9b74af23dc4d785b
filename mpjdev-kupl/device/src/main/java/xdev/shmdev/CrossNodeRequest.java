package xdev.shmdev;

import mpjbuf.Buffer;
import mpjdev.Status;
import xdev.Device;

/**
 * A send or receive of {@link ClusterShmDevice} that the network carries, or may: a send to or receive from
 * a rank of another node (its {@link #network} request, niodev's), or a receive from any rank, which starts
 * as the node device's receive ({@link #local}) and is moved to the network by {@link NetworkReceives} if
 * a message from another node is there first.
 *
 * <p>Waiting for it drives both paths ({@link NetworkWaits}): a rank waiting for another node's message still
 * answers its own node's. Its completion handlers (MPJ Express's unpacking of derived types and objects) run
 * once, in the first {@link #iwait()} after completion.
 */
final class CrossNodeRequest extends mpjdev.Request
{
    /** A receive's source world rank, or {@link #ANY}; {@link #SEND} for a send. */
    final int source;
    final int tag;
    final int context;
    final Buffer buffer;
    final Status status;
    /** A receive from any rank: its receive on this node's shared memory; null otherwise. */
    final RecvRequest local;
    static final int ANY = -1;
    static final int SEND = -3;

    private final NetworkWaits waits;
    /** Volatile: set under the device's lock by {@link #bind}, read by waiting threads. */
    private volatile mpjdev.Request network;
    /** Volatile: niodev's request answers {@code itest} with null once waited for; this remembers. */
    private volatile boolean waited;
    private boolean handlersRun;
    private String describe;

    /** A send or receive already on the network. */
    CrossNodeRequest(final NetworkWaits waits, final mpjdev.Request network, final String what)
    {
        this(waits, SEND, 0, 0, null, null, null);
        this.network = network;
        this.describe = what;
    }

    /** A receive not yet on the network (see {@link NetworkReceives}). */
    CrossNodeRequest(final NetworkWaits waits, final int source, final int tag, final int context,
        final Buffer buffer, final Status status, final RecvRequest local)
    {
        this.waits = waits;
        this.source = source;
        this.tag = tag;
        this.context = context;
        this.buffer = buffer;
        this.status = status;
        this.local = local;
        this.describe = source == SEND ? "a send" : "a receive from " +
            (source == ANY ? "any rank" : "rank " + source) + " (tag " +
            (tag == Device.ANY_TAG ? "any" : Integer.toString(tag)) + ", context " + context + ")";
    }

    /** Puts the receive on the network (under the device's lock). */
    void bind(final mpjdev.Request onNetwork)
    {
        network = onNetwork;
    }

    /** Whether nothing has taken it yet: on neither path (under the device's lock). */
    boolean isUnbound()
    {
        return network == null && (local == null || !local.isBound());
    }

    /** The network's request, or null while there is none. */
    mpjdev.Request network()
    {
        return network;
    }

    /** Whether a message from {@code from} with {@code messageTag} in {@code messageContext} fits this receive. */
    boolean fits(final int from, final int messageTag, final int messageContext)
    {
        return context == messageContext && (source == ANY || source == from) &&
            (tag == Device.ANY_TAG || tag == messageTag);
    }

    /** Whether some message could fit both this receive and {@code other}. */
    boolean overlaps(final CrossNodeRequest other)
    {
        return context == other.context && (source == ANY || other.source == ANY || source == other.source) &&
            (tag == Device.ANY_TAG || other.tag == Device.ANY_TAG || tag == other.tag);
    }

    boolean isDone()
    {
        if (waited)
        {
            return true;
        }
        final mpjdev.Request onNetwork = network;
        if (onNetwork == null)
        {
            return local != null && local.isDone();
        }
        return onNetwork.itest() != null;
    }

    String describe()
    {
        return describe;
    }

    @Override
    public Status iwait()
    {
        waits.await(this);
        final mpjdev.Request onNetwork = network;
        final Status done = onNetwork == null ? local.iwait() : onNetwork.iwait();
        waited = true;
        final boolean runHandlers;
        synchronized (this)
        {
            runHandlers = !handlersRun;
            handlersRun = true;
        }
        if (runHandlers)
        {
            complete(done);
        }
        return done;
    }

    @Override
    public Status itest()
    {
        if (!isDone())
        {
            waits.passOnce();
        }
        return isDone() ? (status != null ? status : new Status()) : null;
    }

    @Override
    public void free()
    {
        // Nothing is kept for a request nobody waits for.
    }

    @Override
    public boolean isnull()
    {
        return false;
    }

    @Override
    public boolean cancel()
    {
        // As niodev and the node's device: a message on its way cannot be taken back.
        return false;
    }

    @Override
    public String toString()
    {
        return describe;
    }
}
