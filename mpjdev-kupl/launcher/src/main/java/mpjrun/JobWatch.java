package mpjrun;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The launcher's end of the job watch: a TCP server every rank of a job run by MPJ Express's
 * starter connects to ({@link JobWatchClient}, from {@link StarterRankMain}), so that a rank that
 * dies ends the whole job within seconds on every node, though MPJ Express's devices would leave
 * the others waiting for ever.
 *
 * <p>A rank is dead when its connection ends without {@code DONE} or {@code EXIT 0} (killed with
 * {@code kill -9}, {@code Runtime.halt}, a crash, its node's processes all killed), when it says
 * {@code EXIT} with another status or {@code FAILED}, or when it is silent for
 * {@link WatchProtocol#SILENCE_LIMIT_MS} ms (a host that vanished without closing its sockets). The
 * first death is told to every other rank ({@code DIED}), which ends itself, and completes
 * {@link #failure()}; so does a job whose ranks have not all connected within the start-up
 * timeout. The protocol is {@link WatchProtocol}'s.
 */
final class JobWatch implements AutoCloseable
{
    /**
     * How long the death of a rank whose main threw waits for another rank's death without a word (a kill, a
     * halt, a lost node), which the first is then taken to follow from and which is named instead.
     */
    static final long FAILED_GRACE_MS = 500;
    /**
     * Environment variable naming the address (or host name) of the launcher's host that the ranks
     * reach, for a job on real machines whose host name resolves to an address they do not.
     */
    static final String HOST_VARIABLE = "MPJRUN_WATCH_HOST";
    /** Exit status of a job whose dead rank's own status is not known (killed, halted, silent). */
    static final int EXIT_RANK_DIED = 1;

    /**
     * Why a job failed in the watch's eyes.
     *
     * @param rank     the first rank that died or did not connect; -1 if it had not said which rank it is.
     * @param how      how it was noticed, as the survivors are told.
     * @param message  the launcher's line, without its {@code mpjrun: }.
     * @param exitCode the job's exit status.
     */
    record Failure(int rank, String how, String message, int exitCode)
    {
    }

    private final int ranks;
    private final Duration startupTimeout;
    private final ServerSocket server;
    private final String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    /** Every rank that said HELLO, by connection: a hybdev rank says which rank it is only after MPI.Init. */
    private final Set<Peer> peers = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Failure> failure = new CompletableFuture<>();
    private final long startNs = System.nanoTime();
    private volatile boolean closed;
    /**
     * Deaths of ranks whose main threw, still waiting out their grace before they are judged: the job is not quiet
     * while one is, or a starter that exits at once (hybdev, whose ranks all threw) would be judged a success.
     */
    private final AtomicInteger judging = new AtomicInteger();

    private JobWatch(final int ranks, final Duration startupTimeout, final ServerSocket server)
    {
        this.ranks = ranks;
        this.startupTimeout = startupTimeout;
        this.server = server;
    }

    /**
     * Starts a watch for {@code ranks} ranks, listening on {@code address} (port chosen by the system).
     *
     * @param startupTimeout how long the ranks have to connect, from now.
     */
    static JobWatch start(final InetAddress address, final int ranks, final Duration startupTimeout)
        throws IOException
    {
        final ServerSocket server = new ServerSocket();
        try
        {
            server.bind(new InetSocketAddress(address, 0), ranks + 8);
        }
        catch (final IOException e)
        {
            server.close();
            throw new IOException("cannot listen for the job's ranks on " + address.getHostAddress() + " (" +
                e.getMessage() + "): set " + HOST_VARIABLE + " to an address of this host that the nodes reach", e);
        }
        final JobWatch watch = new JobWatch(ranks, startupTimeout, server);
        Thread.ofPlatform().daemon().name("mpjrun-watch-accept").start(watch::accept);
        Thread.ofPlatform().daemon().name("mpjrun-watch-beat").start(watch::tick);
        return watch;
    }

    /**
     * The address to listen on for a job on {@code machines} (the starter's machines file's host names;
     * empty when the job runs on this host): loopback when every machine is this host's loopback, else
     * {@value #HOST_VARIABLE} if set, else this host's address ({@link InetAddress#getLocalHost()}).
     */
    static InetAddress addressFor(final List<String> machines) throws IOException
    {
        final String override = System.getenv(HOST_VARIABLE);
        if (override != null && !override.isBlank())
        {
            return InetAddress.getByName(override.strip());
        }
        for (final String machine : machines)
        {
            if (!isLoopback(machine))
            {
                return InetAddress.getLocalHost();
            }
        }
        return InetAddress.getLoopbackAddress();
    }

    /** Whether {@code machine} names this host's loopback; a name this host cannot resolve is another host. */
    private static boolean isLoopback(final String machine)
    {
        try
        {
            return InetAddress.getByName(machine).isLoopbackAddress();
        }
        catch (final IOException e)
        {
            return false;
        }
    }

    /** The JVM options that point a rank at this watch. */
    List<String> rankOptions()
    {
        return List.of("-D" + JobWatchClient.ADDRESS_PROPERTY + "=" + address(),
            "-D" + JobWatchClient.TOKEN_PROPERTY + "=" + token);
    }

    /** {@code host:port} of the watch. */
    String address()
    {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    /** Completed with the first failure: a dead rank, or ranks that did not connect in time. */
    CompletableFuture<Failure> failure()
    {
        return failure;
    }

    /**
     * Waits until every connected rank's connection has ended and every death it told of is judged, at most
     * {@code within}: the last word of a rank arrives a moment after the starter sees it end, and ranks told of a
     * death need their grace.
     */
    void awaitQuiet(final Duration within) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + within.toNanos();
        while ((peers.stream().anyMatch(peer -> !peer.ended) || judging.get() > 0) &&
            System.nanoTime() - deadlineNs < 0)
        {
            Thread.sleep(20);
        }
    }

    /** Stops listening and closes every connection; a rank still running then ends itself. */
    @Override
    public void close()
    {
        closed = true;
        try
        {
            server.close();
        }
        catch (final IOException e)
        {
            // Closing anyway.
        }
        peers.forEach(Peer::close);
    }

    private void accept()
    {
        while (!closed)
        {
            try
            {
                final Socket socket = server.accept();
                Thread.ofVirtual().name("mpjrun-watch-rank").start(() -> serve(socket));
            }
            catch (final IOException e)
            {
                return;
            }
        }
    }

    private void serve(final Socket socket)
    {
        final Peer peer;
        try
        {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(WatchProtocol.HELLO_TIMEOUT_MS);
            final BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                WatchProtocol.CHARSET));
            final String[] hello = String.valueOf(in.readLine()).split(" ", 5);
            if (hello.length != 5 || !hello[0].equals(WatchProtocol.HELLO) || !hello[1].equals(token) ||
                !(hello[2].equals(WatchProtocol.UNKNOWN_RANK) || isNumber(hello[2])) || !isNumber(hello[3]))
            {
                // Not a rank of this job (a port scan, another job's rank): dropped without a word.
                socket.close();
                return;
            }
            socket.setSoTimeout(0);
            peer = new Peer(socket, socket.getOutputStream(), hello[3], hello[4]);
            if (!peer.identify(hello[2], peers))
            {
                socket.close();
                return;
            }
            peers.add(peer);
            final Failure failed = failure.getNow(null);
            if (failed != null)
            {
                // A rank that connects after the job failed is told at once.
                peer.sendQuietly(WatchProtocol.DIED + " " + failed.rank() + " " + failed.how());
            }
            readUntilEnd(peer, in);
        }
        catch (final IOException e)
        {
            closeQuietly(socket);
        }
    }

    private void readUntilEnd(final Peer peer, final BufferedReader in)
    {
        String last = null;
        try
        {
            for (String line; (line = in.readLine()) != null; )
            {
                peer.lastHeardNs = System.nanoTime();
                if (line.startsWith(WatchProtocol.RANK + " "))
                {
                    peer.identify(line.substring(WatchProtocol.RANK.length() + 1), peers);
                }
                else if (!line.equals(WatchProtocol.BEAT))
                {
                    last = line;
                }
            }
        }
        catch (final IOException e)
        {
            // Reset by the peer's kernel, or closed here after missed heartbeats: judged below as an end.
        }
        peer.ended = true;
        peer.close();
        if (peer.silent)
        {
            return;
        }
        final String lastWord = last;
        final Optional<String> death = deathIn(lastWord);
        if (death.isEmpty())
        {
            return;
        }
        if (lastWord != null && lastWord.startsWith(WatchProtocol.FAILED + " "))
        {
            // A main that threw often threw because another rank died (a lock or a wait on it failed): that
            // rank's connection may end a moment later here, read by another thread; it is the one to name.
            judging.incrementAndGet();
            Thread.ofPlatform().daemon().name("mpjrun-watch-failed").start(() ->
            {
                try
                {
                    TimeUnit.MILLISECONDS.sleep(FAILED_GRACE_MS);
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                }
                try
                {
                    died(peer, death.get(), exitCodeOf(lastWord));
                }
                finally
                {
                    judging.decrementAndGet();
                }
            });
            return;
        }
        died(peer, death.get(), exitCodeOf(lastWord));
    }

    /** How a connection whose last line was {@code last} tells of a death, or empty for a good end. */
    static Optional<String> deathIn(final String last)
    {
        if (last == null)
        {
            return Optional.of("its connection to the launcher ended without a word: its JVM was killed (kill -9?), " +
                "halted or crashed, or its node went down");
        }
        if (last.equals(WatchProtocol.DONE) || last.equals(WatchProtocol.EXIT + " 0"))
        {
            return Optional.empty();
        }
        if (last.equals(WatchProtocol.EXIT + " " + WatchProtocol.UNKNOWN_STATUS))
        {
            return Optional.of("its JVM shut down before main returned, with no System.exit status: a signal " +
                "(SIGTERM, SIGINT)?");
        }
        if (last.startsWith(WatchProtocol.EXIT + " "))
        {
            return Optional.of("it called System.exit(" + last.substring(WatchProtocol.EXIT.length() + 1) + ")");
        }
        if (last.startsWith(WatchProtocol.FAILED + " "))
        {
            return Optional.of("its main threw " + last.substring(WatchProtocol.FAILED.length() + 1));
        }
        return Optional.of("it said '" + last + "' before its connection ended");
    }

    /** The job's exit status for a death whose last line was {@code last}: a System.exit status, else 1. */
    private static int exitCodeOf(final String last)
    {
        if (last != null && last.startsWith(WatchProtocol.EXIT + " "))
        {
            try
            {
                final int status = Integer.parseInt(last.substring(WatchProtocol.EXIT.length() + 1).strip());
                return status != 0 ? status : EXIT_RANK_DIED;
            }
            catch (final NumberFormatException unknown)
            {
                // "EXIT ?": a signal, whose number the JVM does not tell.
            }
        }
        return EXIT_RANK_DIED;
    }

    /** Heartbeats out once a second; silences and the start-up deadline checked more often. */
    private void tick()
    {
        long lastBeatNs = System.nanoTime();
        while (!closed)
        {
            try
            {
                TimeUnit.MILLISECONDS.sleep(WatchProtocol.CHECK_INTERVAL_MS);
            }
            catch (final InterruptedException e)
            {
                return;
            }
            final long nowNs = System.nanoTime();
            final boolean beat = nowNs - lastBeatNs >= TimeUnit.MILLISECONDS.toNanos(WatchProtocol.BEAT_INTERVAL_MS);
            if (beat)
            {
                lastBeatNs = nowNs;
            }
            for (final Peer peer : peers)
            {
                if (peer.ended)
                {
                    continue;
                }
                final long silentMs = TimeUnit.NANOSECONDS.toMillis(nowNs - peer.lastHeardNs);
                if (silentMs > WatchProtocol.SILENCE_LIMIT_MS)
                {
                    peer.silent = true;
                    peer.close();
                    died(peer, "no heartbeat for " + silentMs + " ms: its host vanished, or its JVM is stopped " +
                        "or hangs", EXIT_RANK_DIED);
                    continue;
                }
                if (beat)
                {
                    peer.sendQuietly(WatchProtocol.BEAT);
                }
            }
            if (peers.size() < ranks && nowNs - startNs > startupTimeout.toNanos())
            {
                failure.complete(notConnected());
            }
        }
    }

    /** The start-up failure: ranks that did not connect in time, named where the others said who they are. */
    private Failure notConnected()
    {
        final Set<Integer> known = peers.stream().map(peer -> peer.rank).collect(Collectors.toSet());
        final List<Integer> missing = IntStream.range(0, ranks).filter(rank -> !known.contains(rank)).boxed().toList();
        final String who = known.contains(-1) ? "only " + peers.size() + " of " + ranks + " ranks" :
            (missing.size() == 1 ? "rank " : "ranks ") +
            missing.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " of " + ranks;
        final String how = who + (known.contains(-1) ? " connected" : " did not connect") +
            " to the launcher's job watch at " + address() + " within " + startupTimeout.toMillis() + " ms";
        return new Failure(known.contains(-1) ? -1 : missing.get(0), how, "the job could not start: " + how +
            ": their JVMs did not start (see the output above), or cannot reach this address (on real machines set " +
            HOST_VARIABLE + " to one they reach)", EXIT_RANK_DIED);
    }

    /** Records the death of {@code dead}; the first one is told to every other rank and fails the job. */
    private void died(final Peer dead, final String how, final int exitCode)
    {
        final String message = WatchProtocol.oneLine(how + "; " + dead.describe());
        final String name = dead.rank >= 0 ? "rank " + dead.rank : "a rank that had not reached MPI.Init";
        if (!failure.complete(new Failure(dead.rank, message, name + " died (" + message + "); ended the job",
            exitCode)))
        {
            return;
        }
        for (final Peer peer : peers)
        {
            if (peer != dead && !peer.ended)
            {
                peer.sendQuietly(WatchProtocol.DIED + " " + dead.rank + " " + message);
            }
        }
    }

    private static boolean isNumber(final String text)
    {
        return !text.isEmpty() && text.length() < 10 && text.chars().allMatch(Character::isDigit);
    }

    private static void closeQuietly(final Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException e)
        {
            // Gone already.
        }
    }

    /** One rank's connection. */
    private static final class Peer
    {
        final Socket socket;
        final OutputStream out;
        final String pid;
        final String host;
        /** The rank in COMM_WORLD, or -1 until the rank says it. */
        volatile int rank = -1;
        volatile long lastHeardNs = System.nanoTime();
        volatile boolean ended;
        /** Closed here after missed heartbeats: that death is already recorded. */
        volatile boolean silent;

        Peer(final Socket socket, final OutputStream out, final String pid, final String host)
        {
            this.socket = socket;
            this.out = out;
            this.pid = pid;
            this.host = WatchProtocol.oneLine(host);
        }

        /**
         * Takes {@code said} (a rank, or {@value WatchProtocol#UNKNOWN_RANK}) for this connection's rank; false
         * if another connection of {@code peers} has it already.
         */
        synchronized boolean identify(final String said, final Set<Peer> peers)
        {
            if (!isNumber(said))
            {
                return said.equals(WatchProtocol.UNKNOWN_RANK);
            }
            final int claimed = Integer.parseInt(said);
            synchronized (peers)
            {
                if (peers.stream().anyMatch(other -> other != this && other.rank == claimed))
                {
                    return false;
                }
                rank = claimed;
            }
            return true;
        }

        /** Where the rank ran, for the messages. */
        String describe()
        {
            return "pid " + pid + " on " + host;
        }

        synchronized void send(final String line) throws IOException
        {
            out.write((line + "\n").getBytes(WatchProtocol.CHARSET));
            out.flush();
        }

        void sendQuietly(final String line)
        {
            try
            {
                send(line);
            }
            catch (final IOException e)
            {
                // The reader sees the connection end and judges it.
            }
        }

        void close()
        {
            closeQuietly(socket);
        }
    }
}
