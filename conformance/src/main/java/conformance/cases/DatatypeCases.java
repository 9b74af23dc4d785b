package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.Datatype;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/**
 * Derived MPJ Express datatypes on origin and target (docs/conformance-checklist.md#derived-datatypes).
 * MPJ Express measures displacements and strides in array elements, Hvector's and Hindexed's too.
 * {@link DatatypeAccumulateCases} has the accumulate family's.
 */
public final class DatatypeCases
{
    /** Rows and columns of the halo-exchange matrix; column 0 and the last column are ghosts. */
    private static final int ROWS = 6;
    private static final int COLUMNS = 5;

    /** The matrix the transpose cases move: T_ROWS x T_COLUMNS ints, row-major. */
    private static final int T_ROWS = 6;
    private static final int T_COLUMNS = 4;

    private DatatypeCases()
    {
    }

    /** Rank {@code rank}'s matrix of the transpose cases. */
    private static int[] matrix(final int rank)
    {
        final int[] matrix = new int[T_ROWS * T_COLUMNS];
        for (int k = 0; k < matrix.length; k++)
        {
            matrix[k] = rank * 1000 + k;
        }
        return matrix;
    }

    /**
     * The type that lays a row-major T_ROWS x T_COLUMNS matrix out as its transpose: the columns of the
     * transpose, one element apart (MPJ Express measures Hvector's stride in elements).
     */
    private static Datatype transposeType()
    {
        final Datatype column = Datatype.Vector(T_COLUMNS, 1, T_ROWS, MPI.INT);
        final Datatype transpose = Datatype.Hvector(T_ROWS, 1, 1, column);
        transpose.Commit();
        return transpose;
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.DATATYPES)
            .add("dtype.halo-column-put", Behaviour.DTYPE_CONSTRUCTORS,
                "each rank puts its last interior column of a 6x5 row-major matrix into the right neighbour's " +
                    "ghost column 0 with Vector(6, 1, 5, DOUBLE) on both sides, in one call: every row arrives, " +
                    "nothing else changes",
                "MPI-4.1 §12.3.1, §5.1.2 (MPI_TYPE_VECTOR); MPICH test/mpi/rma strided_putget_indexed",
                DatatypeCases::haloColumnPut)
            .add("dtype.indexed-get", Behaviour.DTYPE_CONSTRUCTORS,
                "get with Indexed({2, 1, 3}, {5, 0, 9}, INT) at the target into a contiguous origin: the six " +
                    "elements in type-map order (5, 6, 0, 9, 10, 11), not sorted",
                "MPI-4.1 §12.3.2, §5.1.4 (MPI_TYPE_INDEXED); MPICH test/mpi/rma strided_get_indexed",
                DatatypeCases::indexedGet)
            .add("dtype.transpose-put", Behaviour.DTYPE_CONSTRUCTORS,
                "each rank puts its 6x4 int matrix (row-major, contiguous at the origin) into its right neighbour " +
                    "as the 4x6 transpose, in one call whose target type is Hvector(6, 1, 1, Vector(4, 1, 6, INT)): " +
                    "element (j, i) there is element (i, j) here",
                "MPI-4.1 §12.3.1, §5.1.3 (a vector of hvectors, as MPI-1.1's transpose example); MPICH transpose1",
                DatatypeCases::transposePut)
            .add("dtype.transpose-get", Behaviour.DTYPE_CONSTRUCTORS,
                "each rank stores its 6x4 matrix, fence, and gets its right neighbour's into a local array with the " +
                    "transposing type on the origin side: the local array holds the 4x6 transpose",
                "MPI-4.1 §12.3.2, §5.1.3; MPICH transpose7", DatatypeCases::transposeGet)
            .add("dtype.put-indexed-target", Behaviour.DTYPE_CONSTRUCTORS,
                "a put of 6 contiguous ints from origin offset 2 into Indexed({2, 1, 3}, {7, 0, 3}, INT) at the " +
                    "right neighbour, between fences: the ints land at 7, 8, 0, 3, 4, 5 in that order, the other " +
                    "ints keep -1",
                "MPI-4.1 §12.3.1, §5.1.4 (MPI_TYPE_INDEXED, blocks in any order); MPICH putfidx",
                DatatypeCases::putIndexedTarget)
            .add("dtype.contiguous-and-count", Behaviour.DTYPE_CONSTRUCTORS,
                "put of 3 copies of Contiguous(2, LONG) into 6 LONGs at displacement 1, origin offset 1",
                "MPI-4.1 §12.3.1, §5.1.2 (MPI_TYPE_CONTIGUOUS)", DatatypeCases::contiguousAndCount)
            .add("dtype.hvector-hindexed-struct", Behaviour.DTYPE_CONSTRUCTORS,
                "Hvector(2, 2, 5, INT), Hindexed({1, 2}, {7, 3}, INT) and Struct({2, 1}, {0, 4}, {INT, INT}) as " +
                    "targets of puts of consecutive ints: each element where the type map puts it",
                "MPI-4.1 §5.1.3, §5.1.5, §5.1.6 (MPJ Express: displacements in elements)",
                DatatypeCases::hvectorHindexedStruct)
            .add("dtype.nested", Behaviour.DTYPE_CONSTRUCTORS,
                "Vector(2, 1, 3, Contiguous(2, SHORT)) on the origin into Indexed({2, 2}, {4, 0}, SHORT) at the " +
                    "target: origin elements 0, 1, 6, 7 land at 4, 5, 0, 1",
                "MPI-4.1 §5.1 (nested constructors), §12.3.1", DatatypeCases::nested)
            .add("dtype.signature-count-mismatch", Behaviour.DTYPE_SIGNATURE,
                "Vector(4, 1, 2, INT) on the origin against 3 INTs at the target: MPI_ERR_COUNT naming both " +
                    "element counts, nothing written",
                "MPI-4.1 §12.3.1 (type signatures match); docs/design.md#derived-datatypes",
                DatatypeCases::signatureCountMismatch)
            .add("dtype.signature-type-mismatch", Behaviour.DTYPE_SIGNATURE,
                "Contiguous(2, INT) on the origin against Contiguous(1, LONG) at the target (8 bytes each): " +
                    "MPI_ERR_TYPE",
                "MPI-4.1 §12.3.1 (type signatures match, not byte counts)", DatatypeCases::signatureTypeMismatch)
            .add("dtype.overlapping-target", Behaviour.DTYPE_SIGNATURE,
                "put into Indexed({2, 2}, {0, 1}, INT), which names element 1 twice: MPI_ERR_TYPE",
                "MPI-4.1 §12.3.1 (the target buffer is written as by a receive; overlapping entries are " +
                    "erroneous); docs/design.md#derived-datatypes", DatatypeCases::overlappingTarget)
            .add("dtype.past-the-end", Behaviour.DTYPE_RANGE,
                "Vector(3, 1, 4, LONG) (extent 9) at displacement 0 of an 8-long segment: MPI_ERR_RMA_RANGE, " +
                    "nothing written",
                "MPI-4.1 §12.3.1, §12.6.2; docs/design.md#accesses-past-the-end-are-rejected",
                DatatypeCases::pastTheEnd)
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .list();
    }

    private static void haloColumnPut(final CaseContext c) throws Exception
    {
        final Win win = c.window(ROWS * COLUMNS * 8, 8);
        final Datatype column = Datatype.Vector(ROWS, 1, COLUMNS, MPI.DOUBLE);
        column.Commit();
        final double[] matrix = new double[ROWS * COLUMNS];
        for (int i = 0; i < matrix.length; i++)
        {
            matrix[i] = c.rank() * 1000 + i;
        }
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        win.fence(0);
        for (int i = 0; i < ROWS * COLUMNS; i++)
        {
            Memory.setDouble(c.memory(win), i, -1);
        }
        win.fence(0);
        win.put(matrix, COLUMNS - 2, 1, column, right, c.disp(win, right, 0), 1, column);
        win.fence(Win.MODE_NOSUCCEED);
        for (int row = 0; row < ROWS; row++)
        {
            for (int col = 0; col < COLUMNS; col++)
            {
                final double expected = col == 0 ? left * 1000 + row * COLUMNS + COLUMNS - 2 : -1;
                c.checkEquals(Double.doubleToLongBits(expected),
                    Double.doubleToLongBits(Memory.getDouble(c.memory(win), row * COLUMNS + col)),
                    "row " + row + ", column " + col);
            }
        }
    }

    private static void indexedGet(final CaseContext c) throws Exception
    {
        final Win win = c.window(12 * 4, 4);
        final Datatype indexed = Datatype.Indexed(new int[] {2, 1, 3}, new int[] {5, 0, 9}, MPI.INT);
        indexed.Commit();
        win.fence(0);
        for (int i = 0; i < 12; i++)
        {
            Memory.setInt(c.memory(win), i, c.rank() * 100 + i);
        }
        win.fence(0);
        final int target = (c.rank() + 1) % c.size();
        final int[] got = new int[6];
        win.get(got, 0, 6, MPI.INT, target, c.disp(win, target, 0), 1, indexed);
        win.fence(Win.MODE_NOSUCCEED);
        final int[] expected = {5, 6, 0, 9, 10, 11};
        for (int k = 0; k < expected.length; k++)
        {
            c.checkEquals(target * 100 + expected[k], got[k], "element " + k);
        }
    }

    private static void transposePut(final CaseContext c) throws Exception
    {
        final Win win = c.window(4L * T_ROWS * T_COLUMNS, 4);
        final Datatype transpose = transposeType();
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        win.fence(0);
        win.put(matrix(c.rank()), 0, T_ROWS * T_COLUMNS, MPI.INT, right, c.disp(win, right, 0), 1, transpose);
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < T_ROWS; i++)
        {
            for (int j = 0; j < T_COLUMNS; j++)
            {
                c.checkEquals(matrix(left)[i * T_COLUMNS + j], Memory.getInt(c.memory(win), j * T_ROWS + i),
                    "element (" + j + ", " + i + ") of the transpose");
            }
        }
    }

    private static void transposeGet(final CaseContext c) throws Exception
    {
        final Win win = c.window(4L * T_ROWS * T_COLUMNS, 4);
        final Datatype transpose = transposeType();
        final int right = (c.rank() + 1) % c.size();
        win.fence(0);
        final int[] mine = matrix(c.rank());
        for (int k = 0; k < mine.length; k++)
        {
            Memory.setInt(c.memory(win), k, mine[k]);
        }
        win.fence(0);
        final int[] local = new int[T_ROWS * T_COLUMNS];
        win.get(local, 0, 1, transpose, right, c.disp(win, right, 0), T_ROWS * T_COLUMNS, MPI.INT);
        win.fence(Win.MODE_NOSUCCEED);
        final int[] theirs = matrix(right);
        for (int i = 0; i < T_ROWS; i++)
        {
            for (int j = 0; j < T_COLUMNS; j++)
            {
                c.checkEquals(theirs[i * T_COLUMNS + j], local[j * T_ROWS + i],
                    "element (" + j + ", " + i + ") of the transpose");
            }
        }
    }

    private static void putIndexedTarget(final CaseContext c) throws Exception
    {
        final Win win = c.window(12 * 4, 4);
        final Datatype indexed = Datatype.Indexed(new int[] {2, 1, 3}, new int[] {7, 0, 3}, MPI.INT);
        indexed.Commit();
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        win.fence(0);
        for (int i = 0; i < 12; i++)
        {
            Memory.setInt(c.memory(win), i, -1);
        }
        win.fence(0);
        final int[] origin = new int[8];
        for (int k = 0; k < 6; k++)
        {
            origin[2 + k] = c.rank() * 100 + k;
        }
        win.put(origin, 2, 6, MPI.INT, right, c.disp(win, right, 0), 1, indexed);
        win.fence(Win.MODE_NOSUCCEED);
        final int[] landing = {7, 8, 0, 3, 4, 5};
        final int[] expected = new int[12];
        java.util.Arrays.fill(expected, -1);
        for (int k = 0; k < landing.length; k++)
        {
            expected[landing[k]] = left * 100 + k;
        }
        for (int i = 0; i < 12; i++)
        {
            c.checkEquals(expected[i], Memory.getInt(c.memory(win), i), "int " + i);
        }
    }

    private static void contiguousAndCount(final CaseContext c) throws Exception
    {
        final Win win = c.window(8 * 8, 8);
        final Datatype pair = Datatype.Contiguous(2, MPI.LONG);
        pair.Commit();
        final long[] origin = {-1, 10, 11, 12, 13, 14, 15, -1};
        win.fence(0);
        win.put(origin, 1, 3, pair, c.rank(), c.disp(win, c.rank(), 1), 6, MPI.LONG);
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < 6; i++)
        {
            c.checkEquals(10 + i, Memory.getLong(c.memory(win), 1 + i), "element " + i);
        }
        c.checkEquals(0, Memory.getLong(c.memory(win), 7), "the element after the last");
    }

    private static void hvectorHindexedStruct(final CaseContext c) throws Exception
    {
        final Win win = c.window(3 * 10 * 4, 4);
        final Datatype[] types = {
            Datatype.Hvector(2, 2, 5, MPI.INT),
            Datatype.Hindexed(new int[] {1, 2}, new int[] {7, 3}, MPI.INT),
            Datatype.Struct(new int[] {2, 1}, new int[] {0, 4}, new Datatype[] {MPI.INT, MPI.INT})};
        final int[][] positions = {{0, 1, 5, 6}, {7, 3, 4}, {0, 1, 4}};
        win.fence(0);
        for (int t = 0; t < types.length; t++)
        {
            types[t].Commit();
            final int[] values = new int[positions[t].length];
            for (int k = 0; k < values.length; k++)
            {
                values[k] = 100 * (t + 1) + k;
            }
            win.put(values, 0, values.length, MPI.INT, c.rank(), c.disp(win, c.rank(), t * 10L), 1, types[t]);
        }
        win.fence(Win.MODE_NOSUCCEED);
        for (int t = 0; t < types.length; t++)
        {
            for (int k = 0; k < positions[t].length; k++)
            {
                c.checkEquals(100 * (t + 1) + k, Memory.getInt(c.memory(win), t * 10 + positions[t][k]),
                    "type " + t + ", element " + k);
            }
        }
    }

    private static void nested(final CaseContext c) throws Exception
    {
        final Win win = c.window(8 * 2, 2);
        final Datatype origin = Datatype.Vector(2, 1, 3, Datatype.Contiguous(2, MPI.SHORT));
        final Datatype target = Datatype.Indexed(new int[] {2, 2}, new int[] {4, 0}, MPI.SHORT);
        origin.Commit();
        target.Commit();
        final short[] values = {10, 11, 12, 13, 14, 15, 16, 17};
        win.fence(0);
        win.put(values, 0, 1, origin, c.rank(), c.disp(win, c.rank(), 0), 1, target);
        win.fence(Win.MODE_NOSUCCEED);
        final int[] expected = {16, 17, 0, 0, 10, 11, 0, 0};
        for (int i = 0; i < expected.length; i++)
        {
            c.checkEquals(expected[i], c.memory(win).getAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT, i),
                "short " + i);
        }
    }

    private static void signatureCountMismatch(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 4);
        final Datatype column = Datatype.Vector(4, 1, 2, MPI.INT);
        column.Commit();
        win.fence(0);
        c.expectError(ErrorClass.ERR_COUNT, "4 elements against 3",
            () -> win.put(new int[8], 0, 1, column, c.rank(), 0, 3, MPI.INT));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void signatureTypeMismatch(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        final Datatype ints = Datatype.Contiguous(2, MPI.INT);
        final Datatype longs = Datatype.Contiguous(1, MPI.LONG);
        ints.Commit();
        longs.Commit();
        win.fence(0);
        c.expectError(ErrorClass.ERR_TYPE, "ints against longs",
            () -> win.put(new int[2], 0, 1, ints, c.rank(), 0, 1, longs));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void overlappingTarget(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 4);
        final Datatype overlapping = Datatype.Indexed(new int[] {2, 2}, new int[] {0, 1}, MPI.INT);
        overlapping.Commit();
        win.fence(0);
        c.expectError(ErrorClass.ERR_TYPE, "overlapping target",
            () -> win.put(new int[4], 0, 4, MPI.INT, c.rank(), 0, 1, overlapping));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void pastTheEnd(final CaseContext c) throws Exception
    {
        final Win win = c.window(8 * 8, 8);
        final Datatype column = Datatype.Vector(3, 1, 4, MPI.LONG);
        column.Commit();
        win.fence(0);
        c.expectError(ErrorClass.ERR_RMA_RANGE, "vector past the end",
            () -> win.put(new long[] {1, 2, 3}, 0, 3, MPI.LONG, c.rank(), 0, 1, column));
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < 8; i++)
        {
            c.checkEquals(0, Memory.getLong(c.memory(win), i), "long " + i);
        }
    }
}
