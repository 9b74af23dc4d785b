package mpjrun.agent;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import com.sun.management.ThreadMXBean;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * Counts the heap bytes this rank's thread allocates per round trip of blocking {@code Send} and {@code Recv}
 * between ranks 0 and 1, 2 and 3 and so on, for a {@code byte[8]}, an {@code int[256]} (1 KiB) and a
 * {@code double[8192]} (64 KiB), and per {@code Sendrecv} of an {@code int[256]} each way
 * ({@code ThreadMXBean.getCurrentThreadAllocatedBytes} around loops of round trips, less what reading the counter
 * allocates). After a warm-up long enough for the JIT to compile the path, it measures {@value #ROUNDS} rounds of
 * {@value #ROUND_TRIPS} round trips and prints one line per message: bytes per round trip in each round. It
 * prints, too, the bytes of the one object a round trip must make: the {@code mpi.Status} that {@code Recv}
 * returns (the program may keep it), measured here the same way.
 */
public final class PointToPointAllocationProgram
{
    static final String BYTES_PER_ROUND_TRIP = " bytes per round trip: ";
    static final String STATUS_BYTES = " bytes per mpi.Status: ";
    static final int ROUNDS = 5;
    static final int ROUND_TRIPS = 2000;
    private static final int WARMUP_ROUND_TRIPS = 30_000;
    private static final int TAG = 11;

    private PointToPointAllocationProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int peer = rank ^ 1;
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        final byte[] bytes = new byte[8];
        final int[] ints = new int[256];
        final double[] doubles = new double[8192];
        final int[] received = new int[256];
        final boolean first = rank % 2 == 0;
        final RoundTrip[] trips = {
            () -> roundTrip(world, first, peer, bytes, bytes.length, MPI.BYTE),
            () -> roundTrip(world, first, peer, ints, ints.length, MPI.INT),
            () -> roundTrip(world, first, peer, doubles, doubles.length, MPI.DOUBLE),
            () -> world.Sendrecv(ints, 0, ints.length, MPI.INT, peer, TAG, received, 0, received.length, MPI.INT, peer,
                TAG)};
        final String[] names = {"byte[8]", "int[256]", "double[8192]", "Sendrecv int[256]"};
        for (int i = 0; i < WARMUP_ROUND_TRIPS; i++)
        {
            for (final RoundTrip trip : trips)
            {
                trip.run();
            }
        }
        for (int t = 0; t < trips.length; t++)
        {
            final long[] perRoundTrip = new long[ROUNDS];
            for (int round = 0; round < ROUNDS; round++)
            {
                perRoundTrip[round] = allocatedBytes(threads, trips[t], ROUND_TRIPS) / ROUND_TRIPS;
            }
            System.out.println("rank " + rank + ": " + names[t] + BYTES_PER_ROUND_TRIP + Arrays.toString(perRoundTrip));
        }
        System.out.println("rank " + rank + ":" + STATUS_BYTES + statusBytes(threads));
        world.Barrier();
        MPI.Finalize();
    }

    /** Rank {@code first} sends then receives; its peer receives then sends; the message checked both ways. */
    private static void roundTrip(final Intracomm world, final boolean first, final int peer, final Object buffer,
        final int count, final mpi.Datatype type) throws Exception
    {
        if (first)
        {
            world.Send(buffer, 0, count, type, peer, TAG);
            world.Recv(buffer, 0, count, type, peer, TAG);
        }
        else
        {
            world.Recv(buffer, 0, count, type, peer, TAG);
            world.Send(buffer, 0, count, type, peer, TAG);
        }
    }

    /** Bytes of one mpi.Status as Recv makes it, kept in an array so that the JIT cannot leave it out. */
    private static long statusBytes(final ThreadMXBean threads)
    {
        final Status[] kept = new Status[ROUND_TRIPS];
        final mpjdev.Status from = new mpjdev.Status();
        final long emptyStart = threads.getCurrentThreadAllocatedBytes();
        final long emptyEnd = threads.getCurrentThreadAllocatedBytes();
        final long start = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < kept.length; i++)
        {
            kept[i] = new Status(from);
        }
        final long end = threads.getCurrentThreadAllocatedBytes();
        return (end - start - (emptyEnd - emptyStart)) / kept.length;
    }

    /** Bytes this thread allocates in {@code count} round trips, less those of reading the counter twice. */
    private static long allocatedBytes(final ThreadMXBean threads, final RoundTrip trip, final int count)
        throws Exception
    {
        final long emptyStart = threads.getCurrentThreadAllocatedBytes();
        final long emptyEnd = threads.getCurrentThreadAllocatedBytes();
        final long start = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < count; i++)
        {
            trip.run();
        }
        final long end = threads.getCurrentThreadAllocatedBytes();
        return end - start - (emptyEnd - emptyStart);
    }

    /** One round trip (a lambda made once, before the measured loops). */
    @FunctionalInterface
    private interface RoundTrip
    {
        void run() throws Exception;
    }
}
