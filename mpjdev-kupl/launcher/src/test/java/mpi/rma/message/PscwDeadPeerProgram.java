package mpi.rma.message;

import mpi.Group;
import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * Two ranks and a window of the flavour {@code args[0]} ({@code shared}: flag words in shared memory;
 * {@code create}: messages); rank 1 dies without {@code MPI.Finalize} in the role {@code args[1]}:
 * {@code origin}: after its start and a put, before its complete, so rank 0's waitFor must fail naming
 * it; {@code target}: before its post, so rank 0's start must fail naming it. Rank 0 prints
 * {@code rank 0 dead peer <error class> <message>} (or {@code rank 0 dead peer returned}) and halts: a
 * job with a dead rank cannot finalize.
 */
public final class PscwDeadPeerProgram
{
    private PscwDeadPeerProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final boolean shared = args[0].equals("shared");
        final boolean originDies = args[1].equals("origin");
        final Win win = shared ? Win.allocateShared(Long.BYTES, Long.BYTES, null, MPI.COMM_WORLD) :
            Win.create(new long[1], Long.BYTES, null, MPI.COMM_WORLD);
        final Group other = win.getGroup().Incl(new int[] {1 - rank});
        MPI.COMM_WORLD.Barrier();
        if (rank == 1)
        {
            if (originDies)
            {
                win.start(other, 0);
                win.put(new long[] {1}, 0, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            }
            System.out.println("rank 1 dies");
            System.out.flush();
            // Status 0: the launcher stops a job at its first failing rank, which would kill rank 0 too.
            Runtime.getRuntime().halt(0);
        }
        String outcome;
        try
        {
            if (originDies)
            {
                win.post(other, 0);
                win.waitFor();
            }
            else
            {
                Thread.sleep(300);
                win.start(other, 0);
            }
            outcome = "returned";
        }
        catch (final RmaException e)
        {
            outcome = e.errorClass() + " " + e.getMessage();
        }
        System.out.println("rank 0 dead peer " + outcome);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
