package mpi.rma.kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * An MPJ Express program that checks derived datatypes on {@code mpi.rma} shared windows on
 * however many processes it runs: the halo exchange of a row-major matrix (a column put into each
 * neighbour's ghost column in one call), a get of an indexed type, and a vector accumulate from
 * every rank at once. Prints {@code CHECK <name> ok} or {@code CHECK <name> FAILED: why} per check
 * and rank, then {@code DONE rank r failures n}; {@link DatatypeRulesTest} reads those lines.
 */
public final class DatatypeRulesProgram
{
    static final String[] CHECKS = {"halo-exchange", "indexed-get", "vector-accumulate-atomic", "signature-errors"};
    /** Rows, and columns with the two ghost columns (0 and the last). */
    private static final int ROWS = 8;
    private static final int COLUMNS = 6;
    private static final int ITERATIONS = 300;

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final List<String> failures = new ArrayList<>();

    private DatatypeRulesProgram(final Intracomm comm)
    {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final DatatypeRulesProgram program = new DatatypeRulesProgram(MPI.COMM_WORLD);
        program.check(CHECKS[0], program::haloExchange);
        program.check(CHECKS[1], program::indexedGet);
        program.check(CHECKS[2], program::vectorAccumulateAtomic);
        program.check(CHECKS[3], program::signatureErrors);
        System.out.println("DONE rank " + program.rank + " failures " + program.failures.size());
        MPI.Finalize();
    }

    private interface Check
    {
        void run() throws Exception;
    }

    private void check(final String name, final Check check)
    {
        try
        {
            check.run();
            System.out.println("CHECK " + name + " ok");
        }
        catch (final Throwable e)
        {
            failures.add(name);
            System.out.println("CHECK " + name + " FAILED: " + e);
            e.printStackTrace(System.out);
        }
    }

    /**
     * Each rank's window holds its ROWS x COLUMNS block of a row-major matrix; it puts its first
     * interior column into the left neighbour's right ghost column and its last interior column into
     * the right neighbour's left ghost column, one call each, with one vector type on both sides.
     */
    private void haloExchange() throws Exception
    {
        final Datatype column = Datatype.Vector(ROWS, 1, COLUMNS, MPI.DOUBLE);
        column.Commit();
        try (Win win = Win.allocateShared((long)ROWS * COLUMNS * Double.BYTES, Double.BYTES, null, comm))
        {
            final double[] block = new double[ROWS * COLUMNS];
            for (int i = 0; i < block.length; i++)
            {
                block[i] = value(rank, i);
            }
            final MemorySegment mine = win.base();
            win.fence(0);
            MemorySegment.copy(block, 0, mine, ValueLayout.JAVA_DOUBLE, 0, block.length);
            win.fence(0);
            final int left = (rank + size - 1) % size;
            final int right = (rank + 1) % size;
            win.put(block, 1, 1, column, left, COLUMNS - 1, 1, column);
            win.put(block, COLUMNS - 2, 1, column, right, 0, 1, column);
            win.fence(Win.MODE_NOSUCCEED);
            for (int row = 0; row < ROWS; row++)
            {
                for (int col = 0; col < COLUMNS; col++)
                {
                    final double expected = col == 0 ? value(left, row * COLUMNS + COLUMNS - 2) :
                        col == COLUMNS - 1 ? value(right, row * COLUMNS + 1) : value(rank, row * COLUMNS + col);
                    final double got = mine.getAtIndex(ValueLayout.JAVA_DOUBLE, (long)row * COLUMNS + col);
                    expect(got == expected, "row " + row + ", column " + col + ": " + got + ", expected " + expected);
                }
            }
        }
    }

    /** A get of Indexed({3, 1, 2}, {6, 0, 3}, INT) from the right neighbour: elements in type-map order. */
    private void indexedGet() throws Exception
    {
        final Datatype indexed = Datatype.Indexed(new int[] {3, 1, 2}, new int[] {6, 0, 3}, MPI.INT);
        indexed.Commit();
        try (Win win = Win.allocateShared(10 * Integer.BYTES, Integer.BYTES, null, comm))
        {
            win.fence(0);
            for (int i = 0; i < 10; i++)
            {
                win.base().setAtIndex(ValueLayout.JAVA_INT, i, rank * 100 + i);
            }
            win.fence(0);
            final int target = (rank + 1) % size;
            final int[] got = new int[7];
            got[6] = -1;
            win.get(got, 0, 6, MPI.INT, target, 0, 1, indexed);
            win.fence(Win.MODE_NOSUCCEED);
            final int[] positions = {6, 7, 8, 0, 3, 4};
            for (int k = 0; k < positions.length; k++)
            {
                expect(got[k] == target * 100 + positions[k], "element " + k + " is " + got[k]);
            }
            expect(got[6] == -1, "the element after the last was overwritten");
        }
    }

    /**
     * Every rank adds 1 to every other long of rank 0 with Vector(5, 1, 2, LONG) under lockAll,
     * ITERATIONS times: no update may be lost, and the longs between stay 0.
     */
    private void vectorAccumulateAtomic() throws Exception
    {
        final Datatype everyOther = Datatype.Vector(5, 1, 2, MPI.LONG);
        everyOther.Commit();
        try (Win win = Win.allocateShared(rank == 0 ? 10 * Long.BYTES : 0, Long.BYTES, null, comm))
        {
            final long[] ones = {1, 1, 1, 1, 1};
            win.lockAll(0);
            for (int i = 0; i < ITERATIONS; i++)
            {
                win.accumulate(ones, 0, 5, MPI.LONG, 0, 0, 1, everyOther, MPI.SUM);
            }
            win.unlockAll();
            comm.Barrier();
            win.lockAll(0);
            win.sync();
            final MemorySegment counters = win.sharedQuery(0).memory();
            for (int i = 0; i < 10; i++)
            {
                final long expected = i % 2 == 0 ? (long)ITERATIONS * size : 0;
                final long got = counters.getAtIndex(ValueLayout.JAVA_LONG, i);
                expect(got == expected, "long " + i + " is " + got + ", expected " + expected);
            }
            win.unlockAll();
        }
    }

    /** Mismatched element counts and basic types, and derived types where only basic ones go. */
    private void signatureErrors() throws Exception
    {
        final Datatype column = Datatype.Vector(3, 1, 2, MPI.INT);
        column.Commit();
        try (Win win = Win.allocateShared(8 * Integer.BYTES, Integer.BYTES, null, comm))
        {
            win.fence(0);
            final RmaException count = expectError(ErrorClass.ERR_COUNT,
                () -> win.put(new int[6], 0, 1, column, rank, 0, 2, MPI.INT));
            expect(count.getMessage().contains("3 of") && count.getMessage().contains("2 of"), count.getMessage());
            expectError(ErrorClass.ERR_TYPE, () -> win.put(new int[6], 0, 1, column, rank, 0, 3, MPI.FLOAT));
            expectError(ErrorClass.ERR_TYPE,
                () -> win.fetchAndOp(new int[1], 0, new int[1], 0, column, rank, 0, MPI.SUM));
            expectError(ErrorClass.ERR_RMA_RANGE, () -> win.put(new int[3], 0, 3, MPI.INT, rank, 4, 1, column));
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    private static double value(final int owner, final int index)
    {
        return owner * 1000 + index;
    }

    private interface Action
    {
        void run() throws Exception;
    }

    private static RmaException expectError(final ErrorClass errorClass, final Action action) throws Exception
    {
        try
        {
            action.run();
        }
        catch (final RmaException e)
        {
            expect(e.errorClass() == errorClass, "expected " + errorClass + " but got " + e.errorClass() + ": " +
                e.getMessage());
            return e;
        }
        throw new AssertionError("expected " + errorClass + " but the call succeeded");
    }

    private static void expect(final boolean condition, final String what)
    {
        if (!condition)
        {
            throw new AssertionError(what);
        }
    }
}
