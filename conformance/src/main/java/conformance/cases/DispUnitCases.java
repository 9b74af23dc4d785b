package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/** Displacements are scaled by the target's disp unit (docs/conformance-checklist.md#displacement-units). */
public final class DispUnitCases
{
    private DispUnitCases()
    {
    }

    /** The disp unit of {@code rank} in disp.fetching-calls-target-unit. */
    private static int unit(final int rank)
    {
        return rank % 2 == 0 ? 8 : 4;
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.DISP_UNIT)
            .add("disp.target-scaling", 2, Behaviour.DISP_TARGET_UNIT,
                "rank 0 has disp unit 1, rank 1 disp unit 8: a put at disp 3 lands at byte 3 of rank 0 and byte 24 " +
                    "of rank 1",
                "MPI-4.1 §12.2.1 (scaled by the target's disp_unit), §12.3.1", DispUnitCases::targetScaling)
            .add("disp.origin-unit-irrelevant", 2, Behaviour.DISP_TARGET_UNIT,
                "the origin's own disp unit plays no part: rank 0 (unit 16) puts at disp 1 of rank 1 (unit 4) -> byte 4",
                "MPI-4.1 §12.2.1, §12.3.1", DispUnitCases::originUnitIrrelevant)
            .add("disp.fetching-calls-target-unit", 2, Behaviour.DISP_TARGET_UNIT,
                "even ranks have disp unit 8, odd ranks 4: fetchAndOp at byte 8, compareAndSwap at byte 16 and " +
                    "getAccumulate at byte 24 of the right neighbour, each displacement in that neighbour's unit, " +
                    "change the ints there and nothing else",
                "MPI-4.1 §12.2.1, §12.3.4 (target displacements scaled by the target's unit, for every call)",
                DispUnitCases::fetchingCallsTargetUnit)
            .add("disp.range-in-target-units", Behaviour.DISP_RANGE,
                "segment of 64 bytes with unit 8: a long at disp 7 fits, one at disp 8 is MPI_ERR_RMA_RANGE",
                "MPI-4.1 §12.3.1 (advice: check bounds at the origin), §12.6.2; docs/design.md#accesses-past-the-end-are-rejected",
                DispUnitCases::rangeInTargetUnits)
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .add("disp.negative-target-disp", Behaviour.DISP_RANGE,
                "target disp -1: MPI_ERR_DISP",
                "MPI-4.1 §12.3.1; MPICH MPIR_ERRTEST_DISP; Open MPI put.c.in", DispUnitCases::negativeTargetDisp)
            .add("disp.huge-disp-no-overflow", Behaviour.DISP_RANGE,
                "target disp Long.MAX_VALUE / 2 with unit 8 (overflows a long in bytes): MPI_ERR_RMA_RANGE, not a wrap",
                "MPI-4.1 §12.3.1; pmodels/mpich#2162 (size truncation)", DispUnitCases::hugeDispNoOverflow)
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .list();
    }

    private static void targetScaling(final CaseContext c) throws Exception
    {
        final Win win = c.window(64, c.rank() == 1 ? 8 : 1);
        win.fence(0);
        if (c.rank() == c.last())
        {
            win.put(new byte[] {7}, 0, 1, MPI.BYTE, 0, c.disp(win, 0, 3), 1, MPI.BYTE);
            win.put(new byte[] {9}, 0, 1, MPI.BYTE, 1, c.disp(win, 1, 3), 1, MPI.BYTE);
        }
        win.fence(0);
        c.checkEquals(7, Memory.getByte(c.memoryOf(win, 0), 3), "byte 3 of rank 0");
        c.checkEquals(9, Memory.getByte(c.memoryOf(win, 1), 24), "byte 24 of rank 1");
        c.checkEquals(0, Memory.getByte(c.memoryOf(win, 1), 3), "byte 3 of rank 1");
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void originUnitIrrelevant(final CaseContext c) throws Exception
    {
        final Win win = c.window(32, c.rank() == 0 ? 16 : 4);
        win.fence(0);
        if (c.isRoot())
        {
            win.put(new int[] {0x01020304}, 0, 1, MPI.INT, 1, c.disp(win, 1, 1), 1, MPI.INT);
        }
        win.fence(0);
        c.checkEquals(0x01020304, Memory.getInt(c.memoryOf(win, 1), 1), "int at byte 4 of rank 1");
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void fetchingCallsTargetUnit(final CaseContext c) throws Exception
    {
        final Win win = c.window(32, unit(c.rank()));
        final int right = (c.rank() + 1) % c.size();
        final int unit = unit(right);
        final int[] old = {-1, -1, -1};
        win.fence(0);
        win.fetchAndOp(new int[] {5}, 0, old, 0, MPI.INT, right, c.disp(win, right, 8 / unit), MPI.SUM);
        win.compareAndSwap(new int[] {7}, 0, new int[] {0}, 0, old, 1, MPI.INT, right,
            c.disp(win, right, 16 / unit));
        win.getAccumulate(new int[] {9}, 0, 1, MPI.INT, old, 2, 1, MPI.INT, right,
            c.disp(win, right, 24 / unit), 1, MPI.INT, MPI.SUM);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals("[0, 0, 0]", java.util.Arrays.toString(old), "old values");
        final int[] expected = {0, 0, 5, 0, 7, 0, 9, 0};
        for (int i = 0; i < expected.length; i++)
        {
            c.checkEquals(expected[i], Memory.getInt(c.memory(win), i), "own int at byte " + 4 * i);
        }
    }

    private static void rangeInTargetUnits(final CaseContext c) throws Exception
    {
        final Win win = c.window(64, 8);
        win.fence(0);
        final int target = (c.rank() + 1) % c.size();
        win.put(new long[] {1}, 0, 1, MPI.LONG, target, 7, 1, MPI.LONG);
        c.expectError(ErrorClass.ERR_RMA_RANGE, "put at disp 8",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, target, 8, 1, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void negativeTargetDisp(final CaseContext c) throws Exception
    {
        final Win win = c.window(64, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_DISP, "put at disp -1",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, c.rank(), -1, 1, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void hugeDispNoOverflow(final CaseContext c) throws Exception
    {
        final Win win = c.window(64, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_RMA_RANGE, "put at disp 2^62",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, c.rank(), Long.MAX_VALUE / 2, 1, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }
}
