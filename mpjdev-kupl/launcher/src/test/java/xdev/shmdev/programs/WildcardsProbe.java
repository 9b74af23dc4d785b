package xdev.shmdev.programs;

import java.util.Arrays;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * Every rank but 0 sends rank + 1 integers with tag = rank to rank 0, which probes with
 * ANY_SOURCE and ANY_TAG, sizes its buffer with Get_count and receives from the probed source.
 */
public final class WildcardsProbe
{
    private WildcardsProbe()
    {
    }

    public static String run(final Intracomm comm) throws Exception
    {
        final int rank = comm.Rank();
        final int size = comm.Size();
        if (rank != 0)
        {
            final int[] data = new int[rank + 1];
            Arrays.fill(data, rank);
            comm.Send(data, 0, data.length, MPI.INT, 0, rank);
            return "sent " + data.length;
        }
        final String[] seen = new String[size - 1];
        for (int i = 0; i < size - 1; i++)
        {
            final Status probed = comm.Probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
            final int count = probed.Get_count(MPI.INT);
            final int[] data = new int[count];
            final Status status = comm.Recv(data, 0, count, MPI.INT, probed.source, MPI.ANY_TAG);
            seen[status.source - 1] = status.source + ":" + status.tag + ":" + count + ":" + data[count - 1];
        }
        final boolean nothingLeft = comm.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null;
        return Arrays.toString(seen) + " nothing-left=" + nothingLeft;
    }

    public static void main(final String[] args) throws Exception
    {
        Programs.main(args, "wildcards");
    }
}
