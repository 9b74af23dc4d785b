package kupl.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The launcher's side of {@link SocketOob}: a Unix-domain socket that the N processes of a job
 * connect to, and a thread that answers each round of their allgathers once all of them have
 * contributed. When any process goes away (or {@link #close()} is called) every connection is
 * dropped, so that the others' out-of-band calls fail instead of waiting for ever.
 *
 * <p><b>Who can connect.</b> The socket lives in a directory that only this user may enter
 * ({@link PrivateSocketDirectory}, mode 0700), so the kernel refuses every other user's
 * {@code connect}; the hub also asks the kernel who the peer is ({@code SO_PEERCRED}) and drops
 * a connection from any other user, should the directory's mode ever be loosened. There is no
 * secret to steal: the socket's path and the {@link #jobId()} are on every rank's command line,
 * and they grant nothing. A token would only stop processes of the same user, who can read the
 * launcher's memory anyway.
 *
 * <p><b>Arrival.</b> Each connection is served on a virtual thread of its own, so one that stays
 * silent, closes at once or sends garbage delays nobody: it must introduce itself as a rank of
 * this job ({@link Greeting}) within {@link BootstrapTimeouts#helloMs()} or it is dropped (the
 * first drop is reported on standard error, without the peer's bytes). Once every rank has
 * arrived the socket and its directory are removed and each rank is welcomed. If they have not
 * all arrived within {@link BootstrapTimeouts#arrivalMs()} of the first one, or a process ends
 * without joining while another has joined (see {@link #processExited(int, int)}), the job is
 * given up: every connected rank, and any that connects later, is told why, and
 * {@link #arrival()} completes with that message.
 *
 * <p><b>Ranks that never join.</b> Joining is collective: a rank that has joined can start only
 * once every rank has. So a rank that ends without joining spoils the start only if some rank
 * joins (now or later): then the job is given up, naming the ranks that ended without joining.
 * While no rank has joined, nobody waits for anybody: the processes may be running a program
 * that never joins at all (MPJ Express programs that test {@code mpjbuf} without
 * {@code MPI.Init}), and every one of them may end so; the hub stays silent and the arrival
 * timeout does not run, since it bounds how long a joined rank waits for the others.
 *
 * <p><b>Rounds.</b> After arrival one thread reads one record from each rank in rank order and
 * sends every rank the concatenation. These waits have no timeout: a rank may compute for hours
 * between two collectives; a rank that dies closes its connection, which ends the rounds.
 */
public final class OobHub implements AutoCloseable
{
    private final int size;
    private final long jobId;
    private final BootstrapTimeouts timeouts;
    private final PrivateSocketDirectory directory;
    private final ServerSocketChannel server;
    private final CompletableFuture<Void> arrival = new CompletableFuture<>();
    private final AtomicInteger droppedConnections = new AtomicInteger();
    /** The connected ranks, by rank; guarded by {@code this}. */
    private final Member[] members;
    /** Who has joined, who ended without; guarded by {@code this}. */
    private final ArrivalRoll roll;
    /** Every rank has arrived; guarded by {@code this}. */
    private boolean started;
    /** Whether the arrival timeout runs: it starts with the first rank's arrival; guarded by {@code this}. */
    private boolean arrivalTimed;
    private volatile String failure;

    /** One rank's connection, with the streams its greeting was read from. */
    private record Member(SocketChannel channel, DataInputStream in, DataOutputStream out)
    {
    }

    private OobHub(final int size, final BootstrapTimeouts timeouts, final PrivateSocketDirectory directory,
        final ServerSocketChannel server)
    {
        this.size = size;
        this.jobId = new SecureRandom().nextLong();
        this.timeouts = timeouts;
        this.directory = directory;
        this.server = server;
        this.members = new Member[size];
        this.roll = new ArrivalRoll(size);
    }

    /** Opens a hub for {@code size} processes with the timeouts of this process's environment. */
    public static OobHub start(final int size) throws IOException
    {
        return start(size, BootstrapTimeouts.fromEnvironment());
    }

    /**
     * Opens a hub for {@code size} processes in a fresh private directory and starts serving.
     *
     * @throws IOException if the directory or the socket cannot be made (the message says what to change).
     */
    public static OobHub start(final int size, final BootstrapTimeouts timeouts) throws IOException
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("size=" + size + " must be at least 1");
        }
        Objects.requireNonNull(timeouts, "timeouts");
        final PrivateSocketDirectory directory = PrivateSocketDirectory.create();
        final ServerSocketChannel server;
        try
        {
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(directory.address());
        }
        catch (final IOException | RuntimeException e)
        {
            directory.close();
            throw e;
        }
        final OobHub hub = new OobHub(size, timeouts, directory, server);
        Thread.ofPlatform().daemon().name("kupl-oob-hub-accept").start(hub::acceptConnections);
        return hub;
    }

    /** The socket the ranks connect to; reachable only by this user, and gone once every rank has arrived. */
    public Path socket()
    {
        return directory.socket();
    }

    /** A random number naming this job; not a secret (ranks show it), used as the job's identity. */
    public long jobId()
    {
        return jobId;
    }

    public int size()
    {
        return size;
    }

    public BootstrapTimeouts timeouts()
    {
        return timeouts;
    }

    /** Why serving ended (a process went away, the job could not start), or null while it goes on. */
    public String failure()
    {
        return failure;
    }

    /**
     * Completes when every rank has arrived, or exceptionally, with an {@link IOException} naming
     * the missing ranks, when the job is given up before.
     */
    public CompletableFuture<Void> arrival()
    {
        return arrival.copy();
    }

    /** How many ranks have connected and introduced themselves so far. */
    public synchronized int arrivedRanks()
    {
        return roll.joinedRanks();
    }

    /** Whether process {@code rank} has connected and introduced itself (it may have gone since). */
    public synchronized boolean joined(final int rank)
    {
        return roll.joined(rank);
    }

    /** How many connections have been dropped for not being one of this job's ranks. */
    public int droppedConnections()
    {
        return droppedConnections.get();
    }

    /**
     * Tells the hub that process {@code rank} has exited with {@code status}. Before every process
     * has arrived no socket would notice, and the others would wait for the whole arrival timeout,
     * so the hub gives the job up at once if the process had joined, or if another has joined
     * (see the class comment for why a process that ends without joining is not a failure while
     * none has). Afterwards the closed connection ends the rounds by itself.
     */
    public synchronized void processExited(final int rank, final int status)
    {
        Objects.checkIndex(rank, size);
        if (started || failure != null)
        {
            return;
        }
        if (roll.joined(rank))
        {
            giveUp("rank " + rank + " of " + size + " " + ExitStatus.describe(status) + " after it joined the job, " +
                "while " + roll.missing() + " had not arrived");
            return;
        }
        roll.endedWithoutJoining(rank, status);
        final String spoiled = roll.spoiled();
        if (spoiled != null)
        {
            giveUp(spoiled);
        }
    }

    /** Stops serving and drops every connection; a job still starting is given up. */
    @Override
    public void close()
    {
        synchronized (this)
        {
            giveUp("the job's hub was closed before " + roll.missing() + " arrived");
            for (final Member member : members)
            {
                closeQuietly(member == null ? null : member.channel());
            }
        }
        closeQuietly(server);
        directory.close();
    }

    private void acceptConnections()
    {
        try
        {
            while (true)
            {
                final SocketChannel channel = server.accept();
                Thread.ofVirtual().name("kupl-oob-hub-greeting").start(() -> admit(channel));
            }
        }
        catch (final IOException e)
        {
            // Closed: every rank has arrived, or the job was given up or closed.
        }
    }

    /** Reads a new connection's greeting within the hello timeout, and keeps it if it is a missing rank's. */
    private void admit(final SocketChannel channel)
    {
        final AtomicBoolean decided = new AtomicBoolean();
        CompletableFuture.delayedExecutor(timeouts.helloMs(), TimeUnit.MILLISECONDS).execute(() ->
        {
            if (decided.compareAndSet(false, true))
            {
                // Closing the channel also ends the read below.
                drop(channel, "it sent no greeting within " + timeouts.helloMs() + " ms");
            }
        });
        try
        {
            final UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
            if (!directory.owner().equals(peer.user()))
            {
                if (decided.compareAndSet(false, true))
                {
                    drop(channel, "it belongs to user " + peer.user().getName() + ", the job to " +
                        directory.owner().getName());
                }
                return;
            }
            final DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel)));
            final Greeting greeting = Greeting.read(in);
            if (decided.compareAndSet(false, true))
            {
                final String refusal = register(greeting, channel, in);
                if (refusal != null)
                {
                    drop(channel, refusal);
                }
            }
        }
        catch (final IOException e)
        {
            if (decided.compareAndSet(false, true))
            {
                drop(channel, e instanceof EOFException ? "it closed before a whole greeting" :
                    e instanceof ProtocolException ? e.getMessage() : "reading its greeting failed");
            }
        }
    }

    /** Keeps a greeted connection as its rank; returns why not if it cannot be. */
    private synchronized String register(final Greeting greeting, final SocketChannel channel,
        final DataInputStream in) throws IOException
    {
        if (greeting.jobId() != jobId)
        {
            return "its greeting names another job";
        }
        if (greeting.size() != size || greeting.rank() < 0 || greeting.rank() >= size)
        {
            return "its greeting names rank " + greeting.rank() + " of " + greeting.size() + ", the job has " + size;
        }
        if (started)
        {
            return "the job has started already";
        }
        if (roll.joined(greeting.rank()))
        {
            return "rank " + greeting.rank() + " has connected already";
        }
        final Member member = new Member(channel, in,
            new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel))));
        if (failure != null)
        {
            // One of this job's ranks, come too late: it learns why its start failed, as those that came before did.
            refuse(member, failure);
            return null;
        }
        members[greeting.rank()] = member;
        roll.join(greeting.rank());
        if (!arrivalTimed)
        {
            // From now on a rank waits for the others: bound how long.
            arrivalTimed = true;
            CompletableFuture.delayedExecutor(timeouts.arrivalMs(), TimeUnit.MILLISECONDS).execute(this::arrivalTimedOut);
        }
        final String spoiled = roll.spoiled();
        if (spoiled != null)
        {
            giveUp(spoiled);
        }
        else if (roll.joinedRanks() == size)
        {
            begin();
        }
        return null;
    }

    /** Every rank has arrived: no one else may connect; welcome them all and start the rounds. */
    private void begin()
    {
        started = true;
        closeQuietly(server);
        directory.close();
        try
        {
            for (final Member member : members)
            {
                member.out().writeByte(Greeting.WELCOME);
                member.out().flush();
            }
        }
        catch (final IOException e)
        {
            // A rank died just now: the rounds fail at its closed connection and release the others.
        }
        arrival.complete(null);
        Thread.ofPlatform().daemon().name("kupl-oob-hub-rounds").start(this::serveRounds);
    }

    private void arrivalTimedOut()
    {
        synchronized (this)
        {
            giveUp(roll.missing() + " did not arrive within " + timeouts.arrivalMs() + " ms of the first rank (" +
                "KUPL_SHM_ARRIVAL_MS; a rank that starts slowly needs more, one that never calls MPI.Init never comes)");
        }
    }

    /**
     * Ends a job that has not started: tells each connected rank why, drops every connection and
     * removes the socket. Does nothing once every rank has arrived or the job is given up already.
     */
    private void giveUp(final String why)
    {
        assert Thread.holdsLock(this);
        if (started || failure != null)
        {
            return;
        }
        failure = why;
        for (final Member member : members)
        {
            if (member != null)
            {
                refuse(member, why);
            }
        }
        closeQuietly(server);
        directory.close();
        arrival.completeExceptionally(new IOException(why));
    }

    /** Tells a connected rank that the job will not start, and why, and drops its connection. */
    private static void refuse(final Member member, final String why)
    {
        try
        {
            member.out().writeByte(Greeting.REFUSED);
            member.out().writeUTF(why);
            member.out().flush();
        }
        catch (final IOException e)
        {
            // That rank has gone already.
        }
        closeQuietly(member.channel());
    }

    private void drop(final SocketChannel channel, final String why)
    {
        // Counted before the peer can see its connection closed.
        final boolean first = droppedConnections.getAndIncrement() == 0;
        closeQuietly(channel);
        if (first)
        {
            System.err.println("kupl.bootstrap: the job's hub dropped a connection that is not one of its ranks (" +
                why + "); the job goes on, and further such connections are dropped without a word");
        }
    }

    private void serveRounds()
    {
        final byte[][] records = new byte[size][];
        try
        {
            while (true)
            {
                // One collective round: every rank contributes one record, in rank order.
                int length = -1;
                for (int rank = 0; rank < size; rank++)
                {
                    final int bytes = members[rank].in().readInt();
                    if (length >= 0 && bytes != length)
                    {
                        throw new IOException("rank " + rank + " sent " + bytes + " bytes, rank 0 sent " + length);
                    }
                    length = bytes;
                    records[rank] = new byte[bytes];
                    members[rank].in().readFully(records[rank]);
                }
                for (int rank = 0; rank < size; rank++)
                {
                    final DataOutputStream out = members[rank].out();
                    out.writeInt(length * size);
                    for (int peer = 0; peer < size; peer++)
                    {
                        out.write(records[peer]);
                    }
                    out.flush();
                }
            }
        }
        catch (final IOException e)
        {
            // A process exited (normally at the end, or because it died): release everyone.
            failure = e.getMessage() == null || e instanceof SocketException ?
                "a process closed its connection to the hub" : e.getMessage();
        }
        finally
        {
            for (final Member member : members)
            {
                closeQuietly(member.channel());
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
