package mpjrun.agent.progress;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * A load of the kind real programs make: in each round every rank sends every other rank one message of a
 * random size from 0 bytes to {@value #MAX_BYTES} bytes (most short, some eager, some far above the eager
 * limit) with {@code Isend}s and {@code Irecv}s, waits for its receives and checks every element, then runs
 * the round's collectives (one of Allreduce of the bytes moved, Barrier and Allgather by turns, then a Bcast
 * of rank 0's decision whether to go on) with its sends still pending, and completes them only after: a
 * rank whose receives are done waits in the collectives while its peers' receives may need its sends to
 * move. Sizes come from a generator seeded by round, sender and receiver, so that both sides agree on them.
 *
 * <p>Arguments: {@code [seconds]}, how long rank 0 goes on starting rounds (default 60). Each rank prints
 * {@code LOAD <rank> ok <messages> messages, <bytes> bytes, <rounds> rounds}.
 */
public final class RandomExchangeLoad
{
    private static final int MAX_BYTES = 3 * 1024 * 1024;
    private static final int TAG = 40;

    private RandomExchangeLoad()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] own = MPI.Init(args);
        final long seconds = own.length > 0 ? Long.parseLong(own[0]) : 60;
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        final long endNs = System.nanoTime() + seconds * 1_000_000_000L;
        long messages = 0;
        long bytes = 0;
        int round = 0;
        final int[] goOn = {1};
        while (goOn[0] == 1)
        {
            final List<Request> receives = new ArrayList<>();
            final List<Request> sends = new ArrayList<>();
            final int[][] received = new int[size][];
            for (int peer = 0; peer < size; peer++)
            {
                if (peer != rank)
                {
                    received[peer] = new int[length(round, peer, rank)];
                    receives.add(world.Irecv(received[peer], 0, received[peer].length, MPI.INT, peer, TAG));
                    final int[] message = pattern(round, rank, peer);
                    sends.add(world.Isend(message, 0, message.length, MPI.INT, peer, TAG));
                }
            }
            Request.Waitall(receives.toArray(new Request[0]));
            for (int peer = 0; peer < size; peer++)
            {
                if (peer != rank)
                {
                    check(received[peer], pattern(round, peer, rank), round, peer, rank);
                    messages++;
                    bytes += 4L * received[peer].length;
                }
            }
            round++;
            switch (round % 4)
            {
                case 0 ->
                {
                    final long[] total = new long[1];
                    world.Allreduce(new long[] {bytes}, 0, total, 0, 1, MPI.LONG, MPI.SUM);
                }
                case 1 -> world.Barrier();
                case 2 ->
                {
                    final int[] rounds = new int[size];
                    world.Allgather(new int[] {round}, 0, 1, MPI.INT, rounds, 0, 1, MPI.INT);
                    for (final int seen : rounds)
                    {
                        if (seen != round)
                        {
                            throw new IllegalStateException("rank " + rank + ": Allgather of rounds gave " + seen +
                                " in round " + round);
                        }
                    }
                }
                default ->
                {
                }
            }
            goOn[0] = rank == 0 && System.nanoTime() - endNs < 0 ? 1 : 0;
            world.Bcast(goOn, 0, 1, MPI.INT, 0);
            Request.Waitall(sends.toArray(new Request[0]));
            if (rank == 0 && round % 50 == 0)
            {
                System.out.println("LOAD round " + round + ": " + messages + " messages checked on rank 0");
            }
        }
        System.out.println("LOAD " + rank + " ok " + messages + " messages, " + bytes + " bytes, " + round + " rounds");
        MPI.Finalize();
    }

    /** Ints in the message from {@code sender} to {@code receiver} in {@code round}: mostly short, some huge. */
    private static int length(final int round, final int sender, final int receiver)
    {
        final SplittableRandom random = new SplittableRandom(((long)round << 32) ^ (sender * 65_537L + receiver));
        final int bytes = switch (random.nextInt(8))
        {
            case 0 -> 0;
            case 1, 2, 3 -> random.nextInt(4096);
            case 4, 5 -> random.nextInt(256 * 1024);
            default -> random.nextInt(MAX_BYTES);
        };
        return bytes / 4;
    }

    private static int[] pattern(final int round, final int sender, final int receiver)
    {
        final int[] data = new int[length(round, sender, receiver)];
        final int base = round * 7919 + sender * 131 + receiver;
        for (int i = 0; i < data.length; i++)
        {
            data[i] = base + i;
        }
        return data;
    }

    private static void check(final int[] data, final int[] expected, final int round, final int sender,
        final int receiver)
    {
        for (int i = 0; i < data.length; i++)
        {
            if (data[i] != expected[i])
            {
                throw new IllegalStateException("rank " + receiver + ", round " + round + ": element " + i +
                    " from rank " + sender + " is " + data[i] + ", not " + expected[i]);
            }
        }
    }
}
