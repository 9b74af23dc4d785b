package conformance;

import java.util.Map;

import mpjrun.MpjDevice;

/**
 * One column of the matrix: device, process count, and the engine's settings
 * ({@code KUPL_SHM_FENCE_ALGORITHM} 1 = linear, 2 = recursive doubling; {@code KUPL_SHM_TYPE}
 * posix or sls), plus the provider under test.
 */
public record Configuration(MpjDevice device, int processes, int fenceAlgorithm, String shmType, String provider)
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
    }

    public Configuration(final MpjDevice device, final int processes, final int fenceAlgorithm, final String shmType)
    {
        this(device, processes, fenceAlgorithm, shmType, ConformanceRank.DEFAULT_PROVIDER);
    }

    /** What the ranks need in their environment. */
    public Map<String, String> environment()
    {
        return Map.of("KUPL_SHM_FENCE_ALGORITHM", Integer.toString(fenceAlgorithm), "KUPL_SHM_TYPE", shmType);
    }

    /** A short column heading, e.g. {@code multicore np4 rd posix}. */
    public String label()
    {
        return device.deviceName() + " np" + processes + " " + (fenceAlgorithm == 1 ? "linear" : "rd") + " " + shmType +
            (provider.equals(ConformanceRank.DEFAULT_PROVIDER) ? "" : " [" + provider + "]");
    }
}
