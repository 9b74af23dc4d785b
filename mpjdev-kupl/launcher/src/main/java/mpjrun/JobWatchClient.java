package mpjrun;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

/**
 * A rank's end of the job watch: the connection from a rank JVM to the launcher's {@link JobWatch}
 * that ends the whole job within seconds when any rank dies, on every node, whatever device carries
 * the messages (MPJ Express's niodev never fails a receive from a dead rank).
 *
 * <p><b>API for code in the rank's JVM.</b> A device that can fail its waits (say {@code xdev.shmdev}
 * running under {@link StarterRankMain}) asks:
 * {@snippet :
 * JobWatchClient.onPeerDeath(rank -> queue.unblock());       // called once, on the watch's thread
 * JobWatchClient.deadRank().ifPresent(rank -> {
 *     throw new XDevException("rank " + rank + " died; this wait cannot complete");
 * });
 * }
 * Both are safe without a watch ({@link #isWatched()} false): {@code deadRank()} is then empty and
 * listeners are never called. Only the first death is told. A listener runs on the watch's reader
 * thread and must not block; what it throws is printed and ignored.
 *
 * <p><b>What happens on a death.</b> The rank prints
 * {@code mpjrun: rank Q: rank R died (<how it was noticed>); ending this rank} on stderr, calls the
 * listeners, and {@value #GRACE_MS} ms later halts with status {@value #AFTER_ANOTHER_RANK}
 * ({@link ShmRankMain#AFTER_ANOTHER_RANK}: ended because another rank failed), so that a device
 * that fails its waits with an error has the time to do so first. A rank that loses the launcher
 * (the connection ends, or the launcher is silent for {@link WatchProtocol#SILENCE_LIMIT_MS} ms)
 * halts at once with status {@value #LOST_LAUNCHER}: no rank outlives its job.
 *
 * <p><b>Configuration.</b> {@code -D}{@value #ADDRESS_PROPERTY}{@code =host:port} and
 * {@code -D}{@value #TOKEN_PROPERTY}{@code =<token>}, which {@code bin/mpjrun} gives every rank JVM;
 * without them there is no watch. The protocol is {@link WatchProtocol}'s.
 *
 * <p>Only the JDK is used. Under MPJ Express's hybdev or multicore each rank thread has its own class
 * loader, so each rank has its own copy of this class and its own connection.
 */
public final class JobWatchClient
{
    /** System property with the launcher's watch, {@code host:port}. */
    public static final String ADDRESS_PROPERTY = "mpjrun.watch";
    /** System property with the job's token, which the watch asks of every connection. */
    public static final String TOKEN_PROPERTY = "mpjrun.watch.token";
    /** Exit status of a rank ended because another rank died. */
    static final int AFTER_ANOTHER_RANK = ShmRankMain.AFTER_ANOTHER_RANK;
    /** Exit status of a rank that lost the launcher. */
    static final int LOST_LAUNCHER = 1;
    /** How long a rank told of a death waits before it halts. */
    static final long GRACE_MS = 2000;
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    private static final long RANK_POLL_MS = 20;

    private static final List<IntConsumer> LISTENERS = new CopyOnWriteArrayList<>();
    /** No death told yet (-1 is taken: a rank that died before it knew its rank). */
    private static final int NONE = Integer.MIN_VALUE;
    private static volatile int deadRank = NONE;
    private static volatile JobWatchClient current;

    private final IntSupplier rankOnceKnown;
    private volatile String rank;
    private final String address;
    private final Socket socket;
    private final OutputStream out;
    private final ExitStatusProbe exitStatus = new ExitStatusProbe();
    /** Set once this rank has said how it ends: nothing it hears afterwards ends it. */
    private final AtomicBoolean leaving = new AtomicBoolean();
    private volatile long lastHeardNs = System.nanoTime();

    private JobWatchClient(final String rank, final IntSupplier rankOnceKnown, final String address,
        final Socket socket) throws IOException
    {
        this.rank = rank;
        this.rankOnceKnown = rankOnceKnown;
        this.address = address;
        this.socket = socket;
        this.out = socket.getOutputStream();
    }

    /** Whether this JVM's rank is connected to a job watch. */
    public static boolean isWatched()
    {
        return current != null;
    }

    /**
     * The first rank of the job that died, once the watch has said so; empty before, and without a watch.
     * -1 when that rank died before it could say which rank it was (a hybdev rank before {@code MPI.Init}).
     */
    public static OptionalInt deadRank()
    {
        final int rank = deadRank;
        return rank == NONE ? OptionalInt.empty() : OptionalInt.of(rank);
    }

    /**
     * Calls {@code listener} with the first dead rank when the watch tells of it, or at once if it has.
     * Never called without a watch.
     */
    public static void onPeerDeath(final IntConsumer listener)
    {
        final int known;
        synchronized (LISTENERS)
        {
            known = deadRank;
            if (known == NONE)
            {
                LISTENERS.add(listener);
                return;
            }
        }
        call(listener, known);
    }

    /**
     * Connects this rank to the watch that {@value #ADDRESS_PROPERTY} names, or does nothing without it. A
     * watch that cannot be reached ends this JVM with status {@value #LOST_LAUNCHER} and a message.
     *
     * @param rank          the rank, or {@value WatchProtocol#UNKNOWN_RANK} if it is not known yet.
     * @param rankOnceKnown asked every second while the rank is not known: the rank, or -1 still.
     */
    static JobWatchClient connect(final String rank, final IntSupplier rankOnceKnown)
    {
        final String address = System.getProperty(ADDRESS_PROPERTY);
        if (address == null || address.isBlank())
        {
            return null;
        }
        final int colon = address.lastIndexOf(':');
        final Socket socket = new Socket();
        try
        {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(address.substring(0, colon),
                Integer.parseInt(address.substring(colon + 1))), CONNECT_TIMEOUT_MS);
            final JobWatchClient client = new JobWatchClient(rank, rankOnceKnown, address, socket);
            client.send(WatchProtocol.HELLO + " " + System.getProperty(TOKEN_PROPERTY, "") + " " + rank + " " +
                ProcessHandle.current().pid() + " " + hostName());
            current = client;
            client.startThreads();
            return client;
        }
        catch (final IOException | RuntimeException e)
        {
            System.err.println("mpjrun: rank " + rank + " cannot reach the launcher's job watch at " + address +
                " (" + e + "): the launcher's host must be reachable from every node; on a real cluster set " +
                JobWatch.HOST_VARIABLE + " to an address of the launcher's host that the nodes reach");
            System.err.flush();
            Runtime.getRuntime().halt(LOST_LAUNCHER);
            return null;
        }
    }

    /** Tells the watch that this rank's {@code main} returned, and closes the connection. */
    void done()
    {
        leave(WatchProtocol.DONE);
    }

    /**
     * Tells the watch that this rank's {@code main} threw {@code failure}, closes the connection, and ends the JVM
     * {@value #GRACE_MS} ms later with status 1: MPJ Express prints the exception and goes on, and a JVM whose
     * niodev threads still run would outlive the job.
     */
    void failed(final Throwable failure)
    {
        leave(WatchProtocol.FAILED + " " + WatchProtocol.oneLine(String.valueOf(failure)));
        haltAfterGrace(LOST_LAUNCHER);
    }

    private void startThreads()
    {
        Thread.ofPlatform().daemon().name("mpjrun-watch-reader").start(this::read);
        Thread.ofPlatform().daemon().name("mpjrun-watch-beat").start(this::beat);
        // Runs on System.exit and on SIGTERM/SIGINT, never on SIGKILL, halt or a crash: the watch tells those by the
        // connection ending without a word.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> leave(WatchProtocol.EXIT + " " +
            (exitStatus.status().isPresent() ? Integer.toString(exitStatus.status().getAsInt())
                : WatchProtocol.UNKNOWN_STATUS)), "mpjrun-watch-exit"));
    }

    private void leave(final String lastLine)
    {
        if (!leaving.compareAndSet(false, true))
        {
            return;
        }
        try
        {
            send(lastLine);
            socket.shutdownOutput();
        }
        catch (final IOException e)
        {
            // The launcher is gone; it judges the job without this rank's last word.
        }
    }

    private synchronized void send(final String line) throws IOException
    {
        out.write((line + "\n").getBytes(WatchProtocol.CHARSET));
        out.flush();
    }

    private void read()
    {
        String why = "the launcher closed the connection";
        try (BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
            WatchProtocol.CHARSET)))
        {
            for (String line; (line = in.readLine()) != null; )
            {
                lastHeardNs = System.nanoTime();
                if (line.startsWith(WatchProtocol.DIED + " "))
                {
                    peerDied(line.substring(WatchProtocol.DIED.length() + 1));
                }
            }
        }
        catch (final IOException e)
        {
            why = "the connection failed: " + e.getMessage();
        }
        lostLauncher(why);
    }

    /**
     * Says {@code BEAT} every second, and checks that the launcher does too. While the rank is not known (hybdev
     * before MPI.Init) it looks every {@value #RANK_POLL_MS} ms, so that a rank that dies soon after MPI.Init
     * is named.
     */
    private void beat()
    {
        long lastBeatNs = System.nanoTime();
        while (!leaving.get())
        {
            final boolean unknown = rank.equals(WatchProtocol.UNKNOWN_RANK);
            try
            {
                TimeUnit.MILLISECONDS.sleep(unknown ? RANK_POLL_MS : WatchProtocol.CHECK_INTERVAL_MS);
                if (unknown && rankOnceKnown.getAsInt() >= 0)
                {
                    rank = Integer.toString(rankOnceKnown.getAsInt());
                    send(WatchProtocol.RANK + " " + rank);
                }
                if (System.nanoTime() - lastBeatNs >= TimeUnit.MILLISECONDS.toNanos(WatchProtocol.BEAT_INTERVAL_MS))
                {
                    lastBeatNs = System.nanoTime();
                    send(WatchProtocol.BEAT);
                }
            }
            catch (final InterruptedException | IOException e)
            {
                // A failed send: the reader sees the connection end.
            }
            final long silentMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastHeardNs);
            if (silentMs > WatchProtocol.SILENCE_LIMIT_MS)
            {
                lostLauncher("no heartbeat from it for " + silentMs + " ms");
            }
        }
    }

    /** {@code report} is {@code "<rank> <how>"}. */
    private void peerDied(final String report)
    {
        final int space = report.indexOf(' ');
        final int dead = Integer.parseInt(space < 0 ? report : report.substring(0, space));
        final String how = space < 0 ? "" : report.substring(space + 1);
        final List<IntConsumer> toCall;
        synchronized (LISTENERS)
        {
            if (deadRank != NONE)
            {
                return;
            }
            deadRank = dead;
            toCall = List.copyOf(LISTENERS);
            LISTENERS.clear();
        }
        if (leaving.get())
        {
            return;
        }
        System.err.println("mpjrun: rank " + rank + ": " + (dead >= 0 ? "rank " + dead : "a rank that had not " +
            "reached MPI.Init") + " died (" + how + "); ending this rank");
        System.err.flush();
        // The halt is scheduled before the listeners run, so that a listener that blocks cannot keep the rank alive.
        haltAfterGrace(AFTER_ANOTHER_RANK);
        toCall.forEach(listener -> call(listener, dead));
    }

    private static void haltAfterGrace(final int status)
    {
        Thread.ofPlatform().daemon().name("mpjrun-watch-halt").start(() ->
        {
            try
            {
                TimeUnit.MILLISECONDS.sleep(GRACE_MS);
            }
            catch (final InterruptedException e)
            {
                // Halt now, then.
            }
            System.err.flush();
            System.out.flush();
            Runtime.getRuntime().halt(status);
        });
    }

    private void lostLauncher(final String why)
    {
        // A rank that has said how it ends, or that was told of a death and ends after its grace, stays.
        if (leaving.get() || deadRank != NONE)
        {
            return;
        }
        System.err.println("mpjrun: rank " + rank + ": lost the launcher's job watch at " + address + " (" + why +
            "); ending this rank");
        System.err.flush();
        Runtime.getRuntime().halt(LOST_LAUNCHER);
    }

    private static String hostName()
    {
        try
        {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException e)
        {
            return "an unnamed host";
        }
    }

    private static void call(final IntConsumer listener, final int dead)
    {
        try
        {
            listener.accept(dead);
        }
        catch (final RuntimeException e)
        {
            System.err.println("mpjrun: a listener of the job watch failed on rank " + dead + "'s death: " + e);
        }
    }
}
