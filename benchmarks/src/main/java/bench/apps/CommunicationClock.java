package bench.apps;

/**
 * The time one rank spends inside its kernel's own MPI calls while the kernel runs, waiting for its peers
 * included: a kernel starts the clock before each call and stops it after. {@link KernelRank} takes the sum
 * after each repetition, so that the benchmark can say what share of a kernel's time is communication.
 * One clock per kernel object, and one kernel object per rank (ranks of the multicore device are threads).
 */
final class CommunicationClock
{
    private long totalNs;
    private long startedNs;

    /** Before an MPI call. */
    void start()
    {
        startedNs = System.nanoTime();
    }

    /** After the call that {@link #start} preceded. */
    void stop()
    {
        totalNs += System.nanoTime() - startedNs;
    }

    /** The time summed since the last take, in ms; the clock starts again from zero. */
    double takeMs()
    {
        final long total = totalNs;
        totalNs = 0;
        return total / 1e6;
    }
}
