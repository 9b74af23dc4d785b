package mpjrun.agent;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import com.sun.management.ThreadMXBean;
import mpi.Intracomm;
import mpi.MPI;
import xdev.shmdev.coll.ShmCollectives;

/**
 * Counts the heap bytes this rank's thread allocates per steady-state call of {@code Barrier}, of
 * {@code Allreduce} of 8 doubles with {@code MPI.SUM} and of {@code Bcast} of 8 doubles on {@code COMM_WORLD}
 * ({@code ThreadMXBean.getCurrentThreadAllocatedBytes} around a loop of calls, less what reading the counter
 * itself allocates), apart from what the engine's waits (its fence, its {@code awaitCondition}) allocate
 * inside them: they make objects when a rank waits for the others, counted by
 * {@link ShmCollectives#engineWaitAllocatedBytes()} with {@code -Dkupl.coll.countEngineWaitAllocation=on}.
 * After a warm-up long enough for the JIT to compile the path, it measures {@value #ROUNDS} rounds of
 * {@value #CALLS_PER_ROUND} calls and prints two lines per collective: its bytes per round outside the
 * engine's waits, and in them.
 */
public final class CollectiveAllocationProgram
{
    static final String BYTES_PER_ROUND = " bytes per round outside the engine's waits: ";
    static final String WAIT_BYTES_PER_ROUND = " bytes per round in the engine's waits: ";
    static final int ROUNDS = 5;
    static final int CALLS_PER_ROUND = 2000;
    private static final int WARMUP_CALLS = 30_000;
    private static final int DOUBLES = 8;

    private CollectiveAllocationProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        final double[] in = new double[DOUBLES];
        final double[] out = new double[DOUBLES];
        Arrays.fill(in, world.Rank() + 0.5);
        final Collective barrier = () -> world.Barrier();
        final Collective allreduce = () -> world.Allreduce(in, 0, out, 0, DOUBLES, MPI.DOUBLE, MPI.SUM);
        final double[] broadcast = new double[DOUBLES];
        final Collective bcast = () -> world.Bcast(broadcast, 0, DOUBLES, MPI.DOUBLE, 0);
        for (int i = 0; i < WARMUP_CALLS; i++)
        {
            barrier.call();
            allreduce.call();
            bcast.call();
        }
        final long[] barrierBytes = new long[ROUNDS];
        final long[] barrierWaitBytes = new long[ROUNDS];
        final long[] allreduceBytes = new long[ROUNDS];
        final long[] allreduceWaitBytes = new long[ROUNDS];
        final long[] bcastBytes = new long[ROUNDS];
        final long[] bcastWaitBytes = new long[ROUNDS];
        for (int round = 0; round < ROUNDS; round++)
        {
            long waitStart = ShmCollectives.engineWaitAllocatedBytes();
            barrierBytes[round] = allocatedBytes(threads, barrier, CALLS_PER_ROUND);
            barrierWaitBytes[round] = ShmCollectives.engineWaitAllocatedBytes() - waitStart;
            waitStart = ShmCollectives.engineWaitAllocatedBytes();
            allreduceBytes[round] = allocatedBytes(threads, allreduce, CALLS_PER_ROUND);
            allreduceWaitBytes[round] = ShmCollectives.engineWaitAllocatedBytes() - waitStart;
            waitStart = ShmCollectives.engineWaitAllocatedBytes();
            bcastBytes[round] = allocatedBytes(threads, bcast, CALLS_PER_ROUND);
            bcastWaitBytes[round] = ShmCollectives.engineWaitAllocatedBytes() - waitStart;
        }
        final int rank = world.Rank();
        print(rank, "Barrier", barrierBytes, barrierWaitBytes);
        print(rank, "Allreduce", allreduceBytes, allreduceWaitBytes);
        print(rank, "Bcast", bcastBytes, bcastWaitBytes);
        System.out.println("rank " + rank + ": Allreduce result " + out[0]);
        MPI.Finalize();
    }

    private static void print(final int rank, final String collective, final long[] bytes, final long[] waitBytes)
    {
        final long[] own = new long[bytes.length];
        for (int round = 0; round < bytes.length; round++)
        {
            own[round] = bytes[round] - waitBytes[round];
        }
        System.out.println("rank " + rank + ": " + collective + BYTES_PER_ROUND + Arrays.toString(own));
        System.out.println("rank " + rank + ": " + collective + WAIT_BYTES_PER_ROUND + Arrays.toString(waitBytes));
    }

    /** Bytes this thread allocates in {@code calls} calls, less those of reading the counter twice. */
    private static long allocatedBytes(final ThreadMXBean threads, final Collective collective, final int calls)
        throws Exception
    {
        final long emptyStart = threads.getCurrentThreadAllocatedBytes();
        final long emptyEnd = threads.getCurrentThreadAllocatedBytes();
        final long start = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++)
        {
            collective.call();
        }
        final long end = threads.getCurrentThreadAllocatedBytes();
        return end - start - (emptyEnd - emptyStart);
    }

    /** One collective call (a lambda made once, before the measured loops). */
    @FunctionalInterface
    private interface Collective
    {
        void call() throws Exception;
    }
}
