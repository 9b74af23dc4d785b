package mpi.rma.message;

import java.util.concurrent.atomic.AtomicReference;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * What the message path of {@code mpi.rma} relies on in MPJ Express: two threads of each rank
 * calling it at once on different communicators. A daemon thread stays blocked in
 * {@code Recv(ANY_SOURCE)} on communicator P while the main thread, on communicator C, runs a
 * Sendrecv ring, an Allreduce and a Barrier per round, and between them sends one message on P
 * to its right neighbour and, with the argument {@code self}, one to itself (the receiver then gets
 * {@code 2 * ROUNDS} messages). niodev 0.44 loses the wake-up of a receive that one thread posted
 * when another thread of the same process sends the matching message (its self-send path sets the
 * request complete without notifying the waiter): with {@code self} it hangs there, so the message
 * path never sends to its own process.
 * Needs 2 ranks or more. Each rank prints {@code rank R concurrent ok} or what went wrong, then {@code DONE rank R}.
 */
public final class ConcurrentCallsProgram
{
    private static final int ROUNDS = 200;
    private static final int TAG = 7;

    private ConcurrentCallsProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final boolean toSelf = args.length > 0 && args[args.length - 1].equals("self");
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final Intracomm p = (Intracomm)MPI.COMM_WORLD.clone();
        final Intracomm c = (Intracomm)MPI.COMM_WORLD.clone();
        final int left = (rank + size - 1) % size;
        final int right = (rank + 1) % size;

        final AtomicReference<String> receiverVerdict = new AtomicReference<>("receiver did not finish");
        final Thread receiver = new Thread(() -> receiverVerdict.set(receive(p, rank, left, toSelf ? ROUNDS : 0)), "receiver-" + rank);
        receiver.setDaemon(true);
        receiver.start();

        String verdict = "ok";
        for (int round = 0; round < ROUNDS && verdict.equals("ok"); round++)
        {
            p.Send(new int[] {round}, 0, 1, MPI.INT, right, TAG);
            final int[] fromLeft = new int[1];
            c.Sendrecv(new int[] {rank * 1000 + round}, 0, 1, MPI.INT, right, 1, fromLeft, 0, 1, MPI.INT, left, 1);
            final int[] sum = new int[1];
            c.Allreduce(new int[] {round}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            if (toSelf)
            {
                p.Send(new int[] {round}, 0, 1, MPI.INT, rank, TAG);
            }
            c.Barrier();
            if (fromLeft[0] != left * 1000 + round || sum[0] != round * size)
            {
                verdict = "wrong in round " + round + ": sendrecv " + fromLeft[0] + " allreduce " + sum[0];
            }
        }
        receiver.join(60_000);
        System.out.println("rank " + rank + " main " + verdict + ", receiver " + receiverVerdict.get());
        System.out.println("rank " + rank + (verdict.equals("ok") && receiverVerdict.get().equals("ok") ?
            " concurrent ok" : " concurrent FAILED"));
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }

    /** Receives ROUNDS messages from {@code left} and {@code fromSelf} from itself, each sender's in order. */
    private static String receive(final Intracomm p, final int rank, final int left, final int fromSelf)
    {
        int nextFromLeft = 0;
        int nextFromSelf = 0;
        while (nextFromLeft < ROUNDS || nextFromSelf < fromSelf)
        {
            final int[] value = new int[1];
            final Status status = p.Recv(value, 0, 1, MPI.INT, MPI.ANY_SOURCE, TAG);
            final boolean inOrder = status.source == left ? value[0] == nextFromLeft++ :
                status.source == rank && value[0] == nextFromSelf++;
            if (!inOrder)
            {
                return "got " + value[0] + " from rank " + status.source + " out of order or from an unexpected rank";
            }
        }
        return "ok";
    }
}
