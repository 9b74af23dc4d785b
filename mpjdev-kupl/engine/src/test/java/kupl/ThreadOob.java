package kupl;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Out-of-band callbacks for ranks that are threads of one JVM (as in MPJ Express's multicore
 * mode): an allgather is a deposit into a shared slot per rank, a barrier, a copy of every
 * slot and a second barrier (so that nobody overwrites its slot before all have read it).
 *
 * <p>A rank that never arrives (its thread ended, or it is stuck) makes the others' calls
 * return {@link Kupl#KUPL_ERROR} after {@code timeout} instead of blocking for ever, and
 * breaks the barrier for every later call.
 *
 * <p>{@link #run} starts one thread per rank and collects each rank's outcome.
 */
final class ThreadOob
{
    /** What one rank thread does: {@code oob} serves the group, {@code rank} is its place in it. */
    @FunctionalInterface
    interface RankBody<T>
    {
        T run(int rank, OobCallbacks oob) throws Exception;
    }

    /** The outcome of one rank thread: its result, or what it threw. */
    record Outcome<T>(int rank, T result, Throwable failure)
    {
        T orThrow()
        {
            if (failure != null)
            {
                throw new AssertionError("rank " + rank + " failed: " + failure, failure);
            }
            return result;
        }
    }

    private final int size;
    private final long timeoutNs;
    private final CyclicBarrier barrier;
    private final byte[][] slots;

    ThreadOob(final int size, final Duration timeout)
    {
        this.size = size;
        this.timeoutNs = timeout.toNanos();
        this.barrier = new CyclicBarrier(size);
        this.slots = new byte[size][];
    }

    /** The callbacks that thread {@code rank} of the group passes to the engine. */
    OobCallbacks member(final int rank)
    {
        if (rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException("rank=" + rank + " outside 0.." + (size - 1));
        }
        return new OobCallbacks()
        {
            @Override
            public int oobAllgather(final byte[] sendbuf, final byte[] recvbuf, final int count, final Object group,
                final ShmDatatype datatype)
            {
                return allgather(rank, sendbuf, recvbuf, count * datatype.sizeBytes());
            }

            @Override
            public int oobBarrier(final Object group)
            {
                return allgather(rank, new byte[0], new byte[0], 0);
            }
        };
    }

    private int allgather(final int rank, final byte[] sendbuf, final byte[] recvbuf, final int bytes)
    {
        if (sendbuf.length < bytes || recvbuf.length < bytes * size)
        {
            return Kupl.KUPL_ERROR;
        }
        slots[rank] = Arrays.copyOf(sendbuf, bytes);
        if (!await())
        {
            return Kupl.KUPL_ERROR;
        }
        // The barrier orders every deposit before every read.
        for (int peer = 0; peer < size; peer++)
        {
            if (slots[peer].length != bytes)
            {
                return Kupl.KUPL_ERROR;
            }
            System.arraycopy(slots[peer], 0, recvbuf, peer * bytes, bytes);
        }
        return await() ? Kupl.KUPL_OK : Kupl.KUPL_ERROR;
    }

    private boolean await()
    {
        try
        {
            barrier.await(timeoutNs, TimeUnit.NANOSECONDS);
            return true;
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return false;
        }
        catch (final BrokenBarrierException | TimeoutException e)
        {
            return false;
        }
    }

    /**
     * Runs {@code body} in {@code size} platform threads, one per rank, over one
     * {@link ThreadOob}, and returns every rank's outcome in rank order.
     *
     * @throws AssertionError if a rank has not finished within {@code timeout} (the threads
     *         still running are interrupted and listed with their stacks).
     */
    static <T> List<Outcome<T>> run(final int size, final Duration timeout, final RankBody<T> body)
        throws InterruptedException
    {
        return run(size, timeout, Thread.ofPlatform(), body);
    }

    /** {@link #run(int, Duration, RankBody)} with threads from {@code threads} (platform or virtual). */
    static <T> List<Outcome<T>> run(final int size, final Duration timeout, final Thread.Builder threads,
        final RankBody<T> body) throws InterruptedException
    {
        return run(size, timeout, timeout, threads, body);
    }

    /**
     * {@link #run(int, Duration, Thread.Builder, RankBody)} whose callbacks give up on a rank that
     * does not arrive after {@code oobTimeout}, shorter than {@code timeout} for the whole run.
     */
    static <T> List<Outcome<T>> run(final int size, final Duration oobTimeout, final Duration timeout,
        final Thread.Builder threads, final RankBody<T> body) throws InterruptedException
    {
        final ThreadOob oob = new ThreadOob(size, oobTimeout);
        final List<Thread> started = new ArrayList<>();
        @SuppressWarnings({"unchecked", "rawtypes"})
        final Outcome<T>[] outcomes = new Outcome[size];
        for (int rank = 0; rank < size; rank++)
        {
            final int r = rank;
            started.add(threads.name("kupl-test-rank-" + rank).start(() ->
            {
                try
                {
                    outcomes[r] = new Outcome<>(r, body.run(r, oob.member(r)), null);
                }
                catch (final Throwable t)
                {
                    outcomes[r] = new Outcome<>(r, null, t);
                }
            }));
        }
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        final StringBuilder stuck = new StringBuilder();
        for (final Thread thread : started)
        {
            final long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0 || !thread.join(Duration.ofNanos(leftNs)))
            {
                stuck.append("\n").append(thread.getName()).append(" still running at:");
                for (final StackTraceElement frame : thread.getStackTrace())
                {
                    stuck.append("\n    at ").append(frame);
                }
            }
        }
        if (!stuck.isEmpty())
        {
            started.forEach(Thread::interrupt);
            for (final Thread thread : started)
            {
                thread.join(Duration.ofSeconds(5));
            }
            throw new AssertionError("rank threads did not finish within " + timeout + "; outcomes so far: " +
                Arrays.toString(outcomes) + stuck);
        }
        return List.of(outcomes);
    }

    /** {@link #run}, failing if any rank threw; returns the results in rank order. */
    static <T> List<T> runAll(final int size, final Duration timeout, final RankBody<T> body)
        throws InterruptedException
    {
        final List<Outcome<T>> outcomes = run(size, timeout, body);
        final List<T> results = new ArrayList<>();
        for (final Outcome<T> outcome : outcomes)
        {
            results.add(outcome.orThrow());
        }
        return results;
    }

    /** Pid to pass to {@link ShmComm#create}: every thread rank shares this JVM's. */
    static long pid()
    {
        return ProcessHandle.current().pid();
    }
}
