package bench.device;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import bench.harness.Samples;
import mpi.MPI;

/**
 * A ping-pong written as a user writes one, not as {@link DeviceRank} does: ranks 0 and 1 bounce a
 * {@code byte[]} with {@code Send} and {@code Recv}; a warm-up in batches of 1,000 round trips, with a
 * {@code Bcast} from rank 0 after each deciding whether to go on, until the warm-up time has passed; then
 * {@value #TIMED_BATCHES} timed batches sized from the warm-up's rate to last about 100 ms each. Rank 0 prints
 * one line per message size:
 *
 * <pre>
 * plain-pingpong bytes=8 half-round-trip-us=0.61 heap-bytes-per-round-trip=48 batches-us=0.60,0.61,...
 *     batches-jit-ms=0,12,...
 * bench plain:8 rank=0 ops=81234 610.000 605.000 ...
 * bench plain-jit:8 rank=0 ops=81234 0.000 12.000 ...
 * </pre>
 * (the median of the batches, what rank 0's thread allocated per round trip over all of them, then each
 * batch, and how many milliseconds both ranks' JIT compilers spent compiling during each; and the same
 * batches as {@link Samples} lines of parts {@code plain:<bytes>}, in ns per half round trip, and
 * {@code plain-jit:<bytes>}, in ms, which {@link DeviceBenchmark} reads). Arguments after MPI's: the warm-up
 * in ms, then the message sizes in bytes. Ranks other than 0 and 1 only take part in the {@code Bcast}s.
 *
 * <p>Why it exists: how a device's waits settle can depend on what a program did before it measured (a
 * collective between batches, a pause for the JIT), and a benchmark that warms up one way only would not see it.
 */
public final class PlainPingPong
{
    static final String PREFIX = "plain-pingpong ";
    static final int TIMED_BATCHES = 7;
    /** The {@link Samples} part of the JIT's compiling time per batch: {@code plain-jit:<bytes>}. */
    static final String COMPILING = "plain-jit:";
    private static final int WARMUP_BATCH = 1_000;
    private static final long TIMED_BATCH_NS = 100_000_000L;
    private static final int TAG = 7;

    private PlainPingPong()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final long warmupNs = Long.parseLong(appArgs[0]) * 1_000_000L;
        final int rank = MPI.COMM_WORLD.Rank();
        for (int i = 1; i < appArgs.length; i++)
        {
            final byte[] message = new byte[Integer.parseInt(appArgs[i])];
            final long[] roundTrips = {warmUp(rank, message, warmupNs)};
            MPI.COMM_WORLD.Bcast(roundTrips, 0, 1, MPI.LONG, 0);
            final double[] halfRoundTripUs = new double[TIMED_BATCHES];
            final double[] compilingMs = new double[TIMED_BATCHES];
            final long allocatedBefore = allocatedBytes();
            for (int batch = 0; batch < TIMED_BATCHES; batch++)
            {
                final long compiledBefore = compilationMs();
                final long start = System.nanoTime();
                bounce(rank, message, roundTrips[0]);
                halfRoundTripUs[batch] = (System.nanoTime() - start) / (2.0 * roundTrips[0]) / 1000.0;
                compilingMs[batch] = compilationMs() - compiledBefore;
            }
            final long allocated = allocatedBytes() - allocatedBefore;
            // Rank 1's JVM compiles too: rank 0 reports both JVMs' compilation per batch.
            if (rank == 1)
            {
                MPI.COMM_WORLD.Send(compilingMs, 0, TIMED_BATCHES, MPI.DOUBLE, 0, TAG);
            }
            if (rank == 0)
            {
                final double[] peerCompilingMs = new double[TIMED_BATCHES];
                MPI.COMM_WORLD.Recv(peerCompilingMs, 0, TIMED_BATCHES, MPI.DOUBLE, 1, TAG);
                for (int batch = 0; batch < TIMED_BATCHES; batch++)
                {
                    compilingMs[batch] += peerCompilingMs[batch];
                }
                final double[] sorted = halfRoundTripUs.clone();
                Arrays.sort(sorted);
                System.out.printf("%sbytes=%d half-round-trip-us=%.3f heap-bytes-per-round-trip=%d batches-us=%s " +
                    "batches-jit-ms=%s%n",
                    PREFIX, message.length, sorted[TIMED_BATCHES / 2], allocated / (TIMED_BATCHES * roundTrips[0]),
                    String.join(",", Arrays.stream(halfRoundTripUs)
                        .mapToObj(us -> String.format("%.3f", us)).toList()),
                    String.join(",", Arrays.stream(compilingMs).mapToObj(ms -> String.format("%.0f", ms)).toList()));
                Samples.print("plain:" + message.length, rank, roundTrips[0],
                    Arrays.stream(halfRoundTripUs).map(us -> us * 1000).toArray());
                Samples.print(COMPILING + message.length, rank, roundTrips[0], compilingMs);
            }
        }
        MPI.Finalize();
    }

    /** Batches of {@value #WARMUP_BATCH} until rank 0 has seen {@code warmupNs} pass; the round trips per 100 ms. */
    private static long warmUp(final int rank, final byte[] message, final long warmupNs) throws Exception
    {
        final long start = System.nanoTime();
        final int[] more = {1};
        long batches = 0;
        while (more[0] != 0)
        {
            bounce(rank, message, WARMUP_BATCH);
            batches++;
            more[0] = System.nanoTime() - start < warmupNs ? 1 : 0;
            MPI.COMM_WORLD.Bcast(more, 0, 1, MPI.INT, 0);
        }
        final double nsPerRoundTrip = (double)(System.nanoTime() - start) / (batches * WARMUP_BATCH);
        return Math.max(1, (long)(TIMED_BATCH_NS / nsPerRoundTrip));
    }

    /**
     * Milliseconds this JVM's JIT compilers have spent compiling so far: while they compile, they take CPU
     * from the ranks, which on a machine with a CPU per rank have none to spare.
     */
    private static long compilationMs()
    {
        return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    /** Heap bytes this thread has allocated so far (HotSpot's per-thread counter). */
    private static long allocatedBytes()
    {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static void bounce(final int rank, final byte[] message, final long roundTrips) throws Exception
    {
        for (long i = 0; i < roundTrips; i++)
        {
            if (rank == 0)
            {
                MPI.COMM_WORLD.Send(message, 0, message.length, MPI.BYTE, 1, TAG);
                MPI.COMM_WORLD.Recv(message, 0, message.length, MPI.BYTE, 1, TAG);
            }
            else if (rank == 1)
            {
                MPI.COMM_WORLD.Recv(message, 0, message.length, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.Send(message, 0, message.length, MPI.BYTE, 0, TAG);
            }
        }
    }
}
