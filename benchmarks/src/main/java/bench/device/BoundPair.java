package bench.device;

import java.util.concurrent.CyclicBarrier;
import java.util.function.LongUnaryOperator;

import kupl.CpuBinding;

/**
 * What the floor models ({@link RingModel}, {@link LineModel}) share: two platform threads of one JVM bound to
 * CPUs as the device binds the two ranks of a 2-rank job (KUPL_SHM_BIND), started together, and the sizing of
 * their repetitions as the device's ranks size theirs.
 */
final class BoundPair
{
    private BoundPair()
    {
    }

    /** A measurement: how many operations each repetition ran, and the ns each took. */
    record Repetitions(long ops, long[] nanos)
    {
    }

    /**
     * Runs {@code first} and {@code second} on two threads bound as ranks 0 and 1, from one start, and returns
     * the ns {@code second} took (its end is the end of a transfer from the first).
     */
    static long run(final Runnable first, final Runnable second)
    {
        final CyclicBarrier start = new CyclicBarrier(2);
        final long[] secondNs = new long[1];
        final Thread one = Thread.ofPlatform().start(() ->
        {
            bind(0);
            await(start);
            first.run();
        });
        final Thread two = Thread.ofPlatform().start(() ->
        {
            bind(1);
            await(start);
            final long begin = System.nanoTime();
            second.run();
            secondNs[0] = System.nanoTime() - begin;
        });
        try
        {
            one.join();
            two.join();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return secondNs[0];
    }

    /**
     * {@code repetitions} runs of about {@code targetNs} each: {@code run} maps an operation count to the ns it
     * took; warmed up for {@code warmupNs} first (at least one run, which sizes the repetitions).
     */
    static Repetitions measure(final LongUnaryOperator run, final long warmupNs, final int repetitions,
        final long targetNs)
    {
        long ops = 0;
        long spentNs = 0;
        long elapsedNs = 0;
        do
        {
            ops = ops == 0 ? 1 : elapsedNs < targetNs / 4 ? ops * 2 : ops;
            elapsedNs = run.applyAsLong(ops);
            spentNs += elapsedNs;
        }
        while (spentNs < warmupNs);
        final long sized = Math.max(1, (long)((double)ops * targetNs / Math.max(1, elapsedNs)));
        final long[] nanos = new long[repetitions];
        for (int r = 0; r < repetitions; r++)
        {
            nanos[r] = run.applyAsLong(sized);
        }
        return new Repetitions(sized, nanos);
    }

    private static void bind(final int index)
    {
        CpuBinding.bindCallingThread(CpuBinding.configured(System.getenv()), index, 2);
    }

    private static void await(final CyclicBarrier barrier)
    {
        try
        {
            barrier.await();
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
        }
    }
}
