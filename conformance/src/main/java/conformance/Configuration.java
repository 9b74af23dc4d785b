package conformance;

import java.util.Map;

import mpjrun.MpjDevice;

/**
 * One column of the matrix: device, process count, and the engine's settings
 * ({@code KUPL_SHM_FENCE_ALGORITHM} 1 = linear, 2 = recursive doubling; {@code KUPL_SHM_TYPE}
 * posix or sls), the provider under test, the flavour of the cases' windows and the number of
 * nodes the job spans (2 or more: niodev, or shm with niodev between nodes, across a simulated cluster).
 */
public record Configuration(MpjDevice device, int processes, int fenceAlgorithm, String shmType, String provider,
    Flavour flavour, int nodes)
{
    public Configuration
    {
        if (processes < 1)
        {
            throw new IllegalArgumentException("processes=" + processes + " must be at least 1");
        }
        if (fenceAlgorithm != 1 && fenceAlgorithm != 2)
        {
            throw new IllegalArgumentException("fenceAlgorithm=" + fenceAlgorithm + " must be 1 (linear) or 2 (rd)");
        }
        if (!shmType.equals("posix") && !shmType.equals("sls"))
        {
            throw new IllegalArgumentException("shmType=" + shmType + " must be posix or sls");
        }
        if (nodes < 1 || nodes > processes)
        {
            throw new IllegalArgumentException("nodes=" + nodes + " must be 1 to processes=" + processes);
        }
        if (nodes > 1 && device != MpjDevice.NIODEV && device != MpjDevice.SHM)
        {
            throw new IllegalArgumentException("nodes=" + nodes + " needs niodev or shm, the devices that span " +
                "nodes, not " + device.deviceName());
        }
    }

    /** A configuration of allocateShared windows on one node. */
    public Configuration(final MpjDevice device, final int processes, final int fenceAlgorithm, final String shmType,
        final String provider)
    {
        this(device, processes, fenceAlgorithm, shmType, provider, Flavour.SHARED, 1);
    }

    public Configuration(final MpjDevice device, final int processes, final int fenceAlgorithm, final String shmType)
    {
        this(device, processes, fenceAlgorithm, shmType, ConformanceRank.DEFAULT_PROVIDER);
    }

    /** A configuration of {@code flavour} windows on {@code nodes} nodes, with the engine's default settings. */
    public static Configuration of(final MpjDevice device, final int processes, final Flavour flavour,
        final int nodes, final String provider)
    {
        return new Configuration(device, processes, 2, "posix", provider, flavour, nodes);
    }

    /** What the ranks need in their environment. */
    public Map<String, String> environment()
    {
        return Map.of("KUPL_SHM_FENCE_ALGORITHM", Integer.toString(fenceAlgorithm), "KUPL_SHM_TYPE", shmType);
    }

    /**
     * A short column heading, e.g. {@code multicore np4 rd posix allocateShared} or
     * {@code niodev np4 create 2 nodes}: the engine's settings only where the windows are the engine's.
     */
    public String label()
    {
        final String settings = flavour == Flavour.SHARED ?
            " " + (fenceAlgorithm == 1 ? "linear" : "rd") + " " + shmType : "";
        return device.deviceName() + " np" + processes + settings + " " + flavour.call() +
            (nodes > 1 ? " " + nodes + " nodes" : "") +
            (provider.equals(ConformanceRank.DEFAULT_PROVIDER) ? "" : " [" + provider + "]");
    }
}
