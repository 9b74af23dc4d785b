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
 * Derived datatypes in the accumulate family (docs/conformance-checklist.md#derived-datatypes): atomicity
 * and strides of accumulates of derived types, getAccumulate, and the calls that take basic types only.
 * DatatypeCases has put and get.
 */
public final class DatatypeAccumulateCases
{
    private static final int ITERATIONS = 200;

    private DatatypeAccumulateCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.DATATYPES)
            .add("dtype.accumulate-vector-atomic", Behaviour.DTYPE_ACCUMULATE,
                "every rank adds 1 to every other int of rank 0 with Vector(4, 1, 2, INT), 200 times under " +
                    "lockAll: each of the 4 ints is 200 * size, the ints between them stay 0",
                "MPI-4.1 §12.3.4, §12.7.1 (element-wise atomicity with derived datatypes); MPICH test/mpi/rma " +
                    "accfence1", DatatypeAccumulateCases::accumulateVectorAtomic)
            .add("dtype.strided-accumulate-indexed", Behaviour.DTYPE_ACCUMULATE,
                "every rank adds rank + 1 to the 3x2 block at row 1, column 2 of every rank's 4x5 double matrix, " +
                    "described by Indexed({2, 2, 2}, {7, 12, 17}, DOUBLE), each target under an exclusive lock: the " +
                    "block holds size(size+1)/2, every other element 0",
                "MPI-4.1 §12.3.4, §5.1.4; MPICH strided_acc_indexed", DatatypeAccumulateCases::stridedAccumulateIndexed)
            .add("dtype.strided-accumulate-subarray", Behaviour.DTYPE_ACCUMULATE,
                "every rank adds the 3x2 block at row 1, column 1 of its own 5x4 double array (Vector(3, 2, 4, " +
                    "DOUBLE) at the origin) into the block at row 1, column 2 of every rank's 4x5 matrix (Vector(3, " +
                    "2, 5, DOUBLE) at the target), all in one lockAll epoch: the block holds size(size+1)/2",
                "MPI-4.1 §12.3.4, §5.1.2 (a subarray as a vector of blocks); MPICH strided_acc_subarray, " +
                    "strided_acc_onelock", DatatypeAccumulateCases::stridedAccumulateSubarray)
            .add("dtype.get-accumulate-derived", Behaviour.DTYPE_ACCUMULATE,
                "getAccumulate with SUM: origin Contiguous(3, LONG), result Vector(3, 1, 2, LONG), target " +
                    "Indexed({1, 2}, {4, 0}, LONG): the old values in result slots 0, 2, 4, the sums at the target",
                "MPI-4.1 §12.3.4.2", DatatypeAccumulateCases::getAccumulateDerived)
            .add("dtype.accumulate-objects-rejected", Behaviour.DTYPE_ACCUMULATE,
                "accumulate with Vector(2, 1, 2, OBJECT): MPI_ERR_TYPE (a derived type must be built from one " +
                    "predefined numeric type; MPJ Express's Struct already refuses mixed base types)",
                "MPI-4.1 §12.3.4 (built from one predefined datatype)",
                DatatypeAccumulateCases::accumulateObjectsRejected)
            .add("dtype.fetch-and-op-basic-only", Behaviour.DTYPE_BASIC_ONLY_CALLS,
                "fetchAndOp and compareAndSwap with Contiguous(1, LONG): MPI_ERR_TYPE",
                "MPI-4.1 §12.3.4.3, §12.3.4.4", DatatypeAccumulateCases::fetchAndOpBasicOnly)
            .list();
    }

    private static void accumulateVectorAtomic(final CaseContext c) throws Exception
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
    }

    private static void stridedAccumulateIndexed(final CaseContext c) throws Exception
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
    }

    private static void stridedAccumulateSubarray(final CaseContext c) throws Exception
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
    }

    private static void getAccumulateDerived(final CaseContext c) throws Exception
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
    }

    private static void accumulateObjectsRejected(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        final Datatype objects = Datatype.Vector(2, 1, 2, MPI.OBJECT);
        objects.Commit();
        win.fence(0);
        c.expectError(ErrorClass.ERR_TYPE, "objects",
            () -> win.accumulate(new Object[3], 0, 1, objects, c.rank(), 0, 1, objects, MPI.SUM));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void fetchAndOpBasicOnly(final CaseContext c) throws Exception
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
    }

    /**
     * This rank's 4x5 double matrix holds {@code value} in the 3x2 block at ({@code row}, {@code column}) and 0
     * elsewhere; read under a shared lock on itself.
     */
    private static void checkBlock(final CaseContext c, final Win win, final int row, final int column,
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
}
