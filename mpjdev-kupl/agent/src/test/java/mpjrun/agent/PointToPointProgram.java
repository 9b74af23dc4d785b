package mpjrun.agent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import xdev.shmdev.ArrayMessages;

/**
 * Point-to-point calls as programs combine them, printing what each rank received ({@code rank R ...} lines,
 * the same on every device): every basic type at 0, 1, eager and rendezvous sizes; offsets; Isend, Irecv,
 * Ssend, Issend, Sendrecv; ANY_SOURCE and ANY_TAG with statuses; derived-type sends received as basic types and
 * the reverse; order on one tag across the two kinds of message; Probe then Recv; a send to itself. With the
 * argument {@code errors}, each rank instead prints how a truncated and a mistyped receive failed. The last
 * line, {@value #HANDLED}, counts the calls the direct path did.
 */
public final class PointToPointProgram
{
    static final String HANDLED = "handled directly: ";
    private static final int[] SIZES = {0, 1, 1000, 40_000};

    private PointToPointProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] rest = MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final List<String> lines = new ArrayList<>();
        if (rest.length > 0 && rest[0].equals("errors"))
        {
            errors(rank, size, lines);
        }
        else
        {
            everyType(rank, size, lines);
            offsetsAndNonBlocking(rank, size, lines);
            wildcards(rank, size, lines);
            derivedAndOrder(rank, size, lines);
            toItself(rank, lines);
        }
        MPI.COMM_WORLD.Barrier();
        for (final String line : lines)
        {
            System.out.println("rank " + rank + " " + line);
        }
        System.out.println("rank " + rank + " " + HANDLED + ArrayMessages.handledCalls());
        MPI.Finalize();
    }

    /** A ring of Sendrecv of each type and size: each rank checks what its left neighbour sent. */
    private static void everyType(final int rank, final int size, final List<String> lines) throws MPIException
    {
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        for (final int n : SIZES)
        {
            final double[] ds = new double[n];
            final double[] dr = new double[n];
            final int[] is = new int[n];
            final int[] ir = new int[n];
            final long[] ls = new long[n];
            final long[] lr = new long[n];
            final byte[] bs = new byte[n];
            final byte[] br = new byte[n];
            final char[] cs = new char[n];
            final char[] cr = new char[n];
            final short[] ss = new short[n];
            final short[] sr = new short[n];
            final float[] fs = new float[n];
            final float[] fr = new float[n];
            for (int i = 0; i < n; i++)
            {
                ds[i] = rank + i * 0.25;
                is[i] = rank * 1_000_003 + i;
                ls[i] = rank * 10_000_000_019L + i;
                bs[i] = (byte)(rank + i);
                cs[i] = (char)(0x20AC + rank + i);
                ss[i] = (short)(rank - i);
                fs[i] = rank + i * 0.5f;
            }
            final Status d = MPI.COMM_WORLD.Sendrecv(ds, 0, n, MPI.DOUBLE, right, 1, dr, 0, n, MPI.DOUBLE, left, 1);
            final Status i = MPI.COMM_WORLD.Sendrecv(is, 0, n, MPI.INT, right, 2, ir, 0, n, MPI.INT, left, 2);
            final Status l = MPI.COMM_WORLD.Sendrecv(ls, 0, n, MPI.LONG, right, 3, lr, 0, n, MPI.LONG, left, 3);
            final Status b = MPI.COMM_WORLD.Sendrecv(bs, 0, n, MPI.BYTE, right, 4, br, 0, n, MPI.BYTE, left, 4);
            final Status c = MPI.COMM_WORLD.Sendrecv(cs, 0, n, MPI.CHAR, right, 5, cr, 0, n, MPI.CHAR, left, 5);
            final Status s = MPI.COMM_WORLD.Sendrecv(ss, 0, n, MPI.SHORT, right, 6, sr, 0, n, MPI.SHORT, left, 6);
            final Status f = MPI.COMM_WORLD.Sendrecv(fs, 0, n, MPI.FLOAT, right, 7, fr, 0, n, MPI.FLOAT, left, 7);
            lines.add("types n=" + n + ": double " + Arrays.hashCode(dr) + " " + describe(d, MPI.DOUBLE) + "; int " +
                Arrays.hashCode(ir) + " " + describe(i, MPI.INT) + "; long " + Arrays.hashCode(lr) + " " +
                describe(l, MPI.LONG) + "; byte " + Arrays.hashCode(br) + " " + describe(b, MPI.BYTE) + "; char " +
                Arrays.hashCode(cr) + " " + describe(c, MPI.CHAR) + "; short " + Arrays.hashCode(sr) + " " +
                describe(s, MPI.SHORT) + "; float " + Arrays.hashCode(fr) + " " + describe(f, MPI.FLOAT));
        }
    }

    /** Isend, Issend and Irecv with offsets, waited for together; then Ssend to the right, Recv from the left. */
    private static void offsetsAndNonBlocking(final int rank, final int size, final List<String> lines)
        throws MPIException
    {
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        final int[] send = new int[50];
        Arrays.setAll(send, i -> rank * 100 + i);
        final int[] received = new int[60];
        final long[] large = new long[30_000];
        Arrays.setAll(large, i -> rank * 7L + i);
        final long[] largeIn = new long[30_010];
        final Request[] requests = {
            MPI.COMM_WORLD.Irecv(received, 5, 20, MPI.INT, left, 11),
            MPI.COMM_WORLD.Irecv(largeIn, 10, 30_000, MPI.LONG, left, 12),
            MPI.COMM_WORLD.Isend(send, 3, 20, MPI.INT, right, 11),
            MPI.COMM_WORLD.Issend(large, 0, 30_000, MPI.LONG, right, 12)};
        final Status[] statuses = Request.Waitall(requests);
        lines.add("offsets: " + Arrays.toString(Arrays.copyOfRange(received, 0, 27)) + " large " +
            Arrays.hashCode(largeIn) + " " + describe(statuses[0], MPI.INT) + " " + describe(statuses[1], MPI.LONG));
        final double[] one = {rank + 0.5};
        final double[] got = new double[1];
        if (size == 1)
        {
            // A synchronous send to itself completes only once its receive is posted.
            final Request synchronous = MPI.COMM_WORLD.Issend(one, 0, 1, MPI.DOUBLE, right, 13);
            MPI.COMM_WORLD.Recv(got, 0, 1, MPI.DOUBLE, left, 13);
            synchronous.Wait();
        }
        else if (rank % 2 == 0)
        {
            MPI.COMM_WORLD.Ssend(one, 0, 1, MPI.DOUBLE, right, 13);
            MPI.COMM_WORLD.Recv(got, 0, 1, MPI.DOUBLE, left, 13);
        }
        else
        {
            MPI.COMM_WORLD.Recv(got, 0, 1, MPI.DOUBLE, left, 13);
            MPI.COMM_WORLD.Ssend(one, 0, 1, MPI.DOUBLE, right, 13);
        }
        lines.add("ssend: " + got[0]);
    }

    /** Rank 0 takes one message from every other rank with ANY_SOURCE and ANY_TAG; statuses sorted by source. */
    private static void wildcards(final int rank, final int size, final List<String> lines) throws MPIException
    {
        if (rank == 0)
        {
            final List<String> seen = new ArrayList<>();
            for (int i = 1; i < size; i++)
            {
                final short[] buffer = new short[10];
                final Status status = MPI.COMM_WORLD.Recv(buffer, 0, 10, MPI.SHORT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                seen.add(status.source + "/" + status.tag + "/" + status.Get_count(MPI.SHORT) + "/" + buffer[0]);
            }
            seen.sort(null);
            lines.add("wildcards: " + seen);
        }
        else
        {
            final short[] buffer = new short[rank];
            Arrays.fill(buffer, (short)(rank * 3));
            MPI.COMM_WORLD.Send(buffer, 0, rank, MPI.SHORT, 0, 20 + rank);
        }
    }

    /**
     * Between ranks 0 and 1: a contiguous derived type sent and basic elements received, and the reverse; then
     * three messages on one tag, basic, derived, basic, received as basic in their order; then Probe and Recv.
     */
    private static void derivedAndOrder(final int rank, final int size, final List<String> lines) throws MPIException
    {
        if (size < 2 || rank > 1)
        {
            return;
        }
        final Datatype four = Datatype.Contiguous(4, MPI.DOUBLE);
        four.Commit();
        final Datatype pairOfInts = Datatype.Contiguous(2, MPI.INT);
        pairOfInts.Commit();
        final double[] values = new double[12];
        Arrays.setAll(values, i -> i * 1.5 + rank);
        final double[] in = new double[12];
        if (rank == 0)
        {
            MPI.COMM_WORLD.Send(values, 0, 3, four, 1, 30);
            final Status status = MPI.COMM_WORLD.Recv(in, 0, 3, four, 1, 31);
            lines.add("derived in: " + Arrays.toString(in) + " count " + status.Get_count(four));
            MPI.COMM_WORLD.Send(new int[] {1, 1}, 0, 2, MPI.INT, 1, 32);
            MPI.COMM_WORLD.Send(new int[] {2, 2}, 0, 1, pairOfInts, 1, 32);
            MPI.COMM_WORLD.Send(new int[] {3, 3}, 0, 2, MPI.INT, 1, 32);
            MPI.COMM_WORLD.Send(new long[] {42, 43, 44}, 0, 3, MPI.LONG, 1, 33);
        }
        else
        {
            final Status status = MPI.COMM_WORLD.Recv(in, 0, 12, MPI.DOUBLE, 0, 30);
            lines.add("basic in: " + Arrays.toString(in) + " count " + status.Get_count(MPI.DOUBLE));
            MPI.COMM_WORLD.Send(values, 0, 12, MPI.DOUBLE, 0, 31);
            final StringBuilder order = new StringBuilder("order:");
            for (int i = 0; i < 3; i++)
            {
                final int[] pair = new int[2];
                MPI.COMM_WORLD.Recv(pair, 0, 2, MPI.INT, 0, MPI.ANY_TAG);
                order.append(' ').append(pair[0]).append(pair[1]);
            }
            lines.add(order.toString());
            final Status probed = MPI.COMM_WORLD.Probe(0, 33);
            final long[] longs = new long[probed.Get_count(MPI.LONG)];
            MPI.COMM_WORLD.Recv(longs, 0, longs.length, MPI.LONG, 0, 33);
            lines.add("probed " + probed.source + "/" + probed.tag + " " + Arrays.toString(longs));
        }
    }

    private static void toItself(final int rank, final List<String> lines) throws MPIException
    {
        final float[] mine = {rank, rank * 2f, rank * 3f};
        final Request request = MPI.COMM_WORLD.Isend(mine, 0, 3, MPI.FLOAT, rank, 40);
        final float[] back = new float[3];
        final Status status = MPI.COMM_WORLD.Recv(back, 0, 3, MPI.FLOAT, rank, 40);
        request.Wait();
        lines.add("itself: " + Arrays.toString(back) + " " + describe(status, MPI.FLOAT));
    }

    /** Rank 0 sends 10 ints twice; rank 1 receives 5 ints (truncated), then 10 doubles (mistyped). */
    private static void errors(final int rank, final int size, final List<String> lines) throws MPIException
    {
        if (rank == 0 && size > 1)
        {
            MPI.COMM_WORLD.Send(new int[10], 0, 10, MPI.INT, 1, 50);
            MPI.COMM_WORLD.Send(new int[10], 0, 10, MPI.INT, 1, 51);
        }
        else if (rank == 1)
        {
            lines.add("truncated: " + failure(() -> MPI.COMM_WORLD.Recv(new int[5], 0, 5, MPI.INT, 0, 50)));
            lines.add("mistyped: " + failure(() -> MPI.COMM_WORLD.Recv(new double[10], 0, 10, MPI.DOUBLE, 0, 51)));
        }
    }

    private interface Call
    {
        void run() throws MPIException;
    }

    private static String failure(final Call call)
    {
        try
        {
            call.run();
            return "no error";
        }
        catch (final RuntimeException e)
        {
            Throwable cause = e;
            while (cause.getCause() != null && cause.getCause() != cause)
            {
                cause = cause.getCause();
            }
            return "failed: " + cause;
        }
    }

    private static String describe(final Status status, final Datatype type) throws MPIException
    {
        return "(source " + status.source + ", tag " + status.tag + ", count " + status.Get_count(type) + ")";
    }
}
