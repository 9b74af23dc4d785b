package mpjrun;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import kupl.KuplEnv;
import mpjrun.process.ProcessJob;

/**
 * A cluster of N nodes on this machine, for tests and benchmarks of jobs that span nodes: each
 * node a network namespace with its own host name, address and MPJ Express daemon, and MPJ
 * Express's {@code niodev} between them (or {@code hybdev}: threads within each node, niodev between).
 *
 * <pre>{@code
 * try (SimulatedCluster cluster = SimulatedCluster.start(2))
 * {
 *     JobResult result = cluster.run(spec, Duration.ofSeconds(60));   // ranks 0,1 on node 1; 2,3 on node 2
 * }                                                                    // nothing left: namespaces, links, daemons
 * }</pre>
 *
 * <p><b>What it sets up.</b> A bridge; per node {@code i} a network namespace joined to it by a
 * veth pair, the address {@code 10.77.X.i/24} (X picked so that no live cluster uses it), a line
 * {@code 10.77.X.i name} in {@code /etc/hosts} (one file for every namespace, see
 * {@link HostsFile}), and an MPJ Express daemon started inside the namespace and a UTS namespace
 * of its own whose host name is the node's, with a private {@code user.home} (the daemon deletes
 * {@code ~/.mpj_users} after each job). A machines file lists the nodes in order, and a job's
 * starter runs inside node 1, so MPJ Express places ranks in blocks: {@code -np 4} on two nodes
 * puts 0 and 1 on node 1, 2 and 3 on node 2. Names carry the owner's pid ({@link ClusterNames}).
 *
 * <p><b>What it does not separate.</b> The nodes share one kernel: {@code /dev/shm}, {@code /proc},
 * pids, the boot id, the file system. {@code mpi.rma} tells nodes apart by boot id and host name,
 * so processes of different nodes are on different nodes to it (a shared window across them is
 * {@code ERR_RMA_SHARED}), though shared memory between them would work here.
 *
 * <p><b>Nothing left behind.</b> {@link #close()} (and a shutdown hook, for Ctrl-C or a failing
 * test) kills the daemons with every rank they started, deletes the links and namespaces, takes
 * the cluster's lines out of {@code /etc/hosts} and deletes its directory. A JVM killed with
 * SIGKILL cannot do that: the next cluster made on the machine removes what belongs to owners
 * that are gone before it makes its own.
 *
 * <p><b>Where it is refused.</b> It needs root and network namespaces ({@link #unavailableReason()});
 * elsewhere {@link #start} throws {@link ClusterUnavailableException} saying why.
 */
public final class SimulatedCluster implements AutoCloseable
{
    /** At most this many nodes (one /24 subnet, two-digit names). */
    public static final int MAX_NODES = 32;
    /** The daemon's port in every node (each node has a network stack of its own, so no collision). */
    static final int DAEMON_PORT = 40055;
    private static final int PORT_MANAGER_PORT = 40052;
    private static final int STARTER_PORT = 40002;
    private static final String SUBNET_PREFIX = "10.77.";
    /** The host part of the launcher's address on the bridge, above every node's. */
    private static final int LAUNCHER_HOST = 254;
    private static final int SUBNETS = 254;
    /** The prefix of a cluster's directory under {@code java.io.tmpdir}, its id after it. */
    static final String DIRECTORY_PREFIX = "kupl-cluster-";
    /** How long a daemon may take to listen (a JVM start on a loaded 2-core machine). */
    private static final Duration LISTEN_TIMEOUT = Duration.ofSeconds(30);
    /** Numbers this JVM's clusters (and availability probes), so that their names differ. */
    static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final ClusterNames names;
    private final int nodeCount;
    private final Path java;
    private final Map<String, String> jobEnvironment;
    private final Path directory;
    private final List<String> namespaces = new ArrayList<>();
    private final List<String> veths = new ArrayList<>();
    private final List<ProcessJob> daemons = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook = new Thread(this::tearDownOnce, "kupl-cluster-teardown");
    private boolean bridgeMade;
    private boolean hostsAdded;
    private int subnet;
    private Path home;
    private Path machinesFile;

    private SimulatedCluster(final int nodeCount, final Path java, final Map<String, String> jobEnvironment)
    {
        this.names = new ClusterNames(ProcessHandle.current().pid(), SEQUENCE.incrementAndGet());
        this.nodeCount = nodeCount;
        this.java = java;
        this.jobEnvironment = Map.copyOf(withoutBinding(jobEnvironment));
        this.directory = Path.of(System.getProperty("java.io.tmpdir"), DIRECTORY_PREFIX + names.id());
    }

    /** Starts a cluster of {@code nodes} nodes with MPJ_HOME from {@link MpjHome#defaultDirectory()}. */
    public static SimulatedCluster start(final int nodes) throws IOException, InterruptedException
    {
        return start(nodes, MpjHome.prepare(MpjHome.defaultDirectory()), Map.of());
    }

    /**
     * Starts a cluster of {@code nodes} nodes and returns once every daemon listens.
     *
     * @param sharedHome     a complete MPJ_HOME ({@link MpjHome#prepare}) to copy.
     * @param jobEnvironment added to the environment of the daemons, the starter and so every rank.
     * @throws IllegalArgumentException    if {@code nodes} is not within 1..{@value #MAX_NODES}.
     * @throws ClusterUnavailableException if namespaces cannot be made here, saying why.
     * @throws IOException                 if a step fails (with the command and its output); whatever was made
     *                                     is removed again.
     */
    public static SimulatedCluster start(final int nodes, final Path sharedHome,
        final Map<String, String> jobEnvironment) throws IOException, InterruptedException
    {
        if (nodes < 1 || nodes > MAX_NODES)
        {
            throw new IllegalArgumentException("nodes=" + nodes + " must be within 1.." + MAX_NODES);
        }
        Objects.requireNonNull(sharedHome, "sharedHome");
        Objects.requireNonNull(jobEnvironment, "jobEnvironment");
        final String refusal = unavailableReason();
        if (refusal != null)
        {
            throw new ClusterUnavailableException(refusal);
        }
        final SimulatedCluster cluster = new SimulatedCluster(nodes, LaunchEnvironment.java(), jobEnvironment);
        Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        try
        {
            cluster.setUp(sharedHome);
            return cluster;
        }
        catch (final IOException | InterruptedException | RuntimeException e)
        {
            cluster.close();
            throw e;
        }
    }

    /**
     * Why no cluster can be made here (not root, no {@code ip} or {@code unshare}, {@code ip netns add}
     * refused, {@code /etc/hosts} not writable), or null if one can ({@link ClusterAvailability}).
     */
    public static String unavailableReason()
    {
        return ClusterAvailability.refusal();
    }

    /** The nodes' host names, node 1 first: what each rank's {@code InetAddress.getLocalHost()} names. */
    public List<String> hostNames()
    {
        final List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= nodeCount; i++)
        {
            hosts.add(names.node(i));
        }
        return hosts;
    }

    /** The address of node {@code index} (from 1). */
    public String address(final int index)
    {
        return SUBNET_PREFIX + subnet + "." + index;
    }

    /**
     * The address of the machine outside the nodes (the root network namespace, where {@code bin/mpjrun} runs),
     * {@code 10.77.X.}{@value #LAUNCHER_HOST}, on the cluster's bridge: every node reaches it.
     */
    public InetAddress launcherAddress()
    {
        try
        {
            return InetAddress.getByName(SUBNET_PREFIX + subnet + "." + LAUNCHER_HOST);
        }
        catch (final UnknownHostException e)
        {
            throw new IllegalStateException("not an address: " + SUBNET_PREFIX + subnet + "." + LAUNCHER_HOST, e);
        }
    }

    /** The cluster's MPJ_HOME (its own copy; the starter needs it as {@code MPJ_HOME}). */
    public Path home()
    {
        return home;
    }

    /** The machines file: the nodes' names, one a line, for the starter's {@code -machinesfile}. */
    public Path machinesFile()
    {
        return machinesFile;
    }

    /** The prefix of every name of this cluster (namespaces, links, host names). */
    public String id()
    {
        return names.id();
    }

    /**
     * {@code command} as a process of node {@code index} (from 1): in its network namespace, and in
     * a UTS namespace whose host name is the node's.
     */
    public List<String> inNode(final int index, final List<String> command)
    {
        if (index < 1 || index > nodeCount)
        {
            throw new IllegalArgumentException("index=" + index + " must be within 1.." + nodeCount);
        }
        final List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", names.node(index),
            "unshare", "--uts", "sh", "-c", "hostname \"$0\" && exec \"$@\"", names.node(index)));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * {@code environment} with {@code KUPL_SHM_BIND=none} unless it or this JVM's environment sets the variable:
     * the nodes share this machine's CPUs, and binding each node's ranks from its first CPU on would put the
     * first rank of every node on the same one.
     */
    private static Map<String, String> withoutBinding(final Map<String, String> environment)
    {
        final String variable = KuplEnv.KUPL_SHM_BIND.name();
        if (environment.containsKey(variable) || System.getenv(variable) != null)
        {
            return environment;
        }
        final Map<String, String> unbound = new HashMap<>(environment);
        unbound.put(variable, "none");
        return unbound;
    }

    /** The environment of a starter run in this cluster: {@code MPJ_HOME}, the JDK first on {@code PATH}. */
    public Map<String, String> starterEnvironment()
    {
        return LaunchEnvironment.environment(home, java, jobEnvironment);
    }

    /** The starter's options that send a niodev job to this cluster's nodes: {@code -dev niodev -machinesfile FILE}. */
    public List<String> starterOptions()
    {
        return starterOptions(ClusterDevice.NIODEV);
    }

    /** The starter's options that send a job on {@code device} to this cluster's nodes: {@code -dev D -machinesfile FILE}. */
    public List<String> starterOptions(final ClusterDevice device)
    {
        return List.of(StarterOption.DEV.text(), device.starterDevice(), StarterOption.MACHINESFILE.text(),
            machinesFile.toString());
    }

    /**
     * Runs {@code spec} on the cluster with MPJ Express's starter inside node 1, and waits for it to
     * end, at most {@code timeout}; judged as {@link MpjJobs#runCommand} judges. On failure the
     * daemons' output is added to the result's.
     */
    public JobResult run(final JobSpec spec, final Duration timeout) throws IOException, InterruptedException
    {
        return run(spec, timeout, ClusterDevice.NIODEV);
    }

    /**
     * As {@link #run(JobSpec, Duration)} on {@code device}: with {@link ClusterDevice#HYBDEV} each node runs one JVM
     * whose ranks are threads, niodev between the nodes; with {@link ClusterDevice#SHM} shared memory within each
     * node.
     */
    public JobResult run(final JobSpec spec, final Duration timeout, final ClusterDevice device)
        throws IOException, InterruptedException
    {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(device, "device");
        if (closed.get())
        {
            throw new IllegalStateException("cluster " + names.id() + " is closed");
        }
        final List<String> command = MpjJobs.starterCommand(java, home, device.forStarter(spec),
            MpjHome.withoutMpjExpress(spec.classPath()), starterOptions(device));
        final JobResult result = MpjJobs.runCommand(inNode(1, command), starterEnvironment(),
            Path.of(System.getProperty("user.dir")), timeout);
        if (result.succeeded())
        {
            return result;
        }
        return new JobResult(result.exitCode(), result.launcherExitCode(), result.timedOut(), result.failureLines(),
            result.output() + daemonOutput(), result.elapsed());
    }

    /** What the daemons printed so far, each line marked with its node: explains a failed job. */
    public String daemonOutput()
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < daemons.size(); i++)
        {
            final String node = names.node(i + 1);
            daemons.get(i).output(0).lines().forEach(line ->
                text.append("[cluster] daemon on ").append(node).append(": ").append(line).append('\n'));
        }
        return text.toString();
    }

    /** Kills the daemons and their ranks and removes every resource of the cluster. Does nothing a second time. */
    @Override
    public void close()
    {
        tearDownOnce();
        try
        {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (final IllegalStateException shuttingDown)
        {
            // The hook runs anyway and finds the cluster closed.
        }
    }

    private void setUp(final Path sharedHome) throws IOException, InterruptedException
    {
        MpjHome.deleteTree(directory);
        Files.createDirectories(directory);
        final List<String> hosts = hostNames();
        HostsFile.locked(() ->
        {
            ClusterLeftovers.removeStale();
            subnet = freeSubnet();
            final List<String> addresses = new ArrayList<>();
            for (int i = 1; i <= nodeCount; i++)
            {
                addresses.add(address(i));
            }
            new HostsFile(HostsFile.ETC_HOSTS).add(addresses, hosts, names.ownerPid());
            hostsAdded = true;
            return null;
        });
        HostCommand.run("ip", "link", "add", names.bridge(), "type", "bridge");
        bridgeMade = true;
        HostCommand.run("ip", "link", "set", names.bridge(), "up");
        // The launcher runs in this (the root) namespace: an address on the bridge lets the nodes reach its job
        // watch, as the launcher's host is reachable on a real cluster. It goes with the bridge at teardown.
        HostCommand.run("ip", "addr", "add", launcherAddress().getHostAddress() + "/24", "dev", names.bridge());
        for (int i = 1; i <= nodeCount; i++)
        {
            makeNode(i);
        }
        home = MpjHome.copyWithSettings(sharedHome, directory.resolve("mpj-home"), Map.of(
            NiodevDaemon.DAEMON_PORT_KEY, Integer.toString(DAEMON_PORT),
            NiodevDaemon.PORT_MANAGER_PORT_KEY, Integer.toString(PORT_MANAGER_PORT),
            NiodevDaemon.STARTER_PORT_KEY, Integer.toString(STARTER_PORT)));
        machinesFile = Files.write(directory.resolve("machines"), hosts);
        for (int i = 1; i <= nodeCount; i++)
        {
            final Path userHome = Files.createDirectory(directory.resolve("home-" + i));
            daemons.add(MpjJobs.startCaptured(inNode(i, List.of(java.toString(), "-Duser.home=" + userHome,
                "-cp", home.resolve("lib/daemon.jar").toString(), "runtime.daemon.MPJDaemon",
                Integer.toString(DAEMON_PORT))), starterEnvironment(), directory));
        }
        for (int i = 0; i < nodeCount; i++)
        {
            awaitListening(i);
        }
    }

    private void makeNode(final int index) throws IOException
    {
        final String node = names.node(index);
        HostCommand.run("ip", "netns", "add", node);
        namespaces.add(node);
        HostCommand.run("ip", "link", "add", names.veth(index), "type", "veth", "peer", "name", "eth0", "netns", node);
        veths.add(names.veth(index));
        HostCommand.run("ip", "link", "set", names.veth(index), "master", names.bridge(), "up");
        HostCommand.run("ip", "-n", node, "addr", "add", address(index) + "/24", "dev", "eth0");
        HostCommand.run("ip", "-n", node, "link", "set", "eth0", "up");
        HostCommand.run("ip", "-n", node, "link", "set", "lo", "up");
    }

    /** Waits until daemon {@code i} listens, read from its own namespace's socket table under {@code /proc/PID/net}. */
    private void awaitListening(final int i) throws IOException, InterruptedException
    {
        final ProcessJob daemon = daemons.get(i);
        final Path net = Path.of("/proc", Long.toString(daemon.pid(0)), "net");
        final long deadlineNs = System.nanoTime() + LISTEN_TIMEOUT.toNanos();
        while (daemon.process(0).isAlive() && System.nanoTime() - deadlineNs < 0)
        {
            if (NiodevDaemon.listening(DAEMON_PORT, net.resolve("tcp6")) ||
                NiodevDaemon.listening(DAEMON_PORT, net.resolve("tcp")))
            {
                return;
            }
            Thread.sleep(20);
        }
        throw new IOException("the MPJ Express daemon of node " + names.node(i + 1) + " " +
            (daemon.process(0).isAlive() ? "did not listen on port " + DAEMON_PORT + " within " +
                LISTEN_TIMEOUT.toMillis() + " ms" : "exited") + "; its output:\n" + daemon.output(0));
    }

    /** A third octet for {@code 10.77.X.0/24} that no live cluster and no address or route of this host uses. */
    private int freeSubnet() throws IOException
    {
        final Set<Integer> used = new HashSet<>(new HostsFile(HostsFile.ETC_HOSTS).subnetsInUse(SUBNET_PREFIX));
        final String hostAddresses = HostCommand.run("ip", "-o", "-4", "addr", "show") +
            HostCommand.run("ip", "-4", "route", "show");
        final int first = (int) ((names.ownerPid() * 31 + names.sequence()) % SUBNETS);
        for (int k = 0; k < SUBNETS; k++)
        {
            final int candidate = (first + k) % SUBNETS + 1;
            if (!used.contains(candidate) && !hostAddresses.contains(SUBNET_PREFIX + candidate + "."))
            {
                return candidate;
            }
        }
        throw new IOException("every subnet " + SUBNET_PREFIX + "1-" + SUBNETS + ".0/24 is in use");
    }

    private void tearDownOnce()
    {
        if (!closed.compareAndSet(false, true))
        {
            return;
        }
        final List<String> problems = new ArrayList<>();
        // Daemons first, with every rank they started; then whatever else still runs in a namespace.
        daemons.forEach(ProcessJob::close);
        for (final String namespace : namespaces)
        {
            ClusterLeftovers.killProcessesIn(namespace, problems);
        }
        veths.forEach(veth -> HostCommand.runNoting(problems, "ip", "link", "del", veth));
        namespaces.forEach(namespace -> HostCommand.runNoting(problems, "ip", "netns", "del", namespace));
        if (bridgeMade)
        {
            HostCommand.runNoting(problems, "ip", "link", "del", names.bridge());
        }
        if (hostsAdded)
        {
            try
            {
                HostsFile.locked(() ->
                {
                    new HostsFile(HostsFile.ETC_HOSTS).remove(Set.copyOf(hostNames()));
                    return null;
                });
            }
            catch (final IOException e)
            {
                problems.add("could not restore " + HostsFile.ETC_HOSTS + ": " + e.getMessage());
            }
        }
        ClusterLeftovers.deleteQuietly(directory, problems);
        problems.forEach(problem -> System.err.println("[cluster] teardown of " + names.id() + ": " + problem));
    }
}
