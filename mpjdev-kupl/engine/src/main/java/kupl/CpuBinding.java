package kupl;

import java.util.BitSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Binds the thread that joins a job to a CPU of its own ({@code KUPL_SHM_BIND}), as Open MPI binds
 * the processes of small jobs to cores.
 *
 * <p><b>Why.</b> A rank that waits for a message spins a few microseconds, then yields; that
 * answers within a cache-line transfer while each rank has a core. Having fewer ranks than cores
 * does not give each one: here the scheduler ran both ranks of a 2-rank job on one of the two
 * cores for 4-12 s at a time with the other core idle (tens of thousands of involuntary context
 * switches a second), and a ping-pong then cost 12 us per message instead of 0.8. Bound, it costs
 * 0.8 us from the first batch on.
 *
 * <p><b>What.</b> Only the calling thread is bound (the one that runs {@code MPI.Init}), not the
 * JVM's compiler and collector threads, which keep every CPU: binding each rank JVM whole put them
 * on the rank's core and cost 1.5 us per message. Threads that the bound thread starts afterwards
 * inherit its CPU (Linux copies the mask to new threads), and {@code Runtime.availableProcessors()}
 * called from it answers 1 (HotSpot counts the calling thread's CPUs): a program that runs thread
 * pools in its ranks sets {@code KUPL_SHM_BIND=none}. The engine itself counts the CPUs it had
 * before binding ({@link #availableCpus()}).
 *
 * <p><b>Policy.</b> {@code auto} (the default) binds when every rank of the node can have a CPU
 * of its own among those the process may use (its affinity mask, and the JVM's count, which
 * includes a container's quota) and there are at least two ranks; {@code cpu} binds or fails
 * saying why it cannot; {@code none} never binds. The {@code i}-th rank of the node gets the
 * {@code i}-th CPU of the mask, so ranks started under {@code taskset} stay within its CPUs.
 */
public final class CpuBinding
{
    /** The values of {@code KUPL_SHM_BIND}. */
    public enum Policy
    {
        /** Bind when each of at least two ranks can have a CPU of its own. */
        AUTO,
        /** Bind, or fail when the ranks outnumber the CPUs. */
        CPU,
        /** Never bind. */
        NONE
    }

    /** What {@link #bindCallingThread} answers when it left the thread free. */
    public static final int NOT_BOUND = -1;

    private CpuBinding()
    {
    }

    /**
     * The policy {@code KUPL_SHM_BIND} sets in {@code environment} ({@code auto} when unset or blank).
     *
     * @throws KuplException naming the variable and its values, if it has another value.
     */
    public static Policy configured(final Map<String, String> environment)
    {
        final KuplEnv variable = KuplEnv.KUPL_SHM_BIND;
        final String raw = environment.get(variable.name());
        final String value = raw == null || raw.isBlank() ? variable.defaultValue() : raw.trim();
        if (!variable.allowedValues().contains(value))
        {
            throw new KuplException(variable.name() + "=" + value + " is not allowed: use one of " +
                variable.allowedValues() + " (default " + variable.defaultValue() + ")");
        }
        return Policy.valueOf(value.toUpperCase(Locale.ROOT));
    }

    /**
     * The CPUs this process may use, as the JVM counted them the first time the engine asked, which is before
     * any binding: what the engine sizes its waits by, whichever thread asks.
     */
    public static int availableCpus()
    {
        return ProcessCpus.COUNT;
    }

    /**
     * Binds the calling thread for the {@code index}-th of the {@code ranks} processes of this node, as
     * {@code policy} says.
     *
     * @return the CPU it now runs on only, or {@link #NOT_BOUND}.
     * @throws KuplException if {@code policy} is {@link Policy#CPU} and the ranks outnumber the CPUs, or the
     *                       kernel refused.
     * @throws IllegalArgumentException if {@code index} is not one of {@code ranks}.
     */
    public static int bindCallingThread(final Policy policy, final int index, final int ranks)
    {
        final int available = availableCpus();
        final BitSet allowed;
        try
        {
            allowed = Libc.callingThreadCpus();
        }
        catch (final Libc.ErrnoException e)
        {
            throw new KuplException("could not read which CPUs this process may use: " + e.getMessage());
        }
        final int cpu = choose(policy, index, ranks, allowed, available);
        if (cpu != NOT_BOUND)
        {
            try
            {
                Libc.bindCallingThread(cpu);
            }
            catch (final Libc.ErrnoException e)
            {
                throw new KuplException("could not bind rank " + index + " of this node to CPU " + cpu + ": " +
                    e.getMessage() + "; set " + KuplEnv.KUPL_SHM_BIND.name() + "=none to leave ranks unbound");
            }
        }
        return cpu;
    }

    /**
     * The CPU of the {@code index}-th of {@code ranks}, among the {@code allowed} ones and {@code available}
     * (the JVM's count), under {@code policy}; {@link #NOT_BOUND} where it stays free.
     */
    static int choose(final Policy policy, final int index, final int ranks, final BitSet allowed,
        final int available)
    {
        Objects.requireNonNull(policy, "policy");
        if (index < 0 || index >= ranks)
        {
            throw new IllegalArgumentException("index=" + index + " is not one of " + ranks + " ranks");
        }
        if (policy == Policy.NONE || ranks < 2)
        {
            // A rank alone has no peer to share a core with, and keeps every CPU for its own threads.
            return NOT_BOUND;
        }
        final int cpus = Math.min(allowed.cardinality(), available);
        if (ranks > cpus)
        {
            if (policy == Policy.CPU)
            {
                throw new KuplException(KuplEnv.KUPL_SHM_BIND.name() + "=cpu needs a CPU for each rank: " + ranks +
                    " ranks on this node, and this process may use " + cpus + " CPUs (" + allowed +
                    (available < allowed.cardinality() ? ", the JVM counts " + available : "") +
                    "); start fewer ranks, or set " + KuplEnv.KUPL_SHM_BIND.name() + "=auto or none");
            }
            return NOT_BOUND;
        }
        int cpu = allowed.nextSetBit(0);
        for (int i = 0; i < index; i++)
        {
            cpu = allowed.nextSetBit(cpu + 1);
        }
        return cpu;
    }

    /** The JVM's count of CPUs, taken once, when the engine first needs it. */
    private static final class ProcessCpus
    {
        static final int COUNT = Runtime.getRuntime().availableProcessors();
    }
}
