package mpjrun;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The MPJ Express devices a job can run on from this project, each under the name MPJ Express
 * (or {@code bin/mpjrun}) knows it by ({@link DeviceName}, where every device name is spelled).
 */
public enum MpjDevice
{
    /** MPJ Express's multicore mode: one JVM, one thread per rank ({@code smpdev}). */
    MULTICORE(DeviceName.MULTICORE),
    /** MPJ Express's cluster mode on this node: one JVM per rank, TCP over loopback, a daemon starts the ranks. */
    NIODEV(DeviceName.NIODEV),
    /** One JVM per rank, point-to-point over shared memory ({@code xdev.shmdev}), started by {@code bin/mpjrun}. */
    SHM(DeviceName.SHM);

    private final String deviceName;

    MpjDevice(final DeviceName name)
    {
        this.deviceName = name.text();
    }

    /** The name given to {@code -dev}. */
    public String deviceName()
    {
        return deviceName;
    }

    /**
     * The device called {@code name} on the command line.
     *
     * @throws IllegalArgumentException naming the bad value and the known devices.
     */
    public static MpjDevice named(final String name)
    {
        for (final MpjDevice device : values())
        {
            if (device.deviceName.equals(name))
            {
                return device;
            }
        }
        throw new IllegalArgumentException("device=" + name + " is not one of " +
            Arrays.stream(values()).map(MpjDevice::deviceName).collect(Collectors.joining(", ")));
    }
}
