package xdev.shmdev.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/** Every rank shifts a block to the right with Sendrecv and reports what came from the left. */
public final class SendrecvShift
{
    private SendrecvShift()
    {
    }

    public static String run(final Intracomm comm) throws Exception
    {
        final int rank = comm.Rank();
        final int size = comm.Size();
        final int[] out = new int[64];
        final int[] in = new int[64];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = rank * 1000 + i;
        }
        final Status status = comm.Sendrecv(out, 0, out.length, MPI.INT, (rank + 1) % size, 5,
            in, 0, in.length, MPI.INT, (rank + size - 1) % size, 5);
        return "from " + status.source + " first " + in[0] + " last " + in[63] + " count " + status.Get_count(MPI.INT);
    }

    public static void main(final String[] args) throws Exception
    {
        Programs.main(args, "sendrecv");
    }
}
