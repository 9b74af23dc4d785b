package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseGroup;
import mpi.Datatype;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/**
 * Derived MPJ Express datatypes on origin and target (docs/conformance-checklist.md#derived-datatypes).
 * MPJ Express measures displacements and strides in array elements, Hvector's and Hindexed's too.
 */
public final class DatatypeCases
{
    /** Rows and columns of the halo-exchange matrix; column 0 and the last column are ghosts. */
    private static final int ROWS = 6;
    private static final int COLUMNS = 5;
    private static final int ITERATIONS = 200;

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

    /**
     * This rank's 4x5 double matrix holds {@code value} in the 3x2 block at ({@code row}, {@code column}) and 0
     * elsewhere; read under a shared lock on itself.
     */
    private static void checkBlock(final conformance.CaseContext c, final Win win, final int row, final int column,
        final double value)
    {
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        for (int i = 0; i < 4; i++)
        {
            for (int j = 0; j < 5; j++)
            {
                final boolean inside = i >= row && i < row + 3 && j >= column && j < column + 2;
                final double actual = Memory.getDouble(c.memory(win), i * 5 + j);
                c.check(actual == (inside ? value : 0), "element (" + i + ", " + j + ") is " + actual + ", expected " +
                    (inside ? value : 0));
            }
        }
        win.unlock(c.rank());
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.DATATYPES)
            .add("dtype.halo-column-put", Behaviour.DTYPE_CONSTRUCTORS,
                "each rank puts its last interior column of a 6x5 row-major matrix into the right neighbour's " +
                    "ghost column 0 with Vector(6, 1, 5, DOUBLE) on both sides, in one call: every row arrives, " +
                    "nothing else changes",
                "MPI-4.1 §12.3.1, §5.1.2 (MPI_TYPE_VECTOR); MPICH test/mpi/rma strided_putget_indexed", c ->
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
                })
            .add("dtype.indexed-get", Behaviour.DTYPE_CONSTRUCTORS,
                "get with Indexed({2, 1, 3}, {5, 0, 9}, INT) at the target into a contiguous origin: the six " +
                    "elements in type-map order (5, 6, 0, 9, 10, 11), not sorted",
                "MPI-4.1 §12.3.2, §5.1.4 (MPI_TYPE_INDEXED); MPICH test/mpi/rma strided_get_indexed", c ->
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
                })
            .add("dtype.transpose-put", Behaviour.DTYPE_CONSTRUCTORS,
                "each rank puts its 6x4 int matrix (row-major, contiguous at the origin) into its right neighbour " +
                    "as the 4x6 transpose, in one call whose target type is Hvector(6, 1, 1, Vector(4, 1, 6, INT)): " +
                    "element (j, i) there is element (i, j) here",
                "MPI-4.1 §12.3.1, §5.1.3 (a vector of hvectors, as MPI-1.1's transpose example); MPICH transpose1",
                c ->
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
                })
            .add("dtype.transpose-get", Behaviour.DTYPE_CONSTRUCTORS,
                "each rank stores its 6x4 matrix, fence, and gets its right neighbour's into a local array with the " +
                    "transposing type on the origin side: the local array holds the 4x6 transpose",
                "MPI-4.1 §12.3.2, §5.1.3; MPICH transpose7", c ->
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
                })
            .add("dtype.put-indexed-target", Behaviour.DTYPE_CONSTRUCTORS,
                "a put of 6 contiguous ints from origin offset 2 into Indexed({2, 1, 3}, {7, 0, 3}, INT) at the " +
                    "right neighbour, between fences: the ints land at 7, 8, 0, 3, 4, 5 in that order, the other " +
                    "ints keep -1",
                "MPI-4.1 §12.3.1, §5.1.4 (MPI_TYPE_INDEXED, blocks in any order); MPICH putfidx", c ->
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
                })
            .add("dtype.contiguous-and-count", Behaviour.DTYPE_CONSTRUCTORS,
                "put of 3 copies of Contiguous(2, LONG) into 6 LONGs at displacement 1, origin offset 1",
                "MPI-4.1 §12.3.1, §5.1.2 (MPI_TYPE_CONTIGUOUS)", c ->
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
                })
            .add("dtype.hvector-hindexed-struct", Behaviour.DTYPE_CONSTRUCTORS,
                "Hvector(2, 2, 5, INT), Hindexed({1, 2}, {7, 3}, INT) and Struct({2, 1}, {0, 4}, {INT, INT}) as " +
                    "targets of puts of consecutive ints: each element where the type map puts it",
                "MPI-4.1 §5.1.3, §5.1.5, §5.1.6 (MPJ Express: displacements in elements)", c ->
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
                })
            .add("dtype.nested", Behaviour.DTYPE_CONSTRUCTORS,
                "Vector(2, 1, 3, Contiguous(2, SHORT)) on the origin into Indexed({2, 2}, {4, 0}, SHORT) at the " +
                    "target: origin elements 0, 1, 6, 7 land at 4, 5, 0, 1",
                "MPI-4.1 §5.1 (nested constructors), §12.3.1", c ->
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
                })
            .add("dtype.signature-count-mismatch", Behaviour.DTYPE_SIGNATURE,
                "Vector(4, 1, 2, INT) on the origin against 3 INTs at the target: MPI_ERR_COUNT naming both " +
                    "element counts, nothing written",
                "MPI-4.1 §12.3.1 (type signatures match); docs/design.md#derived-datatypes", c ->
                {
                    final Win win = c.window(16, 4);
                    final Datatype column = Datatype.Vector(4, 1, 2, MPI.INT);
                    column.Commit();
                    win.fence(0);
                    c.expectError(ErrorClass.ERR_COUNT, "4 elements against 3",
                        () -> win.put(new int[8], 0, 1, column, c.rank(), 0, 3, MPI.INT));
                    win.fence(Win.MODE_NOSUCCEED);
                })
            .add("dtype.signature-type-mismatch", Behaviour.DTYPE_SIGNATURE,
                "Contiguous(2, INT) on the origin against Contiguous(1, LONG) at the target (8 bytes each): " +
                    "MPI_ERR_TYPE",
                "MPI-4.1 §12.3.1 (type signatures match, not byte counts)", c ->
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
                })
            .add("dtype.overlapping-target", Behaviour.DTYPE_SIGNATURE,
                "put into Indexed({2, 2}, {0, 1}, INT), which names element 1 twice: MPI_ERR_TYPE",
                "MPI-4.1 §12.3.1 (the target buffer is written as by a receive; overlapping entries are " +
                    "erroneous); docs/design.md#derived-datatypes", c ->
                {
                    final Win win = c.window(16, 4);
                    final Datatype overlapping = Datatype.Indexed(new int[] {2, 2}, new int[] {0, 1}, MPI.INT);
                    overlapping.Commit();
                    win.fence(0);
                    c.expectError(ErrorClass.ERR_TYPE, "overlapping target",
                        () -> win.put(new int[4], 0, 4, MPI.INT, c.rank(), 0, 1, overlapping));
                    win.fence(Win.MODE_NOSUCCEED);
                })
            .add("dtype.past-the-end", Behaviour.DTYPE_RANGE,
                "Vector(3, 1, 4, LONG) (extent 9) at displacement 0 of an 8-long segment: MPI_ERR_RMA_RANGE, " +
                    "nothing written",
                "MPI-4.1 §12.3.1, §12.6.2; docs/design.md#accesses-past-the-end-are-rejected", c ->
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
                })
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .add("dtype.accumulate-vector-atomic", Behaviour.DTYPE_ACCUMULATE,
                "every rank adds 1 to every other int of rank 0 with Vector(4, 1, 2, INT), 200 times under " +
                    "lockAll: each of the 4 ints is 200 * size, the ints between them stay 0",
                "MPI-4.1 §12.3.4, §12.7.1 (element-wise atomicity with derived datatypes); MPICH test/mpi/rma " +
                    "accfence1", c ->
                {
                    final Win win = c.window(8 * 4, 4);
                    final Datatype column = Datatype.Vector(4, 1, 2, MPI.INT);
                    column.Commit();
                    final int[] ones = {1, 1, 1, 1};
                    win.lockAll(0);
                    for (int i = 0; i < ITERATIONS; i++)
                    {
                        win.accumulate(ones, 0, 4, MPI.INT, 0, c.disp(win, 0, 0), 1, column, MPI.SUM);
                    }
                    win.unlockAll();
                    c.barrier();
                    win.lockAll(0);
                    win.sync();
                    for (int i = 0; i < 8; i++)
                    {
                        c.checkEquals(i % 2 == 0 ? (long)ITERATIONS * c.size() : 0, Memory.passiveInt(c, win, 0, i),
                            "int " + i);
                    }
                    win.unlockAll();
                })
            .add("dtype.strided-accumulate-indexed", Behaviour.DTYPE_ACCUMULATE,
                "every rank adds rank + 1 to the 3x2 block at row 1, column 2 of every rank's 4x5 double matrix, " +
                    "described by Indexed({2, 2, 2}, {7, 12, 17}, DOUBLE), each target under an exclusive lock: the " +
                    "block holds size(size+1)/2, every other element 0",
                "MPI-4.1 §12.3.4, §5.1.4; MPICH strided_acc_indexed", c ->
                {
                    final Win win = c.window(8 * 20, 8);
                    final Datatype block = Datatype.Indexed(new int[] {2, 2, 2}, new int[] {7, 12, 17}, MPI.DOUBLE);
                    block.Commit();
                    final double[] values = new double[6];
                    java.util.Arrays.fill(values, c.rank() + 1);
                    for (int target = 0; target < c.size(); target++)
                    {
                        win.lock(Win.LOCK_EXCLUSIVE, target, 0);
                        win.accumulate(values, 0, 6, MPI.DOUBLE, target, c.disp(win, target, 0), 1, block, MPI.SUM);
                        win.unlock(target);
                    }
                    c.barrier();
                    checkBlock(c, win, 1, 2, c.size() * (c.size() + 1) / 2.0);
                })
            .add("dtype.strided-accumulate-subarray", Behaviour.DTYPE_ACCUMULATE,
                "every rank adds the 3x2 block at row 1, column 1 of its own 5x4 double array (Vector(3, 2, 4, " +
                    "DOUBLE) at the origin) into the block at row 1, column 2 of every rank's 4x5 matrix (Vector(3, " +
                    "2, 5, DOUBLE) at the target), all in one lockAll epoch: the block holds size(size+1)/2",
                "MPI-4.1 §12.3.4, §5.1.2 (a subarray as a vector of blocks); MPICH strided_acc_subarray, " +
                    "strided_acc_onelock", c ->
                {
                    final Win win = c.window(8 * 20, 8);
                    final Datatype source = Datatype.Vector(3, 2, 4, MPI.DOUBLE);
                    final Datatype target = Datatype.Vector(3, 2, 5, MPI.DOUBLE);
                    source.Commit();
                    target.Commit();
                    final double[] local = new double[20];
                    java.util.Arrays.fill(local, -1000);
                    for (int row = 1; row <= 3; row++)
                    {
                        local[row * 4 + 1] = c.rank() + 1;
                        local[row * 4 + 2] = c.rank() + 1;
                    }
                    win.lockAll(0);
                    for (int t = 0; t < c.size(); t++)
                    {
                        win.accumulate(local, 5, 1, source, t, c.disp(win, t, 7), 1, target, MPI.SUM);
                    }
                    win.unlockAll();
                    c.barrier();
                    checkBlock(c, win, 1, 2, c.size() * (c.size() + 1) / 2.0);
                })
            .add("dtype.get-accumulate-derived", Behaviour.DTYPE_ACCUMULATE,
                "getAccumulate with SUM: origin Contiguous(3, LONG), result Vector(3, 1, 2, LONG), target " +
                    "Indexed({1, 2}, {4, 0}, LONG): the old values in result slots 0, 2, 4, the sums at the target",
                "MPI-4.1 §12.3.4.2", c ->
                {
                    final Win win = c.window(6 * 8, 8);
                    final Datatype origin = Datatype.Contiguous(3, MPI.LONG);
                    final Datatype result = Datatype.Vector(3, 1, 2, MPI.LONG);
                    final Datatype target = Datatype.Indexed(new int[] {1, 2}, new int[] {4, 0}, MPI.LONG);
                    origin.Commit();
                    result.Commit();
                    target.Commit();
                    win.fence(0);
                    for (int i = 0; i < 6; i++)
                    {
                        Memory.setLong(c.memory(win), i, 10 * i);
                    }
                    win.fence(0);
                    final long[] got = new long[5];
                    win.getAccumulate(new long[] {1, 2, 3}, 0, 1, origin, got, 0, 1, result, c.rank(), c.disp(win, c.rank(), 0),
                        1, target,
                        MPI.SUM);
                    win.fence(Win.MODE_NOSUCCEED);
                    // Target type map: 4, 0, 1. Old values 40, 0, 10 go to result slots 0, 2, 4.
                    final long[] expectedResult = {40, 0, 0, 0, 10};
                    for (int i = 0; i < expectedResult.length; i++)
                    {
                        c.checkEquals(expectedResult[i], got[i], "result " + i);
                    }
                    final long[] expectedTarget = {2, 13, 20, 30, 41, 50};
                    for (int i = 0; i < expectedTarget.length; i++)
                    {
                        c.checkEquals(expectedTarget[i], Memory.getLong(c.memory(win), i), "target " + i);
                    }
                })
            .add("dtype.accumulate-objects-rejected", Behaviour.DTYPE_ACCUMULATE,
                "accumulate with Vector(2, 1, 2, OBJECT): MPI_ERR_TYPE (a derived type must be built from one " +
                    "predefined numeric type; MPJ Express's Struct already refuses mixed base types)",
                "MPI-4.1 §12.3.4 (built from one predefined datatype)", c ->
                {
                    final Win win = c.window(16, 8);
                    final Datatype objects = Datatype.Vector(2, 1, 2, MPI.OBJECT);
                    objects.Commit();
                    win.fence(0);
                    c.expectError(ErrorClass.ERR_TYPE, "objects",
                        () -> win.accumulate(new Object[3], 0, 1, objects, c.rank(), 0, 1, objects, MPI.SUM));
                    win.fence(Win.MODE_NOSUCCEED);
                })
            .add("dtype.fetch-and-op-basic-only", Behaviour.DTYPE_BASIC_ONLY_CALLS,
                "fetchAndOp and compareAndSwap with Contiguous(1, LONG): MPI_ERR_TYPE",
                "MPI-4.1 §12.3.4.3, §12.3.4.4", c ->
                {
                    final Win win = c.window(8, 8);
                    final Datatype one = Datatype.Contiguous(1, MPI.LONG);
                    one.Commit();
                    win.fence(0);
                    c.expectError(ErrorClass.ERR_TYPE, "fetchAndOp",
                        () -> win.fetchAndOp(new long[1], 0, new long[1], 0, one, c.rank(), 0, MPI.SUM));
                    c.expectError(ErrorClass.ERR_TYPE, "compareAndSwap",
                        () -> win.compareAndSwap(new long[1], 0, new long[1], 0, new long[1], 0, one, c.rank(), 0));
                    win.fence(Win.MODE_NOSUCCEED);
                })
            .list();
    }
}
