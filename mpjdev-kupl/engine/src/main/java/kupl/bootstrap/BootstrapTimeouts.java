package kupl.bootstrap;

import java.util.Map;

import kupl.KuplEnv;
import kupl.KuplException;

/**
 * How long a starting job waits, on the launcher's side ({@link OobHub}) and on each rank's
 * ({@link SocketOob#connect}).
 *
 * @param arrivalMs {@code KUPL_SHM_ARRIVAL_MS}: how long the hub waits, from the first rank's arrival, for
 *                  every other rank to connect (a rank waits {@link SocketOob#HUB_GRACE_MS} longer for the
 *                  hub's word). A JVM that starts on a loaded 2-core machine can take seconds, so the
 *                  default is a minute.
 * @param helloMs   {@code KUPL_SHM_HELLO_MS}: how long a new connection has to introduce itself before the
 *                  hub drops it. A rank writes its greeting right after connecting, so seconds are plenty.
 */
public record BootstrapTimeouts(long arrivalMs, long helloMs)
{
    /** Longest accepted {@code KUPL_SHM_ARRIVAL_MS}: an hour. */
    public static final long MAX_ARRIVAL_MS = 3_600_000L;
    /** Longest accepted {@code KUPL_SHM_HELLO_MS}: ten minutes. */
    public static final long MAX_HELLO_MS = 600_000L;

    public BootstrapTimeouts
    {
        if (arrivalMs < 1 || arrivalMs > MAX_ARRIVAL_MS || helloMs < 1 || helloMs > MAX_HELLO_MS)
        {
            throw new IllegalArgumentException("arrivalMs=" + arrivalMs + " must be 1.." + MAX_ARRIVAL_MS +
                " and helloMs=" + helloMs + " must be 1.." + MAX_HELLO_MS);
        }
    }

    /** The timeouts of this process's environment. */
    public static BootstrapTimeouts fromEnvironment()
    {
        return fromVariables(System.getenv());
    }

    /**
     * The timeouts that {@code variables} (an environment) select.
     *
     * @throws KuplException naming the variable and its accepted range if a value is not a number in range.
     */
    public static BootstrapTimeouts fromVariables(final Map<String, String> variables)
    {
        return new BootstrapTimeouts(millis(variables, KuplEnv.KUPL_SHM_ARRIVAL_MS, MAX_ARRIVAL_MS),
            millis(variables, KuplEnv.KUPL_SHM_HELLO_MS, MAX_HELLO_MS));
    }

    /** The defaults, as with an empty environment. */
    public static BootstrapTimeouts defaults()
    {
        return fromVariables(Map.of());
    }

    private static long millis(final Map<String, String> variables, final KuplEnv variable, final long max)
    {
        final String raw = variables.get(variable.name());
        final String value = raw == null || raw.isBlank() ? variable.defaultValue() : raw.trim();
        try
        {
            final long parsed = Long.parseLong(value);
            if (parsed >= 1 && parsed <= max)
            {
                return parsed;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below with the accepted range
        }
        throw new KuplException(variable.name() + "=" + value + " is not allowed: give a number of milliseconds" +
            " from 1 to " + max + " (default " + variable.defaultValue() + ")");
    }
}
