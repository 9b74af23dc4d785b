package kupl;

import java.util.List;

/**
 * Every environment variable the engine reads: the four of the KUPL documentation, with
 * exactly its names and values, and the few this implementation adds. One constant per
 * variable holds its default, its allowed values and its description; {@link KuplConfig}
 * validates against them and the configuration table of docs/configuration.md is printed from them
 * ({@link #markdownTable()}).
 */
public enum KuplEnv
{
    KUPL_SHM_FENCE_ALGORITHM("2", List.of("1", "2"),
        "fence algorithm: `1` linear (central counter), `2` rd (recursive doubling)"),
    KUPL_SHM_TYPE("posix", List.of("posix", "sls"),
        "`posix`: one shared-memory object per process; `sls`: one object per window holding every process's part"),
    KUPL_SHM_ENABLE_HUGEPAGE("n", List.of("y", "n"),
        "`y`: back `sls` windows with huge pages (needs free pages in `/proc/sys/vm/nr_hugepages`); only with `KUPL_SHM_TYPE=sls`"),
    KUPL_SHM_ON_PACKAGE("n", List.of("y", "n"),
        "`y`: bind `sls` windows to on-package high-bandwidth memory (a memory-only NUMA node); only with `KUPL_SHM_TYPE=sls`"),
    KUPL_SHM_DIR("/dev/shm", List.of(),
        "directory on a tmpfs (or hugetlbfs) whose file system holds the segments; any other file system " +
            "is refused at allocation; added by this implementation"),
    KUPL_SHM_WAIT_SPINS("auto", List.of(),
        "busy-wait iterations (about 50 ns each) before a waiting process starts to yield: `auto` (up to 100 " +
            "while processes do not outnumber cores, 0 when they do; fewer after recent waits that outlasted " +
            "spinning and yielding, more again after waits that ended quickly) or a fixed count; added"),
    KUPL_SHM_WAIT_YIELD_US("auto", List.of(),
        "microseconds of yielding before a waiting process parks (a park costs 50-200 us per wake-up): `auto` " +
            "(up to 2000, adapted like the spins) or a fixed number; added"),
    KUPL_SHM_BIND("auto", List.of("auto", "cpu", "none"),
        "`auto`: the thread that joins a `-dev shm` job (the one that runs `MPI.Init`) is bound to a CPU of its own " +
            "when the node has at least two ranks and a CPU for each; `cpu`: bound, or the job fails saying why " +
            "not; `none`: never (for ranks that run thread pools: threads a bound thread starts share its CPU); " +
            "added"),
    KUPL_SHM_LIVENESS_MS("250", List.of(),
        "milliseconds between checks that the processes waited for are still alive, and between the checks of a " +
            "death watch, which finds a dead rank of the shm device or of an `mpi.rma` window for calls that never " +
            "wait; added"),
    KUPL_SHM_ARRIVAL_MS("60000", List.of(),
        "milliseconds a starting job waits, from the first process's connection to the launcher's hub, for " +
            "every other process to connect; then it ends naming the missing ranks; added"),
    KUPL_SHM_HELLO_MS("5000", List.of(),
        "milliseconds a new connection to the launcher's hub has to introduce itself as a rank of the job " +
            "before it is dropped; added"),
    KUPL_RANK_JVM_DEFAULTS("on", List.of("on", "off"),
        "`off`: launchers start rank JVMs without the settings for many JVMs per node (see " +
            "[Rank JVM settings](#rank-jvm-settings)); read by the launcher; added"),
    KUPL_RANK_AOT_CACHE("on", List.of("on", "off"),
        "`off`: `-dev shm` rank JVMs start without the launcher's ahead-of-time cache of MPJ Express and this " +
            "project, and none is made (see [Warm-up](#warm-up)); read by the launcher; added"),
    KUPL_RANK_WOVEN_CLASSES("on", List.of("on", "off"),
        "`off`: `-dev shm` rank JVMs get the kupl agent (`-javaagent`), which weaves MPJ Express's collectives " +
            "at every start, instead of MPJ Express's classes woven once by the launcher (see [Warm-up](#warm-up)); " +
            "read by the launcher; added");

    private final String defaultValue;
    private final List<String> allowedValues;
    private final String description;

    KuplEnv(final String defaultValue, final List<String> allowedValues, final String description)
    {
        this.defaultValue = defaultValue;
        this.allowedValues = allowedValues;
        this.description = description;
    }

    /** The value used when the variable is unset or empty. */
    public String defaultValue()
    {
        return defaultValue;
    }

    /** The only values accepted, or an empty list where the value is free-form (a path or a number). */
    public List<String> allowedValues()
    {
        return allowedValues;
    }

    public String description()
    {
        return description;
    }

    /**
     * Whether this {@code on}/{@code off} variable is {@code on} in {@code environment} (its default when unset
     * or blank).
     *
     * @throws IllegalStateException if the variable is not an {@code on}/{@code off} switch.
     * @throws KuplException naming the variable and its values if it has any other value.
     */
    public boolean isOnIn(final java.util.Map<String, String> environment)
    {
        if (!allowedValues.equals(List.of("on", "off")))
        {
            throw new IllegalStateException(name() + " is not an on/off switch");
        }
        final String raw = environment.get(name());
        final String value = raw == null || raw.isBlank() ? defaultValue : raw.trim();
        if (!allowedValues.contains(value))
        {
            throw new KuplException(name() + "=" + value + " is not allowed: use one of " + allowedValues +
                " (default " + defaultValue + ")");
        }
        return value.equals("on");
    }

    /** The table of docs/configuration.md, one row per variable. */
    public static String markdownTable()
    {
        final StringBuilder table = new StringBuilder()
            .append("| variable | default | values | meaning |\n")
            .append("|---|---|---|---|\n");
        for (final KuplEnv variable : values())
        {
            final String allowed = variable.allowedValues.isEmpty() ?
                "see meaning" : "`" + String.join("`, `", variable.allowedValues) + "`";
            table.append("| `").append(variable.name()).append("` | `").append(variable.defaultValue)
                .append("` | ").append(allowed).append(" | ").append(variable.description).append(" |\n");
        }
        return table.toString();
    }

    /** Prints {@link #markdownTable()}, for pasting into docs/configuration.md. */
    public static void main(final String[] args)
    {
        System.out.print(markdownTable());
    }
}
