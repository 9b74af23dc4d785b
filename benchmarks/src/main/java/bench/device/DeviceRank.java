package bench.device;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import bench.cluster.ClusterBenchmark;
import bench.harness.Samples;
import mpi.MPI;

/**
 * One rank of the device benchmark, an ordinary MPJ Express program that runs unchanged on any
 * device ({@code shm} through {@code mpjrun.ShmJob}, multicore through MPJ Express's
 * starter). Arguments after MPI's: warm-up time in ms, repetitions, repetition target in ns,
 * then the parts to measure:
 * <ul>
 *   <li>{@code pingpong:<bytes>[:0-<b>]}: ranks 0 and b (1 unless given) bounce a message; one value is half
 *   a round trip, ns;</li>
 *   <li>{@code bandwidth:<bytes>[:0-<b>]}: rank 0 sends messages back to back to rank b (1 unless given),
 *   which acknowledges the last; one value is GB/s;</li>
 *   <li>{@code barrier}, {@code allreduce[:<doubles>]}: every rank; {@code allreduce} sums 8 doubles (or as many
 *   as given: {@code allreduce:1} fits one cache line with the exchange's flag, 8 do not); ns per call;</li>
 *   <li>{@code bcast:<bytes>}: rank 0 broadcasts a byte array to every other rank; one value is GB/s
 *   received by each receiver;</li>
 *   <li>{@code hosts}: measures nothing; every rank prints {@code placement rank=<rank> host=<host name>}, so
 *   that a job across nodes can check which ranks share a node.</li>
 * </ul>
 * A pair's parts ({@code 0-b}: {@link ClusterBenchmark}'s pair within a node and across nodes) are measured
 * and printed by rank 0 alone; the other ranks only take part in the sizing and the barrier after each part.
 * Every part first runs for the warm-up time (JIT compilation in several JVMs sharing few cores takes
 * seconds), and for half of it again right before it is measured; then each is sized by rank 0
 * (broadcast, so that every rank runs the same count) to last about the target per repetition, and
 * every rank that takes part prints one {@link Samples} line.
 */
public final class DeviceRank
{
    /** The part that prints where each rank runs ({@link #PLACEMENT_PREFIX} lines) instead of measuring. */
    public static final String HOSTS = "hosts";
    /** How each line of the {@link #HOSTS} part starts. */
    public static final String PLACEMENT_PREFIX = "placement ";
    private static final int TAG = 1;

    private DeviceRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final long warmupNs = Long.parseLong(appArgs[0]) * 1_000_000L;
        final int repetitions = Integer.parseInt(appArgs[1]);
        final long targetNs = Long.parseLong(appArgs[2]);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final List<String> parts = new ArrayList<>(List.of(appArgs).subList(3, appArgs.length));
        if (parts.remove(HOSTS))
        {
            System.out.println(PLACEMENT_PREFIX + "rank=" + rank + " host=" + InetAddress.getLocalHost().getHostName());
        }
        final List<Measured> measured = new ArrayList<>();
        for (final String part : parts)
        {
            final String[] words = part.split(":");
            measured.add(switch (words[0])
            {
                case "pingpong" -> new PingPong(Integer.parseInt(words[1]), Pair.of(part).within(size));
                case "bandwidth" -> new Bandwidth(Integer.parseInt(words[1]), Pair.of(part).within(size));
                case "barrier" -> ops -> barrier(ops);
                case "allreduce" -> allreduce(words.length == 1 ? 8 : Integer.parseInt(words[1]));
                case "bcast" -> new Broadcast(Integer.parseInt(words[1]));
                default -> throw new IllegalArgumentException("unknown part " + part);
            });
        }
        // Every part is warmed up before any is measured: what one part compiles, others use.
        for (final Measured part : measured)
        {
            warmUp(part, warmupNs);
        }
        for (int p = 0; p < parts.size(); p++)
        {
            final Measured part = measured.get(p);
            // Again, right before it is measured: the parts warmed up after this one ran other paths through
            // the same code (the 16 MiB messages through the 8-byte path's), and what the JIT recompiles for
            // them then would run on the cores of this part's repetitions (8 B: median 2.9-16.5 us measured
            // right after the 16 MiB part, 1.1-1.7 us after this second warm-up).
            warmUp(part, warmupNs / 2);
            final long[] ops = {10};
            for (int sizing = 0; sizing < 2; sizing++)
            {
                final long elapsedNs = part.run(ops[0]);
                ops[0] = Math.max(10, Samples.opsPerRepetition(targetNs, ops[0], elapsedNs));
                MPI.COMM_WORLD.Bcast(ops, 0, 1, MPI.LONG, 0);
            }
            final double[] values = new double[repetitions];
            for (int r = 0; r < repetitions; r++)
            {
                final long elapsedNs = part.run(ops[0]);
                values[r] = part.value(ops[0], elapsedNs);
            }
            // Ping-pong and bandwidth are measured by the pair's first rank alone; collectives by every rank.
            if (!isPointToPoint(parts.get(p)) || rank == Pair.of(parts.get(p)).first())
            {
                Samples.print(parts.get(p), rank, ops[0], values);
            }
            MPI.COMM_WORLD.Barrier();
        }
        MPI.Finalize();
    }

    /**
     * Whether {@code part} is measured between two ranks (ping-pong, bandwidth) and reported by the first of
     * them alone; collectives (Bcast included) are reported by every rank, and the slowest counts.
     */
    static boolean isPointToPoint(final String part)
    {
        return part.startsWith("pingpong:") || part.startsWith("bandwidth:");
    }

    /**
     * The two ranks of a point-to-point part: {@code first} sends first (and measures), {@code second} answers.
     * {@code pingpong:8} is ranks 0 and 1; {@code pingpong:8:0-2} ranks 0 and 2.
     */
    public record Pair(int first, int second)
    {
        public Pair
        {
            if (first < 0 || second < 0 || first == second)
            {
                throw new IllegalArgumentException("a pair of ranks is two different ranks, not " + first + "-" +
                    second);
            }
        }

        /** The pair of a point-to-point {@code part}. */
        public static Pair of(final String part)
        {
            final String[] words = part.split(":");
            if (words.length < 3)
            {
                return new Pair(0, 1);
            }
            final String[] ranks = words[2].split("-");
            if (ranks.length != 2)
            {
                throw new IllegalArgumentException("part " + part + ": the pair is written a-b, e.g. 0-2");
            }
            return new Pair(Integer.parseInt(ranks[0]), Integer.parseInt(ranks[1]));
        }

        /** The part {@code kind:bytes:first-second}, e.g. {@code pingpong:8:0-2}. */
        public String part(final String kind, final int bytes)
        {
            return kind + ":" + bytes + ":" + first + "-" + second;
        }

        /**
         * This pair, if it can be measured on {@code size} ranks: its first rank is rank 0 (which times the warm-up
         * and sizes the repetitions for every rank) and its second is below {@code size}.
         */
        public Pair within(final int size)
        {
            if (first != 0)
            {
                throw new IllegalArgumentException("the pair " + first + "-" + second + " must start with rank 0, " +
                    "which times the warm-up and sizes the repetitions");
            }
            if (second >= size)
            {
                throw new IllegalArgumentException("the pair " + first + "-" + second + " needs at least " +
                    (second + 1) + " ranks, not " + size);
            }
            return this;
        }

        /** Whether {@code rank} is one of the two. */
        boolean contains(final int rank)
        {
            return rank == first || rank == second;
        }
    }

    /** Runs {@code measured} in growing batches until rank 0 has seen {@code warmupNs} pass; all stop together. */
    private static void warmUp(final Measured measured, final long warmupNs) throws Exception
    {
        final long start = System.nanoTime();
        final int[] more = {1};
        for (long batch = 10; more[0] != 0; batch = Math.min(batch * 2, 10_000))
        {
            measured.run(batch);
            more[0] = System.nanoTime() - start < warmupNs ? 1 : 0;
            MPI.COMM_WORLD.Bcast(more, 0, 1, MPI.INT, 0);
        }
    }

    /** One measured operation, run {@code ops} times; returns the elapsed nanoseconds. */
    private interface Measured
    {
        long run(long ops) throws Exception;

        /** The figure printed for {@code ops} operations that took {@code elapsedNs}: ns per operation by default. */
        default double value(final long ops, final long elapsedNs)
        {
            return (double)elapsedNs / ops;
        }
    }

    private record PingPong(int bytes, Pair pair) implements Measured
    {
        @Override
        public long run(final long ops) throws Exception
        {
            final byte[] message = new byte[bytes];
            final int rank = MPI.COMM_WORLD.Rank();
            final long start = System.nanoTime();
            for (long i = 0; i < ops && pair.contains(rank); i++)
            {
                if (rank == pair.first())
                {
                    MPI.COMM_WORLD.Send(message, 0, bytes, MPI.BYTE, pair.second(), TAG);
                    MPI.COMM_WORLD.Recv(message, 0, bytes, MPI.BYTE, pair.second(), TAG);
                }
                else
                {
                    MPI.COMM_WORLD.Recv(message, 0, bytes, MPI.BYTE, pair.first(), TAG);
                    MPI.COMM_WORLD.Send(message, 0, bytes, MPI.BYTE, pair.first(), TAG);
                }
            }
            return System.nanoTime() - start;
        }

        /** Half a round trip. */
        @Override
        public double value(final long ops, final long elapsedNs)
        {
            return elapsedNs / (2.0 * ops);
        }
    }

    private record Bandwidth(int bytes, Pair pair) implements Measured
    {
        @Override
        public long run(final long ops) throws Exception
        {
            final byte[] message = new byte[bytes];
            final byte[] ack = new byte[1];
            final int rank = MPI.COMM_WORLD.Rank();
            final long start = System.nanoTime();
            if (rank == pair.first())
            {
                for (long i = 0; i < ops; i++)
                {
                    MPI.COMM_WORLD.Send(message, 0, bytes, MPI.BYTE, pair.second(), TAG);
                }
                MPI.COMM_WORLD.Recv(ack, 0, 1, MPI.BYTE, pair.second(), TAG);
            }
            else if (rank == pair.second())
            {
                for (long i = 0; i < ops; i++)
                {
                    MPI.COMM_WORLD.Recv(message, 0, bytes, MPI.BYTE, pair.first(), TAG);
                }
                MPI.COMM_WORLD.Send(ack, 0, 1, MPI.BYTE, pair.first(), TAG);
            }
            return System.nanoTime() - start;
        }

        /** GB/s (10^9 bytes per second). */
        @Override
        public double value(final long ops, final long elapsedNs)
        {
            return (double)bytes * ops / elapsedNs;
        }
    }

    /** {@code Bcast} of {@code bytes} bytes from rank 0; bytes each receiver gets per ns (GB/s). */
    private record Broadcast(int bytes) implements Measured
    {
        @Override
        public long run(final long ops) throws Exception
        {
            final byte[] buffer = new byte[bytes];
            final long start = System.nanoTime();
            for (long i = 0; i < ops; i++)
            {
                MPI.COMM_WORLD.Bcast(buffer, 0, bytes, MPI.BYTE, 0);
            }
            return System.nanoTime() - start;
        }

        @Override
        public double value(final long ops, final long elapsedNs)
        {
            return (double)bytes * ops / elapsedNs;
        }
    }

    private static long barrier(final long ops) throws Exception
    {
        final long start = System.nanoTime();
        for (long i = 0; i < ops; i++)
        {
            MPI.COMM_WORLD.Barrier();
        }
        return System.nanoTime() - start;
    }

    /** Allreduce (sum) of {@code doubles} doubles on every rank. */
    private static Measured allreduce(final int doubles)
    {
        final double[] in = new double[doubles];
        final double[] out = new double[doubles];
        for (int i = 0; i < doubles; i++)
        {
            in[i] = i + 1;
        }
        return ops ->
        {
            final long start = System.nanoTime();
            for (long i = 0; i < ops; i++)
            {
                MPI.COMM_WORLD.Allreduce(in, 0, out, 0, doubles, MPI.DOUBLE, MPI.SUM);
            }
            return System.nanoTime() - start;
        };
    }
}
