package mpjrun;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import mpi.MPI;
import mpi.Request;
import mpi.rma.Win;

/**
 * The program a {@link RankAotCache} is trained with: an ordinary MPJ Express program of this project's own
 * (never the user's, so no user code runs twice) that takes the {@code shm} device and MPJ Express's layers
 * through what programs use: point-to-point messages short and long, blocking and not, every collective of
 * {@code Intracomm} that the agent runs through shared memory, and an {@code mpi.rma} shared window with
 * fences. The rank JVM that records the cache then holds these classes loaded and linked, and the profiles
 * of their hot methods, so that a later job starts where this one ended rather than from nothing.
 *
 * <p>Each part runs often enough for the JIT to profile it (thousands of short calls, dozens of long ones),
 * and the whole job takes a few seconds. It checks what it receives and fails on a wrong value, so that a
 * cache is never made from a job that went wrong.
 *
 * <pre>bin/mpjrun -np 2 -dev shm mpjrun.AotTrainingProgram [rounds]</pre>
 */
public final class AotTrainingProgram
{
    /** Rounds of short messages and collectives, when no argument says otherwise. */
    static final int DEFAULT_ROUNDS = 3000;
    /** Elements of the long messages: 1 MiB of doubles, past every eager threshold. */
    private static final int LONG_DOUBLES = 128 * 1024;
    /** One long round every this many short ones. */
    private static final int LONG_EVERY = 100;

    private AotTrainingProgram()
    {
    }

    public static void main(final String[] args)
    {
        final String[] appArgs = MPI.Init(args);
        final int rounds = appArgs.length > 0 ? Integer.parseInt(appArgs[0]) : DEFAULT_ROUNDS;
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final double[] longMessage = new double[LONG_DOUBLES];
        for (int round = 0; round < rounds; round++)
        {
            pointToPoint(rank, size, round, new int[1]);
            collectives(rank, size, round, 8);
            if (round % LONG_EVERY == 0)
            {
                longMessages(rank, size, round, longMessage);
            }
        }
        if (hasRmaApi())
        {
            SharedWindowPart.run(rank, size);
        }
        MPI.Finalize();
    }

    /** A ring shift with Sendrecv, then the same with Isend/Irecv and Wait. */
    private static void pointToPoint(final int rank, final int size, final int round, final int[] value)
    {
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        final int[] sent = {round * size + rank};
        MPI.COMM_WORLD.Sendrecv(sent, 0, 1, MPI.INT, right, 0, value, 0, 1, MPI.INT, left, 0);
        check(value[0] == round * size + left, "Sendrecv", round);
        final Request receive = MPI.COMM_WORLD.Irecv(value, 0, 1, MPI.INT, left, 1);
        final Request send = MPI.COMM_WORLD.Isend(sent, 0, 1, MPI.INT, right, 1);
        send.Wait();
        receive.Wait();
        check(value[0] == round * size + left, "Isend/Irecv", round);
    }

    private static void collectives(final int rank, final int size, final int round, final int count)
    {
        MPI.COMM_WORLD.Barrier();
        final int root = round % size;
        final double[] values = new double[count];
        if (rank == root)
        {
            Arrays.fill(values, round);
        }
        MPI.COMM_WORLD.Bcast(values, 0, count, MPI.DOUBLE, root);
        check(values[count - 1] == round, "Bcast", round);
        final double[] sum = new double[count];
        Arrays.fill(values, rank + 1);
        MPI.COMM_WORLD.Allreduce(values, 0, sum, 0, count, MPI.DOUBLE, MPI.SUM);
        check(sum[0] == size * (size + 1) / 2.0, "Allreduce", round);
        final int[] mine = {rank};
        final int[] reduced = new int[1];
        MPI.COMM_WORLD.Reduce(mine, 0, reduced, 0, 1, MPI.INT, MPI.MAX, root);
        check(rank != root || reduced[0] == size - 1, "Reduce", round);
        final int[] all = new int[size];
        MPI.COMM_WORLD.Allgather(mine, 0, 1, MPI.INT, all, 0, 1, MPI.INT);
        check(all[size - 1] == size - 1, "Allgather", round);
        final int[] gathered = new int[size];
        MPI.COMM_WORLD.Gather(mine, 0, 1, MPI.INT, gathered, 0, 1, MPI.INT, root);
        check(rank != root || gathered[size - 1] == size - 1, "Gather", round);
        final int[] scattered = new int[1];
        MPI.COMM_WORLD.Scatter(all, 0, 1, MPI.INT, scattered, 0, 1, MPI.INT, root);
        check(scattered[0] == rank, "Scatter", round);
        final int[] exchanged = new int[size];
        MPI.COMM_WORLD.Alltoall(all, 0, 1, MPI.INT, exchanged, 0, 1, MPI.INT);
        check(exchanged[size - 1] == rank, "Alltoall", round);
    }

    /** 1 MiB by Bcast from a root that moves round by round, and around the ring. */
    private static void longMessages(final int rank, final int size, final int round, final double[] buffer)
    {
        final int root = (round / LONG_EVERY) % size;
        if (rank == root)
        {
            Arrays.fill(buffer, round);
        }
        MPI.COMM_WORLD.Bcast(buffer, 0, buffer.length, MPI.DOUBLE, root);
        check(buffer[buffer.length - 1] == round, "long Bcast", round);
        final double[] received = new double[buffer.length];
        MPI.COMM_WORLD.Sendrecv(buffer, 0, buffer.length, MPI.DOUBLE, (rank + 1) % size, 2,
            received, 0, received.length, MPI.DOUBLE, (rank + size - 1) % size, 2);
        check(received[0] == round, "long Sendrecv", round);
    }

    /** Whether the {@code mpi.rma} API is on the class path (through MPJ Express's starter it is the program's). */
    private static boolean hasRmaApi()
    {
        try
        {
            Class.forName("mpi.rma.Win", false, AotTrainingProgram.class.getClassLoader());
            return true;
        }
        catch (final ClassNotFoundException | LinkageError e)
        {
            return false;
        }
    }

    /** A class of its own, so that nothing of {@code mpi.rma} is loaded where it is missing. */
    private static final class SharedWindowPart
    {
        private SharedWindowPart()
        {
        }

        /** A shared window per rank, each incrementing its right neighbour's counter between fences. */
        static void run(final int rank, final int size)
        {
            try (Win win = Win.allocateShared(Long.BYTES, Long.BYTES, null, MPI.COMM_WORLD))
            {
                final MemorySegment right = win.sharedQuery((rank + 1) % size).memory();
                win.fence(0);
                for (int i = 0; i < 100; i++)
                {
                    right.set(ValueLayout.JAVA_LONG, 0, right.get(ValueLayout.JAVA_LONG, 0) + 1);
                    win.fence(0);
                }
                check(win.base().get(ValueLayout.JAVA_LONG, 0) == 100, "window fence", 100);
            }
        }
    }

    private static void check(final boolean holds, final String what, final int round)
    {
        if (!holds)
        {
            throw new IllegalStateException("AOT training: " + what + " gave a wrong value in round " + round +
                " on rank " + MPI.COMM_WORLD.Rank());
        }
    }
}
