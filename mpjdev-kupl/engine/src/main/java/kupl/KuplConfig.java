package kupl;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The engine's settings, read once from the {@link KuplEnv} variables and validated in one
 * place: a value outside the allowed ones is an error naming the variable and what it
 * accepts (KUPL itself quietly falls back to its defaults; this engine does not).
 *
 * @param fenceAlgorithm    {@code KUPL_SHM_FENCE_ALGORITHM}.
 * @param shmType           {@code KUPL_SHM_TYPE}.
 * @param hugePages         {@code KUPL_SHM_ENABLE_HUGEPAGE=y}; only with {@link ShmType#SLS}.
 * @param onPackage         {@code KUPL_SHM_ON_PACKAGE=y}; only with {@link ShmType#SLS}.
 * @param directory         {@code KUPL_SHM_DIR}.
 * @param waitSpins         {@code KUPL_SHM_WAIT_SPINS}, or {@link #AUTO_SPINS} for {@code auto}.
 * @param waitYieldNs       {@code KUPL_SHM_WAIT_YIELD_US} in nanoseconds, or {@link #AUTO_YIELD} for {@code auto}.
 * @param livenessIntervalNs {@code KUPL_SHM_LIVENESS_MS} in nanoseconds.
 */
public record KuplConfig(
    FenceAlgorithm fenceAlgorithm,
    ShmType shmType,
    boolean hugePages,
    boolean onPackage,
    Path directory,
    int waitSpins,
    long waitYieldNs,
    long livenessIntervalNs)
{
    /** {@link #waitSpins()} value meaning "decide from the number of processes and cores". */
    public static final int AUTO_SPINS = -1;
    /** {@link #waitYieldNs()} value meaning "as long as recent waits showed it pays" ({@link SpinBudget}). */
    public static final long AUTO_YIELD = -1;

    public KuplConfig
    {
        Objects.requireNonNull(fenceAlgorithm, "fenceAlgorithm");
        Objects.requireNonNull(shmType, "shmType");
        Objects.requireNonNull(directory, "directory");
        if (hugePages && shmType != ShmType.SLS)
        {
            throw new KuplException("KUPL_SHM_ENABLE_HUGEPAGE=y needs KUPL_SHM_TYPE=sls (it is " +
                shmType.envValue() + "): huge pages are only used for sls windows");
        }
        if (onPackage && shmType != ShmType.SLS)
        {
            throw new KuplException("KUPL_SHM_ON_PACKAGE=y needs KUPL_SHM_TYPE=sls (it is " +
                shmType.envValue() + "): on-package memory is only used for sls windows");
        }
        if (waitSpins < AUTO_SPINS || waitYieldNs < AUTO_YIELD || livenessIntervalNs <= 0)
        {
            throw new KuplException("bad wait settings: waitSpins=" + waitSpins + ", waitYieldNs=" +
                waitYieldNs + ", livenessIntervalNs=" + livenessIntervalNs);
        }
    }

    /** The settings of this process's environment. */
    public static KuplConfig fromEnvironment()
    {
        return fromVariables(System.getenv());
    }

    /**
     * The settings that {@code variables} (an environment) select.
     *
     * @throws KuplException naming the variable and its allowed values if a value is not accepted.
     */
    public static KuplConfig fromVariables(final Map<String, String> variables)
    {
        final FenceAlgorithm algorithm = FenceAlgorithm.ofEnvValue(choice(variables, KuplEnv.KUPL_SHM_FENCE_ALGORITHM));
        final ShmType type = ShmType.valueOf(choice(variables, KuplEnv.KUPL_SHM_TYPE).toUpperCase(java.util.Locale.ROOT));
        final boolean hugePages = "y".equals(choice(variables, KuplEnv.KUPL_SHM_ENABLE_HUGEPAGE));
        final boolean onPackage = "y".equals(choice(variables, KuplEnv.KUPL_SHM_ON_PACKAGE));
        final Path directory = Path.of(value(variables, KuplEnv.KUPL_SHM_DIR));
        final String spins = value(variables, KuplEnv.KUPL_SHM_WAIT_SPINS);
        final int waitSpins = "auto".equals(spins) ? AUTO_SPINS :
            (int)number(KuplEnv.KUPL_SHM_WAIT_SPINS, spins, 0, Integer.MAX_VALUE, "`auto` or a count");
        final String yield = value(variables, KuplEnv.KUPL_SHM_WAIT_YIELD_US);
        final long waitYieldNs = "auto".equals(yield) ? AUTO_YIELD : 1_000L *
            number(KuplEnv.KUPL_SHM_WAIT_YIELD_US, yield, 0, 60_000_000L, "`auto` or a number of microseconds");
        final long livenessMs = number(KuplEnv.KUPL_SHM_LIVENESS_MS, value(variables, KuplEnv.KUPL_SHM_LIVENESS_MS),
            1, 4_000L, "a number of milliseconds");
        return new KuplConfig(algorithm, type, hugePages, onPackage, directory, waitSpins,
            waitYieldNs, livenessMs * 1_000_000L);
    }

    /** The defaults, as with an empty environment. */
    public static KuplConfig defaults()
    {
        return fromVariables(Map.of());
    }

    /** A copy with another fence algorithm. */
    public KuplConfig withFenceAlgorithm(final FenceAlgorithm algorithm)
    {
        return new KuplConfig(algorithm, shmType, hugePages, onPackage, directory, waitSpins, waitYieldNs,
            livenessIntervalNs);
    }

    /** A copy with another shm type (huge pages and on-package memory off). */
    public KuplConfig withShmType(final ShmType type)
    {
        return new KuplConfig(fenceAlgorithm, type, false, false, directory, waitSpins, waitYieldNs,
            livenessIntervalNs);
    }

    /** A copy with another segment directory. */
    public KuplConfig withDirectory(final Path dir)
    {
        return new KuplConfig(fenceAlgorithm, shmType, hugePages, onPackage, dir, waitSpins, waitYieldNs,
            livenessIntervalNs);
    }

    private static String value(final Map<String, String> variables, final KuplEnv variable)
    {
        final String raw = variables.get(variable.name());
        return raw == null || raw.isBlank() ? variable.defaultValue() : raw.trim();
    }

    private static String choice(final Map<String, String> variables, final KuplEnv variable)
    {
        final String value = value(variables, variable);
        if (!variable.allowedValues().contains(value))
        {
            throw new KuplException(variable.name() + "=" + value + " is not allowed: use one of " +
                String.join(", ", variable.allowedValues()) + " (default " + variable.defaultValue() + ")");
        }
        return value;
    }

    private static long number(final KuplEnv variable, final String value, final long min, final long max,
        final String what)
    {
        try
        {
            final long parsed = Long.parseLong(value);
            if (parsed >= min && parsed <= max)
            {
                return parsed;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below with the allowed range
        }
        throw new KuplException(variable.name() + "=" + value + " is not allowed: give " + what +
            " from " + min + " to " + max + " (default " + variable.defaultValue() + ")");
    }
}
