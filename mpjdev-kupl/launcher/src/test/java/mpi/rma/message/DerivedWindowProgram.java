package mpi.rma.message;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import mpi.Datatype;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import mpi.rma.WinRequest;

/**
 * Derived datatypes on origin and target of windows whose targets are reached by messages:
 * {@code Win.create}, {@code Win.createDynamic}, and {@code Win.allocate} (by messages to the targets
 * on other nodes, by loads and stores on the caller's). Each rank's window holds {@link #SLOTS} doubles,
 * element i of rank r holding {@code r * 1000 + i} at the start of every case. Each rank prints
 * {@code rank R CASE FLAVOUR ok} or {@code rank R CASE FLAVOUR FAILED: ...} for each case, then
 * {@code DONE rank R}:
 * <ul>
 * <li>{@code halo}: a row-major matrix of 8 x 6 with ghost columns 0 and 5; each rank puts its first
 *     interior column into its left neighbour's right ghost column and its last into its right
 *     neighbour's left ghost column, one call each, a vector on both sides; then gets a ghost column
 *     back into a column of a local matrix;</li>
 * <li>{@code vector contiguous}: put and get with a stride-2 vector on one side and contiguous
 *     doubles on the other, both ways round;</li>
 * <li>{@code indexed hindexed}: a put to an indexed target (three runs, in the request), to two copies of
 *     it, and to an indexed target of 40 blocks of uneven lengths (its run list a message of its own), a
 *     get of an hindexed target of pairs, and the big one back;</li>
 * <li>{@code nested}: two copies of a vector of contiguous pairs on both sides, put and got back;</li>
 * <li>{@code accumulate atomic}: in one lockAll epoch every rank adds 1, 100 times, to every other double
 *     of every rank (a vector target) and to five doubles from a vector origin: no addition is lost;</li>
 * <li>{@code get accumulate}: getAccumulate(SUM) with a vector origin, an indexed result and a vector
 *     target of another stride, then NO_OP: the old values in the result's order, the sums in place;</li>
 * <li>{@code requests}: under lockAll, rPut, rGet and rGetAccumulate with derived types on both sides,
 *     and an rGet into a derived origin that only the unlockAll completes: its elements are in place
 *     when unlockAll returns;</li>
 * <li>{@code range}: a vector target that reaches one past the end is ERR_RMA_RANGE at the origin and
 *     one that ends on the last element is carried (create, allocate); on a dynamic window an indexed
 *     target whose last run crosses the end of the attached region is ERR_RMA_RANGE at the flush and at
 *     a get, writing nothing, and one whose two runs lie in two attached regions is carried;</li>
 * <li>{@code signature errors}: different element counts (ERR_COUNT, both numbers named), different basic
 *     types (ERR_TYPE), an overlapping origin of a get (ERR_TYPE); the window stays usable.</li>
 * </ul>
 */
public final class DerivedWindowProgram
{
    private static final int SLOTS = 256;
    private static final int ROWS = 8;
    private static final int COLUMNS = 6;
    private static final int ACCUMULATES = 100;

    private static int rank;
    private static int size;
    private static int right;
    private static int left;

    private DerivedWindowProgram()
    {
    }

    /** A window of {@link #SLOTS} doubles per rank, and how to name element i of a target whatever the flavour. */
    private record Window(Win win, long[] addresses, double[] own, MemorySegment base)
    {
        long disp(final int target, final int element)
        {
            return addresses == null ? element : addresses[target] + (long)element * Double.BYTES;
        }

        double mine(final int element)
        {
            return own != null ? own[element] : base.getAtIndex(ValueLayout.JAVA_DOUBLE, element);
        }
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.Rank();
        size = MPI.COMM_WORLD.Size();
        right = (rank + 1) % size;
        left = (rank + size - 1) % size;
        for (final String flavour : List.of("create", "allocate", "createDynamic"))
        {
            halo(flavour);
            vectorContiguous(flavour);
            indexedHindexed(flavour);
            nested(flavour);
            accumulateAtomic(flavour);
            getAccumulate(flavour);
            requests(flavour);
            range(flavour);
            signatureErrors(flavour);
        }
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }

    /** A window whose element i is {@code rank * 1000 + i} on every rank. */
    private static Window open(final String flavour)
    {
        final double[] own = new double[SLOTS];
        for (int i = 0; i < SLOTS; i++)
        {
            own[i] = value(rank, i);
        }
        return switch (flavour)
        {
            case "create" -> new Window(Win.create(own, Double.BYTES, null, MPI.COMM_WORLD), null, own, null);
            case "allocate" ->
            {
                final Win win = Win.allocate(SLOTS * Double.BYTES, Double.BYTES, null, MPI.COMM_WORLD);
                MemorySegment.copy(own, 0, win.base(), ValueLayout.JAVA_DOUBLE, 0, SLOTS);
                yield new Window(win, null, null, win.base());
            }
            default ->
            {
                final Win win = Win.createDynamic(null, MPI.COMM_WORLD);
                final long[] addresses = new long[size];
                MPI.COMM_WORLD.Allgather(new long[] {win.attach(own)}, 0, 1, MPI.LONG, addresses, 0, 1, MPI.LONG);
                yield new Window(win, addresses, own, null);
            }
        };
    }

    private static void halo(final String flavour) throws Exception
    {
        final Datatype column = committed(Datatype.Vector(ROWS, 1, COLUMNS, MPI.DOUBLE));
        final double[] block = new double[ROWS * COLUMNS];
        for (int i = 0; i < block.length; i++)
        {
            block[i] = value(rank, i);
        }
        final List<String> failures = new ArrayList<>();
        final Window w = open(flavour);
        w.win().fence(0);
        w.win().put(block, 1, 1, column, left, w.disp(left, COLUMNS - 1), 1, column);
        w.win().put(block, COLUMNS - 2, 1, column, right, w.disp(right, 0), 1, column);
        w.win().fence(0);
        // My right neighbour's left ghost column holds my column COLUMNS - 2: into column 2 of a local matrix.
        final double[] local = new double[ROWS * COLUMNS];
        w.win().get(local, 2, 1, column, right, w.disp(right, 0), 1, column);
        w.win().fence(Win.MODE_NOSUCCEED);
        for (int row = 0; row < ROWS; row++)
        {
            for (int col = 0; col < COLUMNS; col++)
            {
                final int at = row * COLUMNS + col;
                final double expected = col == 0 ? value(left, row * COLUMNS + COLUMNS - 2) :
                    col == COLUMNS - 1 ? value(right, row * COLUMNS + 1) : value(rank, at);
                check(failures, w.mine(at) == expected, "matrix " + row + "," + col + " is " + w.mine(at));
                check(failures, local[at] == (col == 2 ? value(rank, row * COLUMNS + COLUMNS - 2) : 0),
                    "got back " + row + "," + col + " is " + local[at]);
            }
        }
        check(failures, w.mine(ROWS * COLUMNS) == value(rank, ROWS * COLUMNS), "the element after the matrix");
        w.win().free();
        report("halo " + flavour, failures);
    }

    private static void vectorContiguous(final String flavour) throws Exception
    {
        final Datatype everyOther = committed(Datatype.Vector(6, 1, 2, MPI.DOUBLE));
        final double[] strided = sequence(rank * 100, 12);
        final double[] dense = sequence(rank * 100 + 50, 6);
        final List<String> failures = new ArrayList<>();
        final Window w = open(flavour);
        w.win().fence(0);
        w.win().put(strided, 0, 1, everyOther, right, w.disp(right, 20), 6, MPI.DOUBLE);
        w.win().put(dense, 0, 6, MPI.DOUBLE, right, w.disp(right, 40), 1, everyOther);
        w.win().fence(0);
        final double[] intoStrided = new double[12];
        final double[] intoDense = new double[6];
        w.win().get(intoStrided, 0, 1, everyOther, right, w.disp(right, 20), 6, MPI.DOUBLE);
        w.win().get(intoDense, 0, 6, MPI.DOUBLE, right, w.disp(right, 40), 1, everyOther);
        w.win().fence(Win.MODE_NOSUCCEED);
        for (int k = 0; k < 6; k++)
        {
            check(failures, w.mine(20 + k) == left * 100 + 2 * k, "element " + (20 + k) + " is " + w.mine(20 + k));
            check(failures, w.mine(40 + 2 * k) == left * 100 + 50 + k, "element " + (40 + 2 * k) + " is " +
                w.mine(40 + 2 * k));
            check(failures, w.mine(41 + 2 * k) == value(rank, 41 + 2 * k), "element " + (41 + 2 * k) + " written");
            check(failures, intoStrided[2 * k] == strided[2 * k] && intoStrided[2 * k + 1] == 0,
                "vector origin of the get: " + Arrays.toString(intoStrided));
            check(failures, intoDense[k] == dense[k], "contiguous origin of the get: " + Arrays.toString(intoDense));
        }
        check(failures, w.mine(26) == value(rank, 26), "element 26 written");
        w.win().free();
        report("vector contiguous " + flavour, failures);
    }

    private static void indexedHindexed(final String flavour) throws Exception
    {
        final int[] positions = {6, 7, 8, 0, 3, 4};
        final Datatype indexed = committed(Datatype.Indexed(new int[] {3, 1, 2}, new int[] {6, 0, 3}, MPI.DOUBLE));
        final Datatype pair = committed(Datatype.Contiguous(2, MPI.DOUBLE));
        final Datatype pairs = committed(Datatype.Hindexed(new int[] {2, 1}, new int[] {10, 0}, pair));
        final int[] lengths = new int[40];
        final int[] displacements = new int[40];
        final List<Integer> bigPositions = new ArrayList<>();
        for (int block = 0, at = 0; block < lengths.length; block++)
        {
            lengths[block] = block % 2 + 1;
            displacements[block] = at;
            for (int i = 0; i < lengths[block]; i++)
            {
                bigPositions.add(at + i);
            }
            at += lengths[block] + 1 + block % 3;
        }
        final Datatype big = committed(Datatype.Indexed(lengths, displacements, MPI.DOUBLE));
        final double[] six = sequence(rank * 100, 6);
        final double[] twelve = sequence(rank * 100 + 10, 12);
        final double[] many = sequence(rank * 100 + 30, bigPositions.size());
        final List<String> failures = new ArrayList<>();
        final Window w = open(flavour);
        w.win().fence(0);
        w.win().put(six, 0, 6, MPI.DOUBLE, right, w.disp(right, 60), 1, indexed);
        w.win().put(twelve, 0, 12, MPI.DOUBLE, right, w.disp(right, 20), 2, indexed);
        w.win().put(many, 0, many.length, MPI.DOUBLE, right, w.disp(right, 100), 1, big);
        w.win().fence(0);
        final double[] gotPairs = new double[6];
        final double[] gotMany = new double[many.length];
        w.win().get(gotPairs, 0, 6, MPI.DOUBLE, right, w.disp(right, 80), 1, pairs);
        w.win().get(gotMany, 0, many.length, MPI.DOUBLE, right, w.disp(right, 100), 1, big);
        w.win().fence(Win.MODE_NOSUCCEED);
        final boolean[] written = new boolean[SLOTS];
        for (int k = 0; k < 6; k++)
        {
            written[60 + positions[k]] = true;
            check(failures, w.mine(60 + positions[k]) == left * 100 + k, "indexed element " + k + " is " +
                w.mine(60 + positions[k]));
        }
        for (int k = 0; k < 12; k++)
        {
            final int at = 20 + (k / 6) * 9 + positions[k % 6];
            written[at] = true;
            check(failures, w.mine(at) == left * 100 + 10 + k, "two indexed copies: element " + k + " is " +
                w.mine(at));
        }
        for (int k = 0; k < bigPositions.size(); k++)
        {
            final int at = 100 + bigPositions.get(k);
            written[at] = true;
            check(failures, w.mine(at) == left * 100 + 30 + k, "40-block element " + k + " is " + w.mine(at));
            check(failures, gotMany[k] == many[k], "40-block element " + k + " got back as " + gotMany[k]);
        }
        for (int i = 0; i < SLOTS; i++)
        {
            check(failures, written[i] || w.mine(i) == value(rank, i), "element " + i + " written");
        }
        final int[] pairPositions = {10, 11, 12, 13, 0, 1};
        for (int k = 0; k < 6; k++)
        {
            check(failures, gotPairs[k] == value(right, 80 + pairPositions[k]), "hindexed element " + k + " is " +
                gotPairs[k]);
        }
        w.win().free();
        report("indexed hindexed " + flavour, failures);
    }

    private static void nested(final String flavour) throws Exception
    {
        final Datatype pair = committed(Datatype.Contiguous(2, MPI.DOUBLE));
        // Pairs 0, 3 and 6 of a copy: elements 0, 1, 6, 7, 12, 13; extent 7 pairs, so copy 1 starts at 14.
        final Datatype pairsApart = committed(Datatype.Vector(3, 1, 3, pair));
        final int[] positions = {0, 1, 6, 7, 12, 13, 14, 15, 20, 21, 26, 27};
        final double[] origin = sequence(rank * 100, 28);
        final List<String> failures = new ArrayList<>();
        final Window w = open(flavour);
        w.win().fence(0);
        w.win().put(origin, 0, 2, pairsApart, right, w.disp(right, 150), 2, pairsApart);
        w.win().fence(0);
        final double[] back = new double[28];
        w.win().get(back, 0, 2, pairsApart, right, w.disp(right, 150), 2, pairsApart);
        w.win().fence(Win.MODE_NOSUCCEED);
        final boolean[] written = new boolean[28];
        for (final int at : positions)
        {
            written[at] = true;
            check(failures, w.mine(150 + at) == left * 100 + at, "element " + at + " is " + w.mine(150 + at));
            check(failures, back[at] == origin[at], "got back element " + at + " as " + back[at]);
        }
        for (int at = 0; at < 28; at++)
        {
            check(failures, written[at] || w.mine(150 + at) == value(rank, 150 + at) && back[at] == 0,
                "element " + at + " between the pairs written");
        }
        w.win().free();
        report("nested " + flavour, failures);
    }

    private static void accumulateAtomic(final String flavour) throws Exception
    {
        final Datatype everyOther = committed(Datatype.Vector(5, 1, 2, MPI.DOUBLE));
        final double[] ones = {1, 1, 1, 1, 1};
        final double[] stridedOnes = {1, -7, 1, -7, 1, -7, 1, -7, 1};
        final List<String> failures = new ArrayList<>();
        final Window w = open(flavour);
        w.win().fence(Win.MODE_NOSUCCEED);
        w.win().lockAll(0);
        for (int i = 0; i < ACCUMULATES; i++)
        {
            for (int target = 0; target < size; target++)
            {
                w.win().accumulate(ones, 0, 5, MPI.DOUBLE, target, w.disp(target, 0), 1, everyOther, MPI.SUM);
                w.win().accumulate(stridedOnes, 0, 1, everyOther, target, w.disp(target, 20), 5, MPI.DOUBLE,
                    MPI.SUM);
            }
        }
        w.win().unlockAll();
        w.win().fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED);
        final double sums = (double)size * ACCUMULATES;
        for (int i = 0; i < 10; i++)
        {
            final double expected = value(rank, i) + (i % 2 == 0 ? sums : 0);
            check(failures, w.mine(i) == expected, "element " + i + " is " + w.mine(i) + ", expected " + expected);
        }
        for (int i = 20; i < 26; i++)
        {
            final double expected = value(rank, i) + (i < 25 ? sums : 0);
            check(failures, w.mine(i) == expected, "element " + i + " is " + w.mine(i) + ", expected " + expected);
        }
        w.win().free();
        report("accumulate atomic " + flavour, failures);
    }

    private static void getAccumulate(final String flavour) throws Exception
    {
        final Datatype originType = committed(Datatype.Vector(4, 1, 2, MPI.DOUBLE));
        final Datatype resultType = committed(Datatype.Indexed(new int[] {2, 2}, new int[] {4, 0}, MPI.DOUBLE));
        final Datatype targetType = committed(Datatype.Vector(4, 1, 3, MPI.DOUBLE));
        final double[] origin = sequence(rank * 10 + 1, 7);
        final double[] result = {-1, -1, -1, -1, -1, -1};
        final double[] after = {-1, -1, -1, -1, -1, -1};
        final List<String> failures = new ArrayList<>();
        final Window w = open(flavour);
        w.win().fence(0);
        w.win().getAccumulate(origin, 0, 1, originType, result, 0, 1, resultType, right, w.disp(right, 30), 1,
            targetType, MPI.SUM);
        w.win().fence(0);
        w.win().getAccumulate(null, 0, 0, originType, after, 0, 1, resultType, right, w.disp(right, 30), 1,
            targetType, Win.NO_OP);
        w.win().fence(Win.MODE_NOSUCCEED);
        // Result element k (positions 4, 5, 0, 1) holds target element k (30, 33, 36, 39) from before.
        final int[] resultAt = {4, 5, 0, 1};
        for (int k = 0; k < 4; k++)
        {
            final int target = 30 + 3 * k;
            check(failures, result[resultAt[k]] == value(right, target), "result " + k + " is " +
                result[resultAt[k]]);
            check(failures, after[resultAt[k]] == value(right, target) + origin[2 * k], "NO_OP result " + k +
                " is " + after[resultAt[k]]);
            check(failures, w.mine(target) == value(rank, target) + left * 10 + 1 + 2 * k, "element " + target +
                " is " + w.mine(target));
            check(failures, w.mine(target + 1) == value(rank, target + 1), "element " + (target + 1) + " written");
        }
        check(failures, result[2] == -1 && result[3] == -1 && after[2] == -1, "result " + Arrays.toString(result) +
            " written between its blocks");
        w.win().free();
        report("get accumulate " + flavour, failures);
    }

    private static void requests(final String flavour) throws Exception
    {
        final Datatype originType = committed(Datatype.Vector(4, 1, 2, MPI.DOUBLE));
        final Datatype targetType = committed(Datatype.Vector(4, 1, 3, MPI.DOUBLE));
        final double[] origin = sequence(rank * 100, 7);
        final double[] got = new double[7];
        final double[] byUnlock = new double[7];
        final double[] old = new double[7];
        final List<String> failures = new ArrayList<>();
        final Window w = open(flavour);
        w.win().fence(Win.MODE_NOSUCCEED);
        w.win().lockAll(0);
        final WinRequest put = w.win().rPut(origin, 0, 1, originType, right, w.disp(right, 50), 1, targetType);
        w.win().flush(right);
        final WinRequest get = w.win().rGet(got, 0, 1, originType, right, w.disp(right, 50), 1, targetType);
        final WinRequest fetch = w.win().rGetAccumulate(origin, 0, 1, originType, old, 0, 1, originType, right,
            w.disp(right, 70), 1, targetType, MPI.SUM);
        WinRequest.waitAll(put, get, fetch);
        final WinRequest unwaited = w.win().rGet(byUnlock, 0, 1, originType, right, w.disp(right, 50), 1,
            targetType);
        w.win().unlockAll();
        final double[] atUnlock = byUnlock.clone();
        final boolean complete = unwaited.test();
        w.win().fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED);
        for (int k = 0; k < 4; k++)
        {
            check(failures, got[2 * k] == origin[2 * k], "rGet element " + k + ": " + Arrays.toString(got));
            check(failures, atUnlock[2 * k] == origin[2 * k], "rGet completed by unlockAll, element " + k + ": " +
                Arrays.toString(atUnlock));
            check(failures, old[2 * k] == value(right, 70 + 3 * k), "rGetAccumulate element " + k + ": " +
                Arrays.toString(old));
            check(failures, w.mine(50 + 3 * k) == left * 100 + 2 * k, "rPut element " + k + " is " +
                w.mine(50 + 3 * k));
            check(failures, w.mine(70 + 3 * k) == value(rank, 70 + 3 * k) + left * 100 + 2 * k,
                "rGetAccumulate target element " + k + " is " + w.mine(70 + 3 * k));
        }
        for (int k = 0; k < 3; k++)
        {
            check(failures, got[2 * k + 1] == 0 && atUnlock[2 * k + 1] == 0 && old[2 * k + 1] == 0,
                "an element between the vector's written");
        }
        check(failures, complete, "the rGet that unlockAll completed does not test complete");
        w.win().free();
        report("requests " + flavour, failures);
    }

    private static void range(final String flavour) throws Exception
    {
        final List<String> failures = new ArrayList<>();
        final Window w = open(flavour);
        if (!flavour.equals("createDynamic"))
        {
            // Elements SLOTS - 10, SLOTS - 5 and SLOTS: one past the end. Then SLOTS - 9, SLOTS - 5, SLOTS - 1.
            final Datatype fiveApart = committed(Datatype.Vector(3, 1, 5, MPI.DOUBLE));
            final Datatype fourApart = committed(Datatype.Vector(3, 1, 4, MPI.DOUBLE));
            w.win().fence(0);
            final RmaException past = expectError(failures, ErrorClass.ERR_RMA_RANGE, () -> w.win().put(
                new double[] {1, 2, 3}, 0, 3, MPI.DOUBLE, right, w.disp(right, SLOTS - 10), 1, fiveApart));
            check(failures, past == null || past.getMessage().contains("past the end"), "message " +
                (past == null ? "" : past.getMessage()));
            w.win().put(new double[] {-1, -2, -3}, 0, 3, MPI.DOUBLE, right, w.disp(right, SLOTS - 9), 1, fourApart);
            w.win().fence(Win.MODE_NOSUCCEED);
            check(failures, w.mine(SLOTS - 10) == value(rank, SLOTS - 10), "the refused put wrote its first element");
            check(failures, w.mine(SLOTS - 9) == -1 && w.mine(SLOTS - 5) == -2 && w.mine(SLOTS - 1) == -3,
                "the put ending on the last element: " + w.mine(SLOTS - 9) + ", " + w.mine(SLOTS - 5) + ", " +
                w.mine(SLOTS - 1));
        }
        else
        {
            dynamicRange(w, failures);
        }
        w.win().free();
        report("range " + flavour, failures);
    }

    private static void dynamicRange(final Window w, final List<String> failures) throws Exception
    {
        // Runs of 2 at 0 and at SLOTS - 1: the second crosses the end of the attached array by one double.
        final Datatype crossing = committed(Datatype.Indexed(new int[] {2, 2}, new int[] {0, SLOTS - 1},
            MPI.DOUBLE));
        final double[] second = new double[16];
        final long secondAddress = w.win().attach(second);
        final long[] gaps = new long[size];
        MPI.COMM_WORLD.Allgather(new long[] {(secondAddress - w.addresses()[rank]) / Double.BYTES}, 0, 1, MPI.LONG,
            gaps, 0, 1, MPI.LONG);
        // The last two doubles of the first region and the first two of the second: each run in one region.
        final Datatype twoRegions = committed(Datatype.Indexed(new int[] {2, 2}, new int[] {SLOTS - 2,
            (int)gaps[right]}, MPI.DOUBLE));
        w.win().lock(Win.LOCK_EXCLUSIVE, right, 0);
        w.win().put(new double[] {1, 2, 3, 4}, 0, 4, MPI.DOUBLE, right, w.disp(right, 0), 1, crossing);
        final RmaException atFlush = expectError(failures, ErrorClass.ERR_RMA_RANGE, () -> w.win().flush(right));
        check(failures, atFlush == null || atFlush.getMessage().contains("rank " + right) &&
            atFlush.getMessage().contains("run past their end"), "flush's message: " +
            (atFlush == null ? "" : atFlush.getMessage()));
        expectError(failures, ErrorClass.ERR_RMA_RANGE, () -> w.win().get(new double[4], 0, 4, MPI.DOUBLE, right,
            w.disp(right, 0), 1, crossing));
        w.win().put(new double[] {5, 6, 7, 8}, 0, 4, MPI.DOUBLE, right, w.disp(right, 0), 1, twoRegions);
        w.win().unlock(right);
        MPI.COMM_WORLD.Barrier();
        w.win().sync();
        check(failures, w.mine(0) == value(rank, 0) && w.mine(1) == value(rank, 1),
            "the refused put wrote its first run: " + w.mine(0) + ", " + w.mine(1));
        check(failures, w.mine(SLOTS - 2) == 5 && w.mine(SLOTS - 1) == 6 && second[0] == 7 && second[1] == 8 &&
            second[2] == 0, "the put into two regions: " + w.mine(SLOTS - 2) + ", " + w.mine(SLOTS - 1) + ", " +
            Arrays.toString(second));
        MPI.COMM_WORLD.Barrier();
        w.win().detach(second);
    }

    private static void signatureErrors(final String flavour) throws Exception
    {
        final Datatype three = committed(Datatype.Vector(3, 1, 2, MPI.DOUBLE));
        final Datatype overlapping = committed(Datatype.Indexed(new int[] {2, 1}, new int[] {0, 1}, MPI.DOUBLE));
        final List<String> failures = new ArrayList<>();
        final Window w = open(flavour);
        w.win().fence(0);
        final RmaException count = expectError(failures, ErrorClass.ERR_COUNT, () -> w.win().put(new double[6], 0,
            1, three, right, w.disp(right, 0), 2, MPI.DOUBLE));
        check(failures, count == null || count.getMessage().contains("3 of") && count.getMessage().contains("2 of"),
            "ERR_COUNT's message: " + (count == null ? "" : count.getMessage()));
        expectError(failures, ErrorClass.ERR_TYPE, () -> w.win().put(new double[6], 0, 1, three, right,
            w.disp(right, 0), 3, MPI.FLOAT));
        expectError(failures, ErrorClass.ERR_COUNT, () -> w.win().getAccumulate(new double[6], 0, 1, three,
            new double[6], 0, 2, MPI.DOUBLE, right, w.disp(right, 0), 1, three, MPI.SUM));
        expectError(failures, ErrorClass.ERR_TYPE, () -> w.win().get(new double[3], 0, 1, overlapping, right,
            w.disp(right, 0), 3, MPI.DOUBLE));
        expectError(failures, ErrorClass.ERR_TYPE, () -> w.win().fetchAndOp(new double[6], 0, new double[6], 0,
            three, right, w.disp(right, 0), MPI.SUM));
        w.win().put(new double[] {-1, 0, -2, 0, -3}, 0, 1, three, right, w.disp(right, 0), 3, MPI.DOUBLE);
        w.win().fence(Win.MODE_NOSUCCEED);
        check(failures, w.mine(0) == -1 && w.mine(1) == -2 && w.mine(2) == -3 && w.mine(3) == value(rank, 3),
            "the put after the errors: " + w.mine(0) + ", " + w.mine(1) + ", " + w.mine(2));
        w.win().free();
        report("signature errors " + flavour, failures);
    }

    private interface Action
    {
        void run() throws Exception;
    }

    private static RmaException expectError(final List<String> failures, final ErrorClass expected,
        final Action action) throws Exception
    {
        try
        {
            action.run();
        }
        catch (final RmaException e)
        {
            check(failures, e.errorClass() == expected, "expected " + expected + ", got " + e.errorClass() + ": " +
                e.getMessage());
            return e;
        }
        failures.add("expected " + expected + " but the call succeeded");
        return null;
    }

    private static Datatype committed(final Datatype datatype) throws Exception
    {
        datatype.Commit();
        return datatype;
    }

    private static double value(final int owner, final int element)
    {
        return owner * 1000 + element;
    }

    private static double[] sequence(final double first, final int count)
    {
        final double[] values = new double[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = first + i;
        }
        return values;
    }

    private static void check(final List<String> failures, final boolean ok, final String what)
    {
        if (!ok && failures.size() < 10)
        {
            failures.add(what);
        }
    }

    private static void report(final String name, final List<String> failures)
    {
        System.out.println("rank " + rank + " " + name + (failures.isEmpty() ? " ok" : " FAILED: " + failures));
    }
}
