package mpjrun;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import mpjrun.process.ProcessJob;

/**
 * An MPJ Express daemon of our own for one cluster-mode ({@code niodev}) job on this node, so that
 * jobs in parallel JVMs never share or collide on one. MPJ Express's {@code mpjboot} would need
 * ssh; the daemon is started directly instead, with
 * <ul>
 * <li>a private MPJ_HOME copy whose {@code conf/mpjexpress.conf} names free ports for the
 *     daemon, its port manager and the starter's port handshake (the starter and the daemon
 *     read them there);</li>
 * <li>a private {@code user.home}: the daemon deletes {@code ~/.mpj_users} after every job;</li>
 * <li>a machines file holding {@code localhost} (or the hosts given, all names of this node).</li>
 * </ul>
 * {@link #close()} kills the daemon and every rank JVM it started, and deletes the directory.
 */
final class NiodevDaemon implements AutoCloseable
{
    static final String DAEMON_PORT_KEY = "mpjexpress.mpjdaemon.port.1";
    static final String PORT_MANAGER_PORT_KEY = "mpjexpress.mpjdaemon.port.2";
    static final String STARTER_PORT_KEY = "mpjexpress.mpjrun.port.1";

    /** How long the daemon may take to listen (a JVM start on a loaded 2-core machine). */
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(20);
    /** Free ports are found by binding and releasing them, so another process may take one first: retry. */
    private static final int ATTEMPTS = 3;
    private static final int LISTEN_STATE = 0x0A;

    private final Path directory;
    private final Path home;
    private final Path machinesFile;
    /** The daemon, started by the process kit, whose shutdown hook ends it with this JVM. */
    private final ProcessJob daemon;

    private NiodevDaemon(final Path directory, final Path home, final Path machinesFile, final ProcessJob daemon)
    {
        this.directory = directory;
        this.home = home;
        this.machinesFile = machinesFile;
        this.daemon = daemon;
    }

    /**
     * Starts a daemon and returns once it listens.
     *
     * @param sharedHome a complete MPJ_HOME ({@link MpjHome#prepare}) to copy.
     * @param java       the {@code java} launcher; its directory goes first on the daemon's PATH,
     *                   since the daemon starts the ranks as plain {@code java}.
     * @throws IOException if the daemon does not listen within {@link #LISTEN_TIMEOUT}, with its output.
     */
    static NiodevDaemon start(final Path sharedHome, final Path java) throws IOException, InterruptedException
    {
        return start(sharedHome, java, Map.of());
    }

    /** As {@link #start(Path, Path)}, with {@code jobEnvironment} added to the daemon's (and so its ranks') environment. */
    static NiodevDaemon start(final Path sharedHome, final Path java, final Map<String, String> jobEnvironment)
        throws IOException, InterruptedException
    {
        return start(sharedHome, java, jobEnvironment, List.of("localhost"));
    }

    /**
     * As {@link #start(Path, Path, Map)}, with a machines file listing {@code hosts}, each a name of this node (the
     * daemon listens on every address): {@code 127.0.0.1} and {@code 127.0.0.2} make MPJ Express's hybdev start
     * two JVMs here, since it places one JVM per host name.
     */
    static NiodevDaemon start(final Path sharedHome, final Path java, final Map<String, String> jobEnvironment,
        final List<String> hosts) throws IOException, InterruptedException
    {
        if (hosts.isEmpty())
        {
            throw new IllegalArgumentException("hosts is empty: the machines file needs a host");
        }
        String failures = "";
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++)
        {
            final Path directory = Files.createTempDirectory("kupl-niodev-");
            ProcessJob daemon = null;
            try
            {
                final int[] ports = freePorts(3);
                final Path home = MpjHome.copyWithSettings(sharedHome, directory.resolve("mpj-home"), Map.of(
                    DAEMON_PORT_KEY, Integer.toString(ports[0]),
                    PORT_MANAGER_PORT_KEY, Integer.toString(ports[1]),
                    STARTER_PORT_KEY, Integer.toString(ports[2])));
                final Path userHome = Files.createDirectory(directory.resolve("home"));
                final Path machines = Files.writeString(directory.resolve("machines"),
                    String.join("\n", hosts) + "\n");
                daemon = MpjJobs.startCaptured(List.of(java.toString(), "-Duser.home=" + userHome,
                    "-cp", home.resolve("lib/daemon.jar").toString(), "runtime.daemon.MPJDaemon",
                    Integer.toString(ports[0])), LaunchEnvironment.environment(home, java, jobEnvironment), directory);
                if (awaitListening(daemon, ports[0]))
                {
                    return new NiodevDaemon(directory, home, machines, daemon);
                }
                final String why = daemon.process(0).isAlive()
                    ? "did not listen on port " + ports[0] + " within " + LISTEN_TIMEOUT.toMillis() + " ms" : "exited";
                failures += "attempt " + attempt + ": the daemon " + why + "; its output:\n" + daemon.output(0);
            }
            catch (final IOException | RuntimeException e)
            {
                failures += "attempt " + attempt + ": " + e + "\n";
            }
            if (daemon != null)
            {
                daemon.close();
            }
            MpjHome.deleteTree(directory);
        }
        throw new IOException("could not start an MPJ Express daemon for a niodev job:\n" + failures);
    }

    /** The job's MPJ_HOME: give it to the starter as {@code MPJ_HOME}. */
    Path home()
    {
        return home;
    }

    /** The machines file for the starter's {@code -machinesfile}. */
    Path machinesFile()
    {
        return machinesFile;
    }

    /** What the daemon printed so far. */
    String output()
    {
        return daemon.output(0);
    }

    /** Kills the daemon and every rank it started, then deletes the job's directory. */
    @Override
    public void close()
    {
        daemon.close();
        try
        {
            MpjHome.deleteTree(directory);
        }
        catch (final UncheckedIOException e)
        {
            // A leftover temporary directory is no reason to fail the job.
        }
    }

    private static int[] freePorts(final int count) throws IOException
    {
        final List<ServerSocket> sockets = new ArrayList<>();
        try
        {
            final int[] ports = new int[count];
            for (int i = 0; i < count; i++)
            {
                // Held together, so that the ports differ; released just before the daemon binds them.
                final ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        }
        finally
        {
            for (final ServerSocket socket : sockets)
            {
                socket.close();
            }
        }
    }

    /**
     * Waits until some socket listens on {@code port}, read from {@code /proc/net/tcp*}: connecting
     * to find out would hand the daemon a connection without a job ticket, which it reports as an error.
     */
    private static boolean awaitListening(final ProcessJob daemon, final int port) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + LISTEN_TIMEOUT.toNanos();
        while (daemon.process(0).isAlive() && System.nanoTime() - deadlineNs < 0)
        {
            if (listening(port, Path.of("/proc/net/tcp6")) || listening(port, Path.of("/proc/net/tcp")))
            {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    static boolean listening(final int port, final Path table)
    {
        final String localPortSuffix = String.format(Locale.ROOT, ":%04X", port);
        try
        {
            for (final String line : Files.readAllLines(table))
            {
                // "sl local_address rem_address st ...", addresses as HEX_IP:HEX_PORT, st 0A = LISTEN.
                final String[] fields = line.trim().split("\\s+");
                if (fields.length > 3 && fields[1].endsWith(localPortSuffix) &&
                    fields[3].equalsIgnoreCase(String.format(Locale.ROOT, "%02X", LISTEN_STATE)))
                {
                    return true;
                }
            }
        }
        catch (final IOException e)
        {
            // No such table (no IPv6): the other one answers.
        }
        return false;
    }
}
