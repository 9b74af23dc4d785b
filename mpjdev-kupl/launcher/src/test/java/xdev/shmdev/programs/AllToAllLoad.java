package xdev.shmdev.programs;

import java.util.ArrayList;
import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * The load of a many-rank job on the device: Barrier, Allreduce, then an all-to-all in which
 * every rank sends every other rank one message at once (16 bytes, 64 KiB eager or 200 KB
 * rendezvous, depending on the pair) and checks every value it receives, then MPI's Alltoall.
 * Each rank prints {@code ALLTOALL <rank> ok <messages checked>}; a wrong value is an exception
 * naming sender, receiver and index.
 */
public final class AllToAllLoad
{
    private static final int TAG = 14;
    /** Message lengths in ints: below, at and above the device's eager limit of 128 KiB. */
    private static final int[] LENGTHS = {4, 16 * 1024, 50_000};

    private AllToAllLoad()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        world.Barrier();

        final long[] sum = new long[1];
        world.Allreduce(new long[] {rank + 1}, 0, sum, 0, 1, MPI.LONG, MPI.SUM);
        if (sum[0] != (long)size * (size + 1) / 2)
        {
            throw new IllegalStateException("rank " + rank + ": Allreduce gave " + sum[0] + ", not " +
                (long)size * (size + 1) / 2);
        }

        final List<Request> requests = new ArrayList<>();
        final int[][] received = new int[size][];
        for (int step = 1; step < size; step++)
        {
            final int peer = (rank + step) % size;
            final int[] message = pattern(rank, peer);
            requests.add(world.Isend(message, 0, message.length, MPI.INT, peer, TAG));
            final int from = (rank + size - step) % size;
            received[from] = new int[length(from, rank)];
            requests.add(world.Irecv(received[from], 0, received[from].length, MPI.INT, from, TAG));
        }
        Request.Waitall(requests.toArray(new Request[0]));
        for (int from = 0; from < size; from++)
        {
            if (from != rank)
            {
                check(received[from], pattern(from, rank), from, rank);
            }
        }

        final int[] out = new int[size];
        final int[] in = new int[size];
        for (int peer = 0; peer < size; peer++)
        {
            out[peer] = rank * size + peer;
        }
        world.Alltoall(out, 0, 1, MPI.INT, in, 0, 1, MPI.INT);
        for (int peer = 0; peer < size; peer++)
        {
            if (in[peer] != peer * size + rank)
            {
                throw new IllegalStateException("rank " + rank + ": Alltoall gave " + in[peer] + " from rank " + peer);
            }
        }
        world.Barrier();
        System.out.println("ALLTOALL " + rank + " ok " + (size - 1));
        MPI.Finalize();
    }

    private static int length(final int from, final int to)
    {
        return LENGTHS[(from + 2 * to) % LENGTHS.length];
    }

    private static int[] pattern(final int from, final int to)
    {
        final int[] values = new int[length(from, to)];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = from * 1_000_003 + to * 7919 + i;
        }
        return values;
    }

    private static void check(final int[] values, final int[] expected, final int from, final int to)
    {
        for (int i = 0; i < expected.length; i++)
        {
            if (values[i] != expected[i])
            {
                throw new IllegalStateException("rank " + to + ": value " + i + " of " + expected.length +
                    " from rank " + from + " is " + values[i] + ", not " + expected[i]);
            }
        }
    }
}
