package mpjrun;

import java.util.Arrays;
import java.util.List;

/**
 * The devices a job across a {@link SimulatedCluster} ({@code -nodes N}) runs on, each under the {@code -dev} name
 * its starter is given ({@link DeviceName}, where every device name is spelled).
 */
public enum ClusterDevice
{
    /** MPJ Express's cluster mode: one JVM per rank, TCP between every pair. */
    NIODEV(DeviceName.NIODEV),
    /** MPJ Express's hybrid mode: one JVM per node, its ranks threads (smpdev), niodev between the nodes. */
    HYBDEV(DeviceName.HYBDEV);

    private final String text;

    ClusterDevice(final DeviceName name)
    {
        this.text = name.text();
    }

    /** The name given to the starter's {@code -dev}. */
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
}
