package kupl.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.SecureRandom;

/**
 * The server side of {@link SocketOob}: a loopback socket that N processes connect to, and a
 * thread that answers each round of their allgathers once all of them have contributed.
 * Connections must present the hub's random token. When any process goes away (or
 * {@link #close()} is called) every connection is dropped, so that the others' out-of-band
 * calls fail instead of waiting for ever.
 */
public final class OobHub implements AutoCloseable
{
    private final int size;
    private final long token;
    private final ServerSocket server;
    private final Thread thread;
    private volatile String failure;
    /** True until every process has connected: until then a process's exit is seen by no socket. */
    private volatile boolean accepting = true;

    private OobHub(final int size, final ServerSocket server, final long token)
    {
        this.size = size;
        this.server = server;
        this.token = token;
        this.thread = Thread.ofPlatform().daemon().name("kupl-oob-hub").unstarted(this::serve);
    }

    /** Opens a hub for {@code size} processes on a free loopback port and starts serving. */
    public static OobHub start(final int size) throws IOException
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("size=" + size + " must be at least 1");
        }
        final OobHub hub = new OobHub(size, new ServerSocket(0, size, InetAddress.getLoopbackAddress()),
            new SecureRandom().nextLong());
        hub.thread.start();
        return hub;
    }

    public int port()
    {
        return server.getLocalPort();
    }

    public long token()
    {
        return token;
    }

    public int size()
    {
        return size;
    }

    /** Why serving ended (a process went away), or null while it goes on. */
    public String failure()
    {
        return failure;
    }

    /**
     * Tells the hub that process {@code rank} has exited. Before every process has connected no
     * socket would notice, and the others would wait in accept for ever: the hub stops then.
     */
    public void processExited(final int rank)
    {
        if (accepting)
        {
            fail("rank " + rank + " exited before every process had connected to the hub");
            closeQuietly(server);
        }
    }

    /** Stops serving and drops every connection. */
    @Override
    public void close()
    {
        closeQuietly(server);
    }

    private void fail(final String why)
    {
        if (failure == null)
        {
            failure = why;
        }
    }

    private void serve()
    {
        final Socket[] sockets = new Socket[size];
        final DataInputStream[] ins = new DataInputStream[size];
        final DataOutputStream[] outs = new DataOutputStream[size];
        try
        {
            for (int connected = 0; connected < size; connected++)
            {
                final Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                final DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
                final int rank;
                if (in.readLong() != token || (rank = in.readInt()) < 0 || rank >= size || sockets[rank] != null)
                {
                    socket.close();
                    connected--;
                    continue;
                }
                sockets[rank] = socket;
                ins[rank] = in;
                outs[rank] = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            }
            accepting = false;
            // The listening socket is no longer needed; closing it also frees the port.
            closeQuietly(server);
            final byte[][] records = new byte[size][];
            while (true)
            {
                // One collective round: every rank contributes one record, in rank order.
                int length = -1;
                for (int rank = 0; rank < size; rank++)
                {
                    final int bytes = ins[rank].readInt();
                    if (length >= 0 && bytes != length)
                    {
                        throw new IOException("rank " + rank + " sent " + bytes + " bytes, rank 0 sent " + length);
                    }
                    length = bytes;
                    records[rank] = new byte[bytes];
                    ins[rank].readFully(records[rank]);
                }
                for (int rank = 0; rank < size; rank++)
                {
                    outs[rank].writeInt(length * size);
                    for (int peer = 0; peer < size; peer++)
                    {
                        outs[rank].write(records[peer]);
                    }
                    outs[rank].flush();
                }
            }
        }
        catch (final IOException e)
        {
            // A process exited (normally at the end, or because it died): release everyone.
            fail(e.getMessage());
        }
        finally
        {
            for (final Socket socket : sockets)
            {
                closeQuietly(socket);
            }
        }
    }

    private static void closeQuietly(final AutoCloseable closeable)
    {
        if (closeable != null)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception ignored)
            {
                // already gone
            }
        }
    }
}
