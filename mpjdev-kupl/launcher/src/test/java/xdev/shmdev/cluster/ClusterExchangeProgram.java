package xdev.shmdev.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import mpi.MPI;
import mpi.Request;
import mpi.Status;
import xdev.shmdev.ClusterShmDevice;

/**
 * Point-to-point across both paths of the {@code shm} device in a job that spans nodes, checked by every
 * rank (any mismatch throws, which fails the job): which device runs and where each rank is; messages of
 * 0 B to 4 MiB to every other rank (on this node and on others) with their contents; receives from any
 * rank whose candidates come from both paths, in order per sender, each matched once; Ssend, Probe, Iprobe,
 * Waitall, Waitany, Testall; a rank waiting for another node's message while its own node's large message
 * to it waits for an answer (and the reverse); and MPJ Express's collectives on top. Prints
 * {@code rank R ...} lines the test reads, and {@code DONE rank R} last. Argument: the expected number
 * of nodes.
 */
public final class ClusterExchangeProgram
{
    private static final int[] SIZES = {0, 1, 8, 1024, 100_000, 200_000, 4 << 20};

    private ClusterExchangeProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        if (!(mpjdev.javampjdev.MPJDev.dev instanceof ClusterShmDevice device))
        {
            throw new AssertionError("rank " + rank + " runs " + mpjdev.javampjdev.MPJDev.dev);
        }
        final int nodes = device.nodeCount();
        if (nodes != Integer.parseInt(appArgs[0]))
        {
            throw new AssertionError("rank " + rank + ": " + nodes + " nodes, expected " + appArgs[0]);
        }
        System.out.println("rank " + rank + " device shm nodes=" + nodes + " node ranks=" +
            Arrays.toString(device.nodeRanks()));
        everySizeToEveryRank(rank, size);
        System.out.println("rank " + rank + " sizes ok");
        anySourceFromBothPaths(rank, size);
        System.out.println("rank " + rank + " any source ok");
        synchronousProbesAndWaits(rank, size);
        System.out.println("rank " + rank + " ssend probe waits ok");
        crossNodeWaitAnswersOwnNode(rank, size, device.nodeRanks());
        System.out.println("rank " + rank + " no starvation ok");
        collectives(rank, size);
        System.out.println("rank " + rank + " collectives ok");
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }

    /** Every size from every rank to every other, all posted at once (Irecv first), contents checked. */
    private static void everySizeToEveryRank(final int rank, final int size) throws Exception
    {
        for (final int bytes : SIZES)
        {
            final List<Request> requests = new ArrayList<>();
            final byte[][] in = new byte[size][];
            for (int peer = 0; peer < size; peer++)
            {
                if (peer != rank)
                {
                    in[peer] = new byte[bytes];
                    requests.add(MPI.COMM_WORLD.Irecv(in[peer], 0, bytes, MPI.BYTE, peer, 7));
                }
            }
            for (int peer = 0; peer < size; peer++)
            {
                if (peer != rank)
                {
                    requests.add(MPI.COMM_WORLD.Isend(pattern(rank, peer, bytes), 0, bytes, MPI.BYTE, peer, 7));
                }
            }
            Request.Waitall(requests.toArray(Request[]::new));
            for (int peer = 0; peer < size; peer++)
            {
                if (peer != rank && !Arrays.equals(in[peer], pattern(peer, rank, bytes)))
                {
                    throw new AssertionError("rank " + rank + ": " + bytes + " bytes from rank " + peer + " differ");
                }
            }
        }
    }

    /**
     * Every other rank sends rank 0 {@code COUNT} numbered messages with tags that vary; rank 0 receives them
     * all with ANY_SOURCE (and every tenth with ANY_TAG too, the rest by tag), some blocking and some posted
     * ahead, and checks that each sender's arrive in order and each exactly once.
     */
    private static void anySourceFromBothPaths(final int rank, final int size) throws Exception
    {
        final int count = 200;
        if (rank == 0)
        {
            final int[] next = new int[size];
            final int total = count * (size - 1);
            for (int received = 0; received < total; )
            {
                if (received % 3 == 0 && received + 4 <= total)
                {
                    final int[][] in = new int[4][2];
                    final Request[] ahead = new Request[4];
                    for (int i = 0; i < 4; i++)
                    {
                        ahead[i] = MPI.COMM_WORLD.Irecv(in[i], 0, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    }
                    for (int i = 0; i < 4; i++)
                    {
                        final Status status = ahead[i].Wait();
                        checkNext(next, status.source, in[i]);
                    }
                    received += 4;
                }
                else
                {
                    final int[] in = new int[2];
                    final Status status = MPI.COMM_WORLD.Recv(in, 0, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    checkNext(next, status.source, in);
                    received++;
                }
            }
            for (int peer = 1; peer < size; peer++)
            {
                if (next[peer] != count)
                {
                    throw new AssertionError("rank 0: " + next[peer] + " messages from rank " + peer + ", sent " + count);
                }
            }
        }
        else
        {
            for (int i = 0; i < count; i++)
            {
                MPI.COMM_WORLD.Send(new int[] {rank, i}, 0, 2, MPI.INT, 0, 100 + i % 5);
            }
        }
        MPI.COMM_WORLD.Barrier();
    }

    private static void checkNext(final int[] next, final int source, final int[] message)
    {
        if (message[0] != source || message[1] != next[source])
        {
            throw new AssertionError("rank 0: from rank " + source + " got " + Arrays.toString(message) +
                ", expected message " + next[source] + " of that rank");
        }
        next[source]++;
    }

    /** Ssend around a ring, Probe and Iprobe from any rank before the receive, Waitany, Testall. */
    private static void synchronousProbesAndWaits(final int rank, final int size) throws Exception
    {
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        final long[] got = new long[3];
        final Request receive = MPI.COMM_WORLD.Irecv(got, 0, 3, MPI.LONG, left, 21);
        MPI.COMM_WORLD.Ssend(new long[] {rank, right, 42}, 0, 3, MPI.LONG, right, 21);
        receive.Wait();
        if (got[0] != left || got[1] != rank || got[2] != 42)
        {
            throw new AssertionError("rank " + rank + ": Ssend ring got " + Arrays.toString(got));
        }
        MPI.COMM_WORLD.Send(new double[] {rank + 0.5}, 0, 1, MPI.DOUBLE, right, 22);
        final Status probed = MPI.COMM_WORLD.Probe(MPI.ANY_SOURCE, 22);
        if (probed.source != left || probed.Get_count(MPI.DOUBLE) != 1)
        {
            throw new AssertionError("rank " + rank + ": Probe found source " + probed.source + " count " +
                probed.Get_count(MPI.DOUBLE));
        }
        final double[] value = new double[1];
        MPI.COMM_WORLD.Recv(value, 0, 1, MPI.DOUBLE, probed.source, 22);
        if (value[0] != left + 0.5)
        {
            throw new AssertionError("rank " + rank + ": got " + value[0]);
        }
        MPI.COMM_WORLD.Barrier();
        final int[] token = new int[1];
        final Request[] pending = {
            MPI.COMM_WORLD.Irecv(token, 0, 1, MPI.INT, left, 23),
            MPI.COMM_WORLD.Isend(new int[] {rank}, 0, 1, MPI.INT, right, 23)};
        final Status first = Request.Waitany(pending);
        final Status second = Request.Waitany(pending);
        if (first == null || second == null || first.index == second.index)
        {
            throw new AssertionError("rank " + rank + ": Waitany gave " + first + " then " + second);
        }
        if (MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, 99) != null)
        {
            throw new AssertionError("rank " + rank + ": Iprobe found a message nobody sent");
        }
        final Request[] both = {
            MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, left, 24),
            MPI.COMM_WORLD.Isend(new int[] {rank}, 0, 1, MPI.INT, right, 24)};
        while (Request.Testall(both) == null)
        {
            Thread.onSpinWait();
        }
        if (token[0] != left)
        {
            throw new AssertionError("rank " + rank + ": Waitany token " + token[0]);
        }
    }

    /**
     * The first rank of each node waits for a message from the next node's second rank, which sends it only
     * after its own node's first rank has received a large message (a rendezvous through shared memory) from
     * it: every first rank must answer its node's large message while it waits for the network. Needs two
     * nodes or more with two ranks each or more.
     */
    private static void crossNodeWaitAnswersOwnNode(final int rank, final int size, final int[] nodeRanks)
        throws Exception
    {
        final int[] fewest = new int[1];
        MPI.COMM_WORLD.Allreduce(new int[] {nodeRanks.length}, 0, fewest, 0, 1, MPI.INT, MPI.MIN);
        final int[] leaderOf = new int[size];
        MPI.COMM_WORLD.Allgather(new int[] {nodeRanks[0]}, 0, 1, MPI.INT, leaderOf, 0, 1, MPI.INT);
        if (fewest[0] < 2 || nodeRanks.length == size)
        {
            MPI.COMM_WORLD.Barrier();
            return;
        }
        final int leader = nodeRanks[0];
        final int second = nodeRanks[1];
        // Ranks are placed in blocks: the rank before this node's first is on the previous node.
        final int previousLeader = leaderOf[(leader + size - 1) % size];
        final byte[] large = pattern(second, leader, 1 << 20);
        if (rank == leader)
        {
            final int[] go = new int[1];
            final Request fromNetwork = MPI.COMM_WORLD.Irecv(go, 0, 1, MPI.INT, MPI.ANY_SOURCE, 31);
            final byte[] in = new byte[large.length];
            final Request fromNode = MPI.COMM_WORLD.Irecv(in, 0, in.length, MPI.BYTE, second, 30);
            final Status status = fromNetwork.Wait();
            fromNode.Wait();
            if (!Arrays.equals(in, large) || leaderOf[status.source] == leader)
            {
                throw new AssertionError("rank " + rank + ": the large message from rank " + second +
                    " differs, or the go came from rank " + status.source + " of this node");
            }
        }
        else if (rank == second)
        {
            MPI.COMM_WORLD.Send(large, 0, large.length, MPI.BYTE, leader, 30);
            MPI.COMM_WORLD.Send(new int[] {1}, 0, 1, MPI.INT, previousLeader, 31);
        }
        MPI.COMM_WORLD.Barrier();
    }

    private static void collectives(final int rank, final int size) throws Exception
    {
        final double[] sum = new double[8];
        final double[] mine = new double[8];
        Arrays.fill(mine, rank + 1);
        MPI.COMM_WORLD.Allreduce(mine, 0, sum, 0, 8, MPI.DOUBLE, MPI.SUM);
        final double expected = size * (size + 1) / 2.0;
        for (final double value : sum)
        {
            if (value != expected)
            {
                throw new AssertionError("rank " + rank + ": Allreduce gave " + value + ", expected " + expected);
            }
        }
        final byte[] data = rank == 0 ? pattern(0, 1, 1 << 20) : new byte[1 << 20];
        MPI.COMM_WORLD.Bcast(data, 0, data.length, MPI.BYTE, 0);
        if (!Arrays.equals(data, pattern(0, 1, 1 << 20)))
        {
            throw new AssertionError("rank " + rank + ": Bcast differs");
        }
        MPI.COMM_WORLD.Barrier();
    }

    private static byte[] pattern(final int from, final int to, final int bytes)
    {
        final byte[] data = new byte[bytes];
        for (int i = 0; i < bytes; i++)
        {
            data[i] = (byte)(from * 31 + to * 17 + i * 7);
        }
        return data;
    }
}
