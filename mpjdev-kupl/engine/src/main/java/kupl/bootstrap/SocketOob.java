package kupl.bootstrap;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;

import kupl.Kupl;
import kupl.OobCallbacks;
import kupl.ShmDatatype;

/**
 * The out-of-band callbacks of one process of a {@link LocalJob} (or of any {@link OobHub}): every
 * allgather is sent to the hub, which answers once every process has contributed. A barrier is an empty
 * allgather. If the hub or another process goes away, calls return {@link Kupl#KUPL_ERROR}
 * instead of blocking.
 */
public final class SocketOob implements OobCallbacks, AutoCloseable
{
    /** System properties a {@link LocalJob} sets on each process it starts. */
    public static final String PORT_PROPERTY = "kupl.bootstrap.port";
    public static final String RANK_PROPERTY = "kupl.bootstrap.rank";
    public static final String SIZE_PROPERTY = "kupl.bootstrap.size";
    public static final String TOKEN_PROPERTY = "kupl.bootstrap.token";

    private final int rank;
    private final int size;
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    private SocketOob(final int rank, final int size, final Socket socket) throws IOException
    {
        this.rank = rank;
        this.size = size;
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /**
     * Connects to the hub of the job that started this JVM.
     *
     * @throws IllegalStateException if this JVM was not started by a {@link LocalJob}.
     */
    public static SocketOob fromSystemProperties() throws IOException
    {
        final String port = System.getProperty(PORT_PROPERTY);
        if (port == null)
        {
            throw new IllegalStateException("no -D" + PORT_PROPERTY + ": start this program through kupl.bootstrap.LocalJob");
        }
        return connect(Integer.parseInt(port), Long.parseLong(System.getProperty(TOKEN_PROPERTY)),
            Integer.getInteger(RANK_PROPERTY), Integer.getInteger(SIZE_PROPERTY));
    }

    /**
     * Connects to the {@link OobHub} listening on loopback {@code port}, as process {@code rank}
     * of {@code size}.
     */
    public static SocketOob connect(final int port, final long token, final int rank, final int size) throws IOException
    {
        if (rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException("rank=" + rank + " is outside 0.." + (size - 1));
        }
        final Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        final SocketOob oob = new SocketOob(rank, size, socket);
        oob.out.writeLong(token);
        oob.out.writeInt(rank);
        oob.out.flush();
        return oob;
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
        socket.close();
    }
}
