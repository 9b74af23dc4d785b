package mpjrun;

import java.util.ArrayList;
import java.util.List;

/**
 * The devices a job that spans nodes runs on: MPJ Express's own, or {@code shm} (shared memory within each
 * node, niodev between: MPJ Express's daemons start it as a niodev job whose ranks install
 * {@code xdev.shmdev.ClusterShmDevice}).
 */
public enum ClusterDevice
{
    NIODEV(DeviceName.NIODEV.text()),
    SHM(DeviceName.SHM.text());

    private final String text;

    ClusterDevice(final String text)
    {
        this.text = text;
    }

    /** The name in {@code -dev}. */
    public String text()
    {
        return text;
    }

    /** The {@code -dev} MPJ Express's starter gets. */
    String starterDevice()
    {
        return this == SHM ? DeviceName.NIODEV.text() : text;
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
        jvmArgs.add("-D" + StarterRankMain.DEVICE_PROPERTY + "=" + text);
        return new JobSpec(spec.processes(), spec.classPath(), jvmArgs, StarterRankMain.class.getName(),
            spec.appArgs(), spec.prefixOutput());
    }
}
