package kupl.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import kupl.Kupl;
import kupl.OobCallbacks;
import kupl.ShmDatatype;

/**
 * The out-of-band callbacks of one process of a job served by an {@link OobHub}: every
 * allgather is sent to the hub, which answers once every process has contributed. A barrier is an empty
 * allgather. If the hub or another process goes away, calls return {@link Kupl#KUPL_ERROR}
 * instead of blocking.
 */
public final class SocketOob implements OobCallbacks, AutoCloseable
{
    /** System properties the job's launcher sets on each process it starts: the hub's socket, ... */
    public static final String SOCKET_PROPERTY = "kupl.bootstrap.socket";
    /** ... the job's id ({@link OobHub#jobId()}), ... */
    public static final String JOB_PROPERTY = "kupl.bootstrap.job";
    /** ... the process's rank, ... */
    public static final String RANK_PROPERTY = "kupl.bootstrap.rank";
    /** ... and the number of processes. */
    public static final String SIZE_PROPERTY = "kupl.bootstrap.size";
    /**
     * How much longer than the hub's arrival timeout a process waits for the hub's word. The hub,
     * which knows who is missing, must be the one to end a start that takes too long (its timeout
     * runs from the first arrival, so this process's own would otherwise expire first); this
     * process's deadline is for a hub that is gone or stopped.
     */
    static final long HUB_GRACE_MS = 5_000;

    private final int rank;
    private final int size;
    private final SocketChannel channel;
    private final DataInputStream in;
    private final DataOutputStream out;

    private SocketOob(final int rank, final int size, final SocketChannel channel)
    {
        this.rank = rank;
        this.size = size;
        this.channel = channel;
        this.in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel)));
        this.out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)));
    }

    /**
     * Connects to the hub of the job that started this JVM, with the timeouts of its environment.
     *
     * @throws IllegalStateException if this JVM was not started by a launcher that runs a hub.
     */
    public static SocketOob fromSystemProperties() throws IOException
    {
        final String socket = System.getProperty(SOCKET_PROPERTY);
        if (socket == null)
        {
            throw new IllegalStateException("no -D" + SOCKET_PROPERTY + ": start this program through a " +
                "launcher that runs a hub for it (bin/mpjrun -dev shm, or mpjrun.process.EngineJob for the " +
                "engine's own programs)");
        }
        return connect(Path.of(socket), Long.parseLong(System.getProperty(JOB_PROPERTY)),
            Integer.getInteger(RANK_PROPERTY), Integer.getInteger(SIZE_PROPERTY), BootstrapTimeouts.fromEnvironment());
    }

    /**
     * Connects to the {@link OobHub} listening on {@code socket} as process {@code rank} of
     * {@code size}, and waits until every process has arrived.
     *
     * @throws IOException saying why, within {@link BootstrapTimeouts#arrivalMs()} and {@link #HUB_GRACE_MS}:
     *         the hub is gone, it gave the job up (a {@link JobRefusedException} as the cause, naming the ranks
     *         that did not arrive or ended before they joined), or it did not answer in time.
     */
    public static SocketOob connect(final Path socket, final long jobId, final int rank, final int size,
        final BootstrapTimeouts timeouts) throws IOException
    {
        Objects.requireNonNull(socket, "socket");
        Objects.requireNonNull(timeouts, "timeouts");
        if (size < 1 || rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException("rank=" + rank + " is outside 0.." + (size - 1) + " (size=" + size + ")");
        }
        final String who = "rank " + rank + " of " + size;
        final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        final AtomicBoolean waiting = new AtomicBoolean(true);
        // Every wait below ends by the deadline: closing the channel ends a blocked connect, write or read.
        CompletableFuture.delayedExecutor(timeouts.arrivalMs() + HUB_GRACE_MS, TimeUnit.MILLISECONDS).execute(() ->
        {
            if (waiting.compareAndSet(true, false))
            {
                closeQuietly(channel);
            }
        });
        try
        {
            channel.connect(UnixDomainSocketAddress.of(socket));
            final SocketOob oob = new SocketOob(rank, size, channel);
            new Greeting(jobId, size, rank).write(oob.out);
            oob.out.flush();
            final int answer = oob.in.read();
            if (answer == Greeting.REFUSED)
            {
                throw new JobRefusedException(oob.in.readUTF());
            }
            if (answer != Greeting.WELCOME)
            {
                throw new IOException("the hub closed the connection without welcoming it (the launcher ended, or" +
                    " gave the job up)");
            }
            if (!waiting.compareAndSet(true, false))
            {
                throw new IOException("timed out");
            }
            return oob;
        }
        catch (final IOException e)
        {
            final boolean timedOut = !waiting.getAndSet(false);
            closeQuietly(channel);
            if (timedOut)
            {
                throw new IOException(who + ": not every rank arrived at the job's hub within " +
                    timeouts.arrivalMs() + " ms (KUPL_SHM_ARRIVAL_MS), and the hub said nothing in the " + HUB_GRACE_MS +
                    " ms after (is the launcher stopped?)", e);
            }
            throw new IOException(who + ": cannot join the job through its hub " + socket + ": " +
                (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
    }

    public int rank()
    {
        return rank;
    }

    public int size()
    {
        return size;
    }

    @Override
    public synchronized int oobAllgather(final byte[] sendbuf, final byte[] recvbuf, final int count, final Object group,
        final ShmDatatype datatype)
    {
        final int bytes = count * datatype.sizeBytes();
        if (sendbuf.length < bytes || recvbuf.length < bytes * size)
        {
            return Kupl.KUPL_ERROR;
        }
        try
        {
            out.writeInt(bytes);
            out.write(sendbuf, 0, bytes);
            out.flush();
            final int total = in.readInt();
            if (total != bytes * size)
            {
                return Kupl.KUPL_ERROR;
            }
            in.readFully(recvbuf, 0, total);
            return Kupl.KUPL_OK;
        }
        catch (final IOException e)
        {
            System.err.println("kupl.bootstrap: rank " + rank + ": out-of-band allgather failed: " + e.getMessage());
            return Kupl.KUPL_ERROR;
        }
    }

    @Override
    public int oobBarrier(final Object group)
    {
        return oobAllgather(new byte[0], new byte[0], 0, group, ShmDatatype.CHAR);
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }

    private static void closeQuietly(final SocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // already closed
        }
    }
}
