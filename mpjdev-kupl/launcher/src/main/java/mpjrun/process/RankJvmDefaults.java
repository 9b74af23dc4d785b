package mpjrun.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

import kupl.KuplEnv;
import kupl.KuplException;

/**
 * The options every launcher of this project gives a JVM that runs one rank, chosen for many such
 * JVMs on one node: the one place they are computed, so that {@code bin/mpjrun -dev shm}, MPJ
 * Express's starter under the agent, the job kit and the benchmarks start ranks alike.
 *
 * <p>A JVM sizes its collector's and compiler's thread pools, and its heap, as if it had the node to
 * itself. N rank JVMs on one node then bring N times those threads to the same cores (where one
 * multicore JVM brings them once), and may together claim N quarters of its memory. So, for
 * {@code ranks} JVMs on a node of {@code cores} cores:
 *
 * <table>
 * <caption>Defaults</caption>
 * <tr><th>option</th><th>why</th></tr>
 * <tr><td>{@code -XX:+UseSerialGC}</td><td>no parallel or concurrent GC threads: a rank's heap is
 *     small and its collections short; the cores are the ranks'</td></tr>
 * <tr><td>{@code -XX:CICompilerCount=c}</td><td>the JIT's threads the JVM would start on its share of
 *     the cores ({@code cores / ranks}), by the JVM's own rule; only where that is fewer than it would
 *     start for the whole node (never on 1-3 cores, where the JVM already starts its minimum)</td></tr>
 * <tr><td>{@code -XX:MaxRAMPercentage=p}</td><td>the ranks' heaps together at most
 *     {@value #JOB_HEAP_PERCENT}% of the memory (the rest holds the windows in {@code /dev/shm} and the
 *     JVMs' own memory), each at most the JVM's default {@value #JVM_DEFAULT_HEAP_PERCENT}%</td></tr>
 * </table>
 *
 * <p>Deliberately not among them: {@code -XX:ActiveProcessorCount}, which would size every pool
 * to the share too but also makes {@code Runtime.availableProcessors()} lie to the engine, which
 * spins only while the ranks do not outnumber the cores (so 2 ranks on 2 cores would stop spinning).
 *
 * <p><b>Overriding.</b> The user's options ({@code -jvmargs}) come after the defaults, and a default
 * that one of them also sets is dropped (a JVM refuses two collectors, and a later {@code -Xms} above
 * an earlier maximum heap). {@code KUPL_RANK_JVM_DEFAULTS=off} in the launcher's environment drops
 * them all.
 */
public final class RankJvmDefaults
{
    /** The variable that switches the defaults off ({@code off}) or on ({@code on}, the default). */
    public static final String SWITCH = KuplEnv.KUPL_RANK_JVM_DEFAULTS.name();
    /** The share of the node's memory the heaps of one job's ranks may take together, in percent. */
    public static final int JOB_HEAP_PERCENT = 50;
    /** The share of memory one JVM's heap may take when nothing says otherwise (the JVM's default), in percent. */
    public static final int JVM_DEFAULT_HEAP_PERCENT = 25;

    /** One default option and the user's options that set the same thing (it is dropped for them). */
    private record Default(String option, Predicate<String> setByUser)
    {
    }

    private RankJvmDefaults()
    {
    }

    /**
     * The default options of each of {@code ranks} rank JVMs on a node of {@code cores} cores.
     *
     * @throws IllegalArgumentException if {@code ranks} or {@code cores} is below 1.
     */
    public static List<String> defaults(final int ranks, final int cores)
    {
        return defaultsFor(ranks, cores).stream().map(Default::option).toList();
    }

    /**
     * A rank JVM's options: the defaults for {@code ranks} ranks on this node (unless {@link #SWITCH}
     * is {@code off} in {@code environment}), those the user's options also set left out, then the
     * user's options, in their order.
     *
     * @param userOptions the user's JVM options ({@code -jvmargs}), which always win.
     * @param environment the launcher's environment (usually {@code System.getenv()}).
     * @throws KuplException if {@link #SWITCH} has a value other than {@code on} or {@code off}.
     */
    public static List<String> rankOptions(final int ranks, final List<String> userOptions,
        final Map<String, String> environment)
    {
        return rankOptions(ranks, Runtime.getRuntime().availableProcessors(), userOptions, environment);
    }

    /** As {@link #rankOptions(int, List, Map)}, on a node of {@code cores} cores. */
    public static List<String> rankOptions(final int ranks, final int cores, final List<String> userOptions,
        final Map<String, String> environment)
    {
        Objects.requireNonNull(userOptions, "userOptions");
        final List<String> options = new ArrayList<>();
        if (enabled(environment))
        {
            for (final Default option : defaultsFor(ranks, cores))
            {
                if (userOptions.stream().noneMatch(option.setByUser()))
                {
                    options.add(option.option());
                }
            }
        }
        options.addAll(userOptions);
        return List.copyOf(options);
    }

    /**
     * Whether {@code environment} leaves the defaults on.
     *
     * @throws KuplException naming the variable and its values if it is neither {@code on} nor {@code off}.
     */
    public static boolean enabled(final Map<String, String> environment)
    {
        Objects.requireNonNull(environment, "environment");
        final KuplEnv variable = KuplEnv.KUPL_RANK_JVM_DEFAULTS;
        final String raw = environment.get(variable.name());
        final String value = raw == null || raw.isBlank() ? variable.defaultValue() : raw.trim();
        if (!variable.allowedValues().contains(value))
        {
            throw new KuplException(variable.name() + "=" + value + " is not allowed: use one of " +
                variable.allowedValues() + " (default " + variable.defaultValue() + ")");
        }
        return value.equals("on");
    }

    /**
     * How many JIT compiler threads a JVM starts on {@code cores} cores with tiered compilation: HotSpot's
     * rule ({@code CompilationPolicy::initialize}, {@code CICompilerCountPerCPU}), at least 2.
     */
    static int jvmCompilerThreads(final int cores)
    {
        final int logCores = log2(cores);
        final int logLogCores = log2(Math.max(logCores, 1));
        return Math.max(logCores * logLogCores * 3 / 2, 2);
    }

    private static List<Default> defaultsFor(final int ranks, final int cores)
    {
        if (ranks < 1 || cores < 1)
        {
            throw new IllegalArgumentException("ranks=" + ranks + " and cores=" + cores + " must be at least 1");
        }
        final List<Default> defaults = new ArrayList<>();
        defaults.add(new Default("-XX:+UseSerialGC", RankJvmDefaults::choosesCollector));
        final int compilerThreads = jvmCompilerThreads(Math.max(1, cores / ranks));
        if (compilerThreads < jvmCompilerThreads(cores))
        {
            defaults.add(new Default("-XX:CICompilerCount=" + compilerThreads,
                option -> option.startsWith("-XX:CICompilerCount=") || option.startsWith("-XX:ActiveProcessorCount=")));
        }
        // At least 0.01, the least the option can say in two decimals.
        final double heapPercent = Math.max(0.01, Math.min(JVM_DEFAULT_HEAP_PERCENT, (double)JOB_HEAP_PERCENT / ranks));
        defaults.add(new Default("-XX:MaxRAMPercentage=" + percent(heapPercent), RankJvmDefaults::sizesHeap));
        return defaults;
    }

    /** {@code -XX:+UseG1GC}, {@code -XX:-UseSerialGC}, ...: any collector choice replaces ours. */
    private static boolean choosesCollector(final String option)
    {
        return option.matches("-XX:[+-]Use[A-Za-z0-9]*GC");
    }

    /** A maximum or initial heap, however given: ours could contradict it (an initial heap above the maximum). */
    private static boolean sizesHeap(final String option)
    {
        return option.startsWith("-Xmx") || option.startsWith("-Xms") || option.startsWith("-XX:MaxHeapSize=") ||
            option.startsWith("-XX:InitialHeapSize=") || option.startsWith("-XX:MinHeapSize=") ||
            option.startsWith("-XX:MaxRAMPercentage=") || option.startsWith("-XX:MaxRAMFraction=") ||
            option.startsWith("-XX:InitialRAMPercentage=") || option.startsWith("-XX:MinRAMPercentage=");
    }

    /** At most two decimals, in the JVM's number format (a dot, whatever the locale). */
    private static String percent(final double value)
    {
        final String text = String.format(Locale.ROOT, "%.2f", value);
        return text.replaceAll("\\.?0+$", "");
    }

    private static int log2(final int value)
    {
        return 31 - Integer.numberOfLeadingZeros(value);
    }
}
