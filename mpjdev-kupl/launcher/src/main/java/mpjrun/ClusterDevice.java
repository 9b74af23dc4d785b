package mpjrun;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The devices a job that spans nodes runs on ({@code -machinesfile FILE}, or {@code -nodes N} across a
 * {@link SimulatedCluster}), each under its {@code -dev} name ({@link DeviceName}, where every device name is
 * spelled).
 */
public enum ClusterDevice
{
    /** MPJ Express's cluster mode: one JVM per rank, TCP between every pair. */
    NIODEV(DeviceName.NIODEV),
    /** MPJ Express's hybrid mode: one JVM per node, its ranks threads (smpdev), niodev between the nodes. */
    HYBDEV(DeviceName.HYBDEV),
    /**
     * One JVM per rank, shared memory within each node, niodev between: MPJ Express's daemons start it as a
     * niodev job whose ranks install {@code xdev.shmdev.ClusterShmDevice}.
     */
    SHM(DeviceName.SHM);

    private final String text;

    ClusterDevice(final DeviceName name)
    {
        this.text = name.text();
    }

    /** The name in {@code -dev}. */
    public String text()
    {
        return text;
    }

    /** The device called {@code name} on the command line, or null if none of these is. */
    public static ClusterDevice named(final String name)
    {
        return Arrays.stream(values()).filter(device -> device.text.equals(name)).findFirst().orElse(null);
    }

    /** Every name, in this order: for messages. */
    public static List<String> texts()
    {
        return Arrays.stream(values()).map(ClusterDevice::text).toList();
    }

    /** The {@code -dev} MPJ Express's starter gets. */
    String starterDevice()
    {
        return this == SHM ? DeviceName.NIODEV.text() : text;
    }

    /**
     * The JVM options of this device's ranks beyond niodev's: on {@link #SHM}, the device to install, and the
     * kupl agent, whose advice runs the collectives within each node through shared memory (without it they
     * run MPJ Express's algorithms over the device's messages, and {@code err} says why).
     */
    List<String> rankOptions(final PrintStream err)
    {
        if (this != SHM)
        {
            return List.of();
        }
        final List<String> options = new ArrayList<>();
        options.add("-D" + StarterRankMain.DEVICE_PROPERTY + "=" + text);
        final Path agent = AgentJar.locate(err);
        if (agent != null)
        {
            options.add("-javaagent:" + agent);
        }
        return options;
    }

    /**
     * {@code spec} as MPJ Express's starter runs it on this device: on {@link #SHM}, through
     * {@link StarterRankMain}, which installs the device before the program's {@code main}.
     */
    JobSpec forStarter(final JobSpec spec)
    {
        if (this != SHM)
        {
            return spec;
        }
        final List<String> jvmArgs = new ArrayList<>(spec.jvmArgs());
        jvmArgs.add("-D" + StarterRankMain.MAIN_PROPERTY + "=" + spec.mainClass());
        jvmArgs.addAll(rankOptions(System.err));
        return new JobSpec(spec.processes(), spec.classPath(), jvmArgs, StarterRankMain.class.getName(),
            spec.appArgs(), spec.prefixOutput());
    }
}
