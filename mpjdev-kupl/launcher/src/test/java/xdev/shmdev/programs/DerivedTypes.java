package xdev.shmdev.programs;

import java.util.Arrays;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Rank 0 sends to every other rank a column of a row-major 4x5 matrix (Vector), a Contiguous
 * block, an Indexed selection, and Java objects (MPJ's dynamic section).
 */
public final class DerivedTypes
{
    private DerivedTypes()
    {
    }

    public static String run(final Intracomm comm) throws Exception
    {
        final int rank = comm.Rank();
        final int size = comm.Size();
        final Datatype column = Datatype.Vector(4, 1, 5, MPI.DOUBLE);
        column.Commit();
        final Datatype pair = Datatype.Contiguous(2, MPI.INT);
        pair.Commit();
        final Datatype picked = Datatype.Indexed(new int[] {2, 1}, new int[] {0, 5}, MPI.INT);
        picked.Commit();
        if (rank == 0)
        {
            final double[] matrix = new double[20];
            for (int i = 0; i < matrix.length; i++)
            {
                matrix[i] = i;
            }
            final int[] numbers = {1, 2, 3, 4, 5, 6, 7, 8};
            final Object[] objects = {"hello", Integer.valueOf(size), new int[] {3, 1, 4}};
            for (int peer = 1; peer < size; peer++)
            {
                comm.Send(matrix, 2, 1, column, peer, 20);
                comm.Send(numbers, 0, 3, pair, peer, 21);
                comm.Send(numbers, 0, 1, picked, peer, 22);
                comm.Send(objects, 0, 3, MPI.OBJECT, peer, 23);
            }
            return "sent to " + (size - 1);
        }
        final double[] col = new double[4];
        comm.Recv(col, 0, 4, MPI.DOUBLE, 0, 20);
        final int[] pairs = new int[6];
        comm.Recv(pairs, 0, 3, pair, 0, 21);
        final int[] selection = new int[3];
        comm.Recv(selection, 0, 3, MPI.INT, 0, 22);
        final Object[] objects = new Object[3];
        comm.Recv(objects, 0, 3, MPI.OBJECT, 0, 23);
        return "column=" + Arrays.toString(col) + " pairs=" + Arrays.toString(pairs) + " indexed=" +
            Arrays.toString(selection) + " objects=" + objects[0] + "," + objects[1] + "," +
            Arrays.toString((int[])objects[2]);
    }

    public static void main(final String[] args) throws Exception
    {
        Programs.main(args, "derived");
    }
}
