package mpjrun.agent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.User_function;
import xdev.shmdev.coll.ShmCollectives;

/**
 * Every collective the agent routes to shared memory, with every basic type and every operator MPJ Express
 * supports for it, on values whose floating-point sums depend on the order of the operands (1e16, 1,
 * -1e16). Each rank prints one line per result with the raw bits, so that two runs can be compared line for
 * line: on -dev shm (shared memory) and on MPJ Express's multicore device (its own algorithms). The last
 * line, {@value #HANDLED}, counts the calls that shared memory did.
 */
public final class CollectivesProgram
{
    static final String HANDLED = "handled by shared memory: ";
    private static final Datatype[] ARITHMETIC_TYPES = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG,
        MPI.FLOAT, MPI.DOUBLE};
    private static final Datatype[] INTEGER_TYPES = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG};
    private static final Datatype[] PAIR_TYPES = {MPI.SHORT2, MPI.INT2, MPI.LONG2, MPI.FLOAT2, MPI.DOUBLE2};

    private CollectivesProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final List<String> lines = new ArrayList<>();
        final Op userOp = new Op(new WeightedSum(), false);
        for (final int count : new int[] {5, 3000})
        {
            for (final Datatype type : ARITHMETIC_TYPES)
            {
                for (final Op op : new Op[] {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN})
                {
                    reductions(world, lines, type, op, count, name(type) + " " + opName(op));
                }
            }
            for (final Datatype type : INTEGER_TYPES)
            {
                for (final Op op : new Op[] {MPI.BAND, MPI.BOR, MPI.BXOR})
                {
                    reductions(world, lines, type, op, count, name(type) + " " + opName(op));
                }
            }
            for (final Op op : new Op[] {MPI.LAND, MPI.LOR, MPI.LXOR})
            {
                reductions(world, lines, MPI.BOOLEAN, op, count, "BOOLEAN " + opName(op));
            }
            for (final Datatype type : PAIR_TYPES)
            {
                reductions(world, lines, type, MPI.MAXLOC, count, name(type) + " MAXLOC");
                reductions(world, lines, type, MPI.MINLOC, count, name(type) + " MINLOC");
            }
            reductions(world, lines, MPI.DOUBLE, userOp, count, "DOUBLE user");
        }
        edgeValueReductions(world, lines);
        for (final Datatype type : ARITHMETIC_TYPES)
        {
            exchanges(world, lines, type, name(type));
        }
        exchanges(world, lines, MPI.BOOLEAN, "BOOLEAN");
        final double[] big = (double[])values(MPI.DOUBLE, 200_000, rank);
        world.Bcast(big, 3, 199_990, MPI.DOUBLE, world.Size() - 1);
        lines.add("Bcast big " + render(big));
        // Over twice a staging slot's bytes: the root's slot is used as a ring, round it more than once.
        final int[] bigger = (int[])values(MPI.INT, 600_000, rank);
        world.Bcast(bigger, 0, bigger.length, MPI.INT, 0);
        lines.add("Bcast bigger " + render(bigger));
        world.Barrier();
        // A second communicator: the even and the odd ranks, freed again.
        final Intracomm half = world.Split(rank % 2, rank);
        final double[] sum = new double[4];
        half.Allreduce(values(MPI.DOUBLE, 4, rank), 0, sum, 0, 4, MPI.DOUBLE, MPI.SUM);
        lines.add("half Allreduce " + render(sum));
        half.Free();
        for (final String line : lines)
        {
            System.out.println("rank " + rank + ": " + line);
        }
        System.out.println("rank " + rank + ": " + HANDLED + ShmCollectives.handledCalls());
        MPI.Finalize();
    }

    private static void reductions(final Intracomm comm, final List<String> lines, final Datatype type, final Op op,
        final int count, final String what) throws Exception
    {
        final int rank = comm.Rank();
        final int elements = count * type.Size();
        final Object send = values(type, elements, rank);
        final Object all = values(type, elements, -1);
        comm.Allreduce(send, 0, all, 0, count, type, op);
        lines.add("Allreduce " + count + " " + what + " " + render(all));
        for (final int root : new int[] {0, comm.Size() - 1})
        {
            final Object one = values(type, elements, -1);
            comm.Reduce(send, 0, one, 0, count, type, op, root);
            if (rank == root)
            {
                lines.add("Reduce to " + root + " " + count + " " + what + " " + render(one));
            }
        }
    }

    /**
     * Values where an operator's code shows: which operand a comparison keeps (NaN, signed zeros, infinities
     * under MAX and MIN), signed zeros and overflow in sums and products, integer wrap-around. Sums and
     * products see no NaN and no opposite infinities: a NaN made by them has a sign the JIT may choose.
     */
    private static void edgeValueReductions(final Intracomm comm, final List<String> lines) throws Exception
    {
        final double inf = Double.POSITIVE_INFINITY;
        final double[] compared = {Double.NaN, -0.0, 0.0, inf, -inf, 1.5, -0.0, Double.NaN, 0.0};
        final double[] combined = {-0.0, 0.0, 1e308, 3.0, -0.0, 1e-308};
        final long[] whole = {Long.MAX_VALUE, Long.MIN_VALUE, -1, 0, 7, Integer.MAX_VALUE, Integer.MIN_VALUE};
        final int count = 9;
        final int rank = comm.Rank();
        final Op[] ops = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN};
        for (final Op op : ops)
        {
            final double[] pool = op == MPI.MAX || op == MPI.MIN ? compared : combined;
            final double[] doubles = new double[count];
            final float[] floats = new float[count];
            final int[] ints = new int[count];
            final long[] longs = new long[count];
            for (int i = 0; i < count; i++)
            {
                doubles[i] = pool[(rank * 4 + i) % pool.length];
                floats[i] = (float)doubles[i];
                longs[i] = whole[(rank * 3 + i) % whole.length];
                ints[i] = (int)longs[i];
            }
            final Object[] sends = {doubles, floats, ints, longs};
            final Datatype[] types = {MPI.DOUBLE, MPI.FLOAT, MPI.INT, MPI.LONG};
            for (int t = 0; t < types.length; t++)
            {
                final Object all = values(types[t], count, -1);
                comm.Allreduce(sends[t], 0, all, 0, count, types[t], op);
                lines.add("Allreduce edge values " + name(types[t]) + " " + opName(op) + " " + render(all));
                final Object one = values(types[t], count, -1);
                comm.Reduce(sends[t], 0, one, 0, count, types[t], op, comm.Size() - 1);
                if (rank == comm.Size() - 1)
                {
                    lines.add("Reduce edge values " + name(types[t]) + " " + opName(op) + " " + render(one));
                }
            }
        }
    }

    private static void exchanges(final Intracomm comm, final List<String> lines, final Datatype type,
        final String what) throws Exception
    {
        final int rank = comm.Rank();
        final int size = comm.Size();
        final int block = 3;
        final Object bcast = values(type, 7, rank);
        comm.Bcast(bcast, 1, 5, type, size / 2);
        lines.add("Bcast " + what + " " + render(bcast));
        final Object gathered = values(type, 2 + size * block, -1);
        comm.Gather(values(type, block + 1, rank), 0, block, type, gathered, 0, block, type, size - 1);
        if (rank == size - 1)
        {
            lines.add("Gather " + what + " " + render(gathered));
        }
        final Object everyone = values(type, 1 + size * block, -1);
        comm.Allgather(values(type, block, rank), 0, block, type, everyone, 0, block, type);
        lines.add("Allgather " + what + " " + render(everyone));
        final Object scattered = values(type, block + 2, -1);
        comm.Scatter(values(type, size * block, rank), 0, block, type, scattered, 0, block, type, 0);
        lines.add("Scatter " + what + " " + render(scattered));
        final Object swapped = values(type, size * block, -1);
        comm.Alltoall(values(type, size * block + 1, rank), 0, block, type, swapped, 0, block, type);
        lines.add("Alltoall " + what + " " + render(swapped));
        // Offsets: left to MPJ Express on every rank (agreed in shared memory), which places blocks its own way.
        comm.Allgather(values(type, block + 1, rank), 1, block, type, everyone, 1, block, type);
        lines.add("Allgather offsets " + what + " " + render(everyone));
    }

    /** Rank {@code rank}'s values (-1: a receive buffer's sentinels), chosen so that the order of a sum shows. */
    static Object values(final Datatype type, final int elements, final int rank)
    {
        final double[] d = new double[elements];
        for (int i = 0; i < elements; i++)
        {
            final double big = type == MPI.FLOAT || type == MPI.FLOAT2 ? 1e8 : 1e16;
            d[i] = rank < 0 ? -7 : switch ((rank + i) % 3)
            {
                case 0 -> big * (1 + i % 5);
                case 1 -> 1 + 0.1 * rank + i;
                default -> -big * (1 + i % 5);
            };
        }
        final int base = ElementKinds.base(type);
        final Object array = ElementKinds.newArray(base, elements);
        for (int i = 0; i < elements; i++)
        {
            ElementKinds.set(array, i, rank < 0 ? -7 : d[i], rank < 0 ? -7 : rank * 31 + i * 7 + 3);
        }
        return array;
    }

    static String render(final Object array)
    {
        final String text = switch (array)
        {
            case double[] a -> Arrays.toString(Arrays.stream(a).mapToLong(Double::doubleToRawLongBits).toArray());
            case float[] a ->
            {
                final int[] bits = new int[a.length];
                for (int i = 0; i < a.length; i++)
                {
                    bits[i] = Float.floatToRawIntBits(a[i]);
                }
                yield Arrays.toString(bits);
            }
            case int[] a -> Arrays.toString(a);
            case long[] a -> Arrays.toString(a);
            case short[] a -> Arrays.toString(a);
            case byte[] a -> Arrays.toString(a);
            case char[] a -> Arrays.toString(new String(a).chars().toArray());
            case boolean[] a -> Arrays.toString(a);
            default -> throw new IllegalArgumentException(array.getClass().toString());
        };
        return text.length() > 400 ? "length " + text.length() + " hash " + text.hashCode() : text;
    }

    private static String name(final Datatype type)
    {
        final String[] names = {"BYTE", "CHAR", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE", "SHORT2", "INT2",
            "LONG2", "FLOAT2", "DOUBLE2"};
        final Datatype[] types = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE,
            MPI.SHORT2, MPI.INT2, MPI.LONG2, MPI.FLOAT2, MPI.DOUBLE2};
        return names[Arrays.asList(types).indexOf(type)];
    }

    private static String opName(final Op op)
    {
        final Op[] ops = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN, MPI.BAND, MPI.BOR, MPI.BXOR, MPI.LAND, MPI.LOR,
            MPI.LXOR};
        final String[] names = {"SUM", "PROD", "MAX", "MIN", "BAND", "BOR", "BXOR", "LAND", "LOR", "LXOR"};
        return names[Arrays.asList(ops).indexOf(op)];
    }

    /** A user operator whose result depends on which operand is which: inout = 2 * in + inout. */
    static final class WeightedSum extends User_function
    {
        @Override
        public void Call(final Object invec, final int inoffset, final Object inoutvec, final int inoutoffset,
            final int count, final Datatype datatype)
        {
            final double[] in = (double[])invec;
            final double[] inout = (double[])inoutvec;
            for (int i = 0; i < count; i++)
            {
                inout[inoutoffset + i] = 2 * in[inoffset + i] + inout[inoutoffset + i];
            }
        }
    }

    /** Arrays of each base type, filled from a double (floating types) or an int (the others). */
    static final class ElementKinds
    {
        private ElementKinds()
        {
        }

        static int base(final Datatype type)
        {
            final Datatype[][] groups = {{MPI.BYTE}, {MPI.CHAR}, {MPI.SHORT, MPI.SHORT2}, {MPI.INT, MPI.INT2},
                {MPI.LONG, MPI.LONG2}, {MPI.FLOAT, MPI.FLOAT2}, {MPI.DOUBLE, MPI.DOUBLE2}, {MPI.BOOLEAN}};
            for (int g = 0; g < groups.length; g++)
            {
                if (Arrays.asList(groups[g]).contains(type))
                {
                    return g;
                }
            }
            throw new IllegalArgumentException("no base type");
        }

        static Object newArray(final int base, final int elements)
        {
            return switch (base)
            {
                case 0 -> new byte[elements];
                case 1 -> new char[elements];
                case 2 -> new short[elements];
                case 3 -> new int[elements];
                case 4 -> new long[elements];
                case 5 -> new float[elements];
                case 6 -> new double[elements];
                default -> new boolean[elements];
            };
        }

        static void set(final Object array, final int i, final double real, final int whole)
        {
            switch (array)
            {
                case byte[] a -> a[i] = (byte)whole;
                case char[] a -> a[i] = (char)(whole & 0xff);
                case short[] a -> a[i] = (short)whole;
                case int[] a -> a[i] = whole;
                case long[] a -> a[i] = (long)whole << 20 | i;
                case float[] a -> a[i] = (float)real;
                case double[] a -> a[i] = real;
                case boolean[] a -> a[i] = whole % 3 == 0;
                default -> throw new IllegalArgumentException(array.getClass().toString());
            }
        }
    }
}
