package conformance.cases;

import java.util.Arrays;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.Datatype;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;
import mpi.rma.WinRequest;

/** Put and get between segments, and their argument errors (docs/conformance-checklist.md#put-and-get). */
public final class PutGetCases
{
    private PutGetCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.PUT_GET)
            .add("rma.put-ring", Behaviour.RMA_PUT_GET,
                "each rank puts 1000 ints to its right neighbour between fences; the owner loads exactly them",
                "MPI-4.1 §12.3.1, §12.5.1; MPICH putfence1, test1", PutGetCases::putRing)
            .add("rma.get-ring", Behaviour.RMA_PUT_GET,
                "each rank stores its data, fence, gets its right neighbour's 1000 longs, fence: it has them",
                "MPI-4.1 §12.3.2, §12.5.1; MPICH getfence1", PutGetCases::getRing)
            .add("rma.every-basic-type", Behaviour.RMA_PUT_GET,
                "put then get back one element of each basic type (byte, char, short, boolean, int, long, float, " +
                    "double) at its own displacement: values survive exactly",
                "MPI-4.1 §12.3.1-2; docs/design.md#derived-datatypes", PutGetCases::everyBasicType)
            .add("rma.large-put-get", Behaviour.RMA_PUT_GET,
                "each rank puts 1 MiB (131072 longs) into its right neighbour under a shared lock and unlocks; after " +
                    "a barrier it gets them back in one call: both directions carry every element",
                "MPI-4.1 §12.3.1, §12.3.2 (any count); MPICH rma-contig", PutGetCases::largePutGet)
            .add("rma.self", Behaviour.RMA_PUT_GET,
                "put to and get from the calling rank itself work, with origin offsets",
                "MPI-4.1 §12.3 (self communication); MPICH selfrma", PutGetCases::self)
            .add("rma.proc-null-target", Behaviour.RMA_PROC_NULL,
                "put, get and accumulate to PROC_NULL inside an epoch do nothing: no error, buffers untouched",
                "MPI-4.1 §12.3 (PROC_NULL valid in all RMA calls); MPICH rmanull; docs/design.md#proc-null-targets",
                PutGetCases::procNullTarget)
            .add("rma.proc-null-needs-epoch", Behaviour.EPOCH_REQUIRED,
                "a put to PROC_NULL outside any epoch is still MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.3 (an epoch is still required); MPICH rmanull", PutGetCases::procNullNeedsEpoch)
            .add("rma.zero-count", Behaviour.RMA_PUT_GET,
                "a put and a get of 0 elements succeed, even at the displacement just past the segment's end",
                "MPI-4.1 §12.3; MPICH rmazero", PutGetCases::zeroCount)
            .add("rma.zero-count-accumulates", Behaviour.RMA_PUT_GET,
                "accumulate and getAccumulate of 0 elements at the displacement just past the end, in a fence " +
                    "epoch, and rAccumulate and rGetAccumulate of 0 in a lockAll epoch: no error, the result array " +
                    "and the memory untouched",
                "MPI-4.1 §12.3.4 (count 0 is valid); MPICH rmazero", PutGetCases::zeroCountAccumulates)
            .add("rma.overrun-rejected", 2, Behaviour.DISP_RANGE,
                "a put of 2 ints at the last int of rank 0's segment: MPI_ERR_RMA_RANGE, and rank 1's first int " +
                    "(its contiguous neighbour) is unchanged",
                "MPI-4.1 §12.3.1 (advice to implementors), §12.6.2; docs/design.md#accesses-past-the-end-are-rejected",
                PutGetCases::overrunRejected)
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .add("rma.zero-size-target", 2, Behaviour.DISP_RANGE,
                "a one-byte put to a rank whose segment has size 0: MPI_ERR_RMA_RANGE",
                "MPI-4.1 §12.3.1, §12.6.2; docs/design.md#accesses-past-the-end-are-rejected",
                PutGetCases::zeroSizeTarget)
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .add("rma.bad-rank", Behaviour.RMA_ARGUMENT_ERRORS,
                "put to rank -5 and to rank = group size: MPI_ERR_RANK",
                "MPI-4.1 §12.6.2; MPICH errors/rma/winerr (rank -5); Open MPI put.c.in", PutGetCases::badRank)
            .add("rma.negative-count", Behaviour.RMA_ARGUMENT_ERRORS,
                "origin count -1: MPI_ERR_COUNT",
                "MPI-4.1 §12.3.1; Open MPI put.c.in", PutGetCases::negativeCount)
            .add("rma.count-mismatch", Behaviour.RMA_ARGUMENT_ERRORS,
                "origin 2 ints, target 3 ints (different type signatures): MPI_ERR_COUNT",
                "MPI-4.1 §12.3.1 (origin and target signatures must match)", PutGetCases::countMismatch)
            .add("rma.buffer-type-mismatch", Behaviour.RMA_ARGUMENT_ERRORS,
                "an int[] described as MPI.LONG: MPI_ERR_TYPE",
                "MPI-4.1 §12.3.1; MPJ Express buffer/datatype rule", PutGetCases::bufferTypeMismatch)
            .add("rma.null-buffer", Behaviour.RMA_ARGUMENT_ERRORS,
                "a null origin buffer: MPI_ERR_BUFFER, naming it",
                "MPI-4.1 §12.3.1, §9.4; docs/design.md#every-argument-is-checked", PutGetCases::nullBuffer)
            .add("rma.origin-offset-out-of-array", Behaviour.RMA_ARGUMENT_ERRORS,
                "origin offset 3 with count 2 in an array of 4: ERR_ARG, nothing written",
                "docs/design.md#every-argument-is-checked", PutGetCases::originOffsetOutOfArray)
            .add("rma.conflicting-puts", 2, Behaviour.RMA_CONFLICTS,
                "every rank puts its rank to the same long of rank 0 in one epoch: no error, and the value is one " +
                    "of the ranks",
                "MPI-4.1 §12.7 (conflicts are undefined but must not raise an error since MPI-3)",
                PutGetCases::conflictingPuts)
            .add("rma.get-after-flush-local", 2, Behaviour.RMA_FLUSH_LOCAL,
                "under a shared lock, a get followed by flushLocal has its result in the origin buffer",
                "MPI-4.1 §12.5.4 (flush_local completes at the origin); MPICH get_flushlocal_shm",
                PutGetCases::getAfterFlushLocal)
            .add("rma.empty-null-and-mismatched", Behaviour.RMA_EMPTY_TRANSFERS,
                "in a fence epoch, put, get, accumulate and getAccumulate of nothing to the right neighbour: with " +
                    "null buffers, with a double[] origin of DOUBLE against target type INT, with 5 copies of a " +
                    "0-element Contiguous type against count 0, and at a displacement far past the end; each " +
                    "succeeds, the neighbour's ints and the origin's double are unchanged",
                "MPI-4.1 §12.3.1, §12.3.2, §12.3.4 (empty type signatures match, §3.3.1); MPICH badrma; " +
                    "docs/design.md#transfers-that-move-nothing", PutGetCases::emptyNullAndMismatched)
            .add("rma.empty-request-based", Behaviour.RMA_EMPTY_TRANSFERS,
                "in a lockAll epoch, rPut, rGet, rAccumulate and rGetAccumulate of nothing with null buffers and " +
                    "differing types to the right neighbour: each returns a request that is complete at once, and " +
                    "the neighbour's longs are unchanged",
                "MPI-4.1 §12.3.5; MPICH badrma; docs/design.md#transfers-that-move-nothing",
                PutGetCases::emptyRequestBased)
            .add("rma.empty-still-checked", Behaviour.RMA_EMPTY_TRANSFERS,
                "transfers of nothing with null buffers are still errors where every call is: a put outside any " +
                    "epoch and a get after MODE_NOSUCCEED MPI_ERR_RMA_SYNC, an rPut in a fence epoch " +
                    "MPI_ERR_RMA_SYNC, a get from rank size MPI_ERR_RANK, targetCount -1 MPI_ERR_COUNT, an " +
                    "accumulate at displacement -1 MPI_ERR_DISP, a null target type MPI_ERR_TYPE, 1 origin int " +
                    "against 0 MPI_ERR_COUNT, a put on a freed window MPI_ERR_WIN",
                "MPI-4.1 §12.3, §12.5, §12.6.2; MPICH badrma; docs/design.md#transfers-that-move-nothing",
                PutGetCases::emptyStillChecked)
            .list();
    }

    private static void putRing(final CaseContext c) throws Exception
    {
        final int n = 1000;
        final Win win = c.window(4L * n, 4);
        final int[] data = new int[n];
        for (int i = 0; i < n; i++)
        {
            data[i] = c.rank() * 100_000 + i;
        }
        win.fence(0);
        final int right = (c.rank() + 1) % c.size();
        win.put(data, 0, n, MPI.INT, right, c.disp(win, right, 0), n, MPI.INT);
        win.fence(0);
        final int left = (c.rank() + c.size() - 1) % c.size();
        for (int i = 0; i < n; i++)
        {
            if (Memory.getInt(c.memory(win), i) != left * 100_000 + i)
            {
                c.fail("element " + i + " is " + Memory.getInt(c.memory(win), i));
                break;
            }
        }
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void getRing(final CaseContext c) throws Exception
    {
        final int n = 1000;
        final Win win = c.window(8L * n, 8);
        win.fence(0);
        for (int i = 0; i < n; i++)
        {
            Memory.setLong(c.memory(win), i, c.rank() * 1_000_000L + i);
        }
        win.fence(0);
        final long[] got = new long[n];
        final int right = (c.rank() + 1) % c.size();
        win.get(got, 0, n, MPI.LONG, right, c.disp(win, right, 0), n, MPI.LONG);
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < n; i++)
        {
            if (got[i] != right * 1_000_000L + i)
            {
                c.fail("element " + i + " is " + got[i]);
                break;
            }
        }
    }

    private static void everyBasicType(final CaseContext c) throws Exception
    {
        final Win win = c.window(64, 1);
        final int target = (c.rank() + 1) % c.size();
        win.lockAll(0);
        win.put(new byte[] {-7}, 0, 1, MPI.BYTE, target, c.disp(win, target, 0), 1, MPI.BYTE);
        win.put(new char[] {'\u20ac'}, 0, 1, MPI.CHAR, target, c.disp(win, target, 2), 1, MPI.CHAR);
        win.put(new short[] {-1234}, 0, 1, MPI.SHORT, target, c.disp(win, target, 4), 1, MPI.SHORT);
        win.put(new boolean[] {true}, 0, 1, MPI.BOOLEAN, target, c.disp(win, target, 6), 1, MPI.BOOLEAN);
        win.put(new int[] {-123456789}, 0, 1, MPI.INT, target, c.disp(win, target, 8), 1, MPI.INT);
        win.put(new long[] {Long.MIN_VALUE + 3}, 0, 1, MPI.LONG, target, c.disp(win, target, 16), 1,
            MPI.LONG);
        win.put(new float[] {1.5e-3f}, 0, 1, MPI.FLOAT, target, c.disp(win, target, 24), 1, MPI.FLOAT);
        win.put(new double[] {-Math.PI}, 0, 1, MPI.DOUBLE, target, c.disp(win, target, 32), 1, MPI.DOUBLE);
        win.flush(target);
        final byte[] b = new byte[1];
        final char[] ch = new char[1];
        final short[] s = new short[1];
        final boolean[] z = new boolean[1];
        final int[] i = new int[1];
        final long[] l = new long[1];
        final float[] f = new float[1];
        final double[] d = new double[1];
        win.get(b, 0, 1, MPI.BYTE, target, c.disp(win, target, 0), 1, MPI.BYTE);
        win.get(ch, 0, 1, MPI.CHAR, target, c.disp(win, target, 2), 1, MPI.CHAR);
        win.get(s, 0, 1, MPI.SHORT, target, c.disp(win, target, 4), 1, MPI.SHORT);
        win.get(z, 0, 1, MPI.BOOLEAN, target, c.disp(win, target, 6), 1, MPI.BOOLEAN);
        win.get(i, 0, 1, MPI.INT, target, c.disp(win, target, 8), 1, MPI.INT);
        win.get(l, 0, 1, MPI.LONG, target, c.disp(win, target, 16), 1, MPI.LONG);
        win.get(f, 0, 1, MPI.FLOAT, target, c.disp(win, target, 24), 1, MPI.FLOAT);
        win.get(d, 0, 1, MPI.DOUBLE, target, c.disp(win, target, 32), 1, MPI.DOUBLE);
        win.unlockAll();
        c.checkEquals(-7, b[0], "byte");
        c.checkEquals('\u20ac', ch[0], "char");
        c.checkEquals(-1234, s[0], "short");
        c.check(z[0], "boolean is false");
        c.checkEquals(-123456789, i[0], "int");
        c.checkEquals(Long.MIN_VALUE + 3, l[0], "long");
        c.check(f[0] == 1.5e-3f, "float is " + f[0]);
        c.check(d[0] == -Math.PI, "double is " + d[0]);
    }

    private static void largePutGet(final CaseContext c) throws Exception
    {
        final int n = 1 << 17;
        final Win win = c.window((long)Long.BYTES * n, Long.BYTES);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        final long[] data = new long[n];
        for (int i = 0; i < n; i++)
        {
            data[i] = ((long)c.rank() << 32) + i * 7L;
        }
        win.lock(Win.LOCK_SHARED, right, 0);
        win.put(data, 0, n, MPI.LONG, right, c.disp(win, right, 0), n, MPI.LONG);
        win.unlock(right);
        c.barrier();
        final long[] back = new long[n];
        win.lock(Win.LOCK_SHARED, right, 0);
        win.get(back, 0, n, MPI.LONG, right, c.disp(win, right, 0), n, MPI.LONG);
        win.unlock(right);
        c.check(Arrays.equals(data, back), "the 1 MiB got back from the right neighbour differs from " +
            "what was put there");
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        for (int i = 0; i < n; i++)
        {
            if (Memory.getLong(c.memory(win), i) != ((long)left << 32) + i * 7L)
            {
                c.fail("own element " + i + " is " + Memory.getLong(c.memory(win), i));
                break;
            }
        }
        win.unlock(c.rank());
    }

    private static void self(final CaseContext c) throws Exception
    {
        final Win win = c.window(40, 4);
        win.fence(0);
        win.put(new int[] {0, 0, 5, 6, 7}, 2, 3, MPI.INT, c.rank(), c.disp(win, c.rank(), 1), 3, MPI.INT);
        win.fence(0);
        final int[] got = new int[6];
        win.get(got, 3, 3, MPI.INT, c.rank(), c.disp(win, c.rank(), 1), 3, MPI.INT);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals("[0, 0, 0, 5, 6, 7]", Arrays.toString(got), "got");
    }

    private static void procNullTarget(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        Memory.setLong(c.memory(win), 0, 77);
        win.fence(0);
        final long[] got = {-1};
        win.put(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG);
        win.get(got, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG);
        win.accumulate(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG, MPI.SUM);
        win.fence(0);
        c.checkEquals(-1, got[0], "get buffer");
        c.checkEquals(77, Memory.getLong(c.memory(win), 0), "own segment");
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void procNullNeedsEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "put to PROC_NULL without epoch",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG));
    }

    private static void zeroCount(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 4);
        win.fence(0);
        win.put(new int[0], 0, 0, MPI.INT, c.rank(), c.disp(win, c.rank(), 4), 0, MPI.INT);
        final int right = (c.rank() + 1) % c.size();
        win.get(new int[0], 0, 0, MPI.INT, right, c.disp(win, right, 4), 0, MPI.INT);
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void zeroCountAccumulates(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        final int right = (c.rank() + 1) % c.size();
        final long[] result = {-1};
        win.fence(0);
        Memory.setLong(c.memory(win), 1, 55);
        win.fence(0);
        win.accumulate(new long[0], 0, 0, MPI.LONG, right, c.disp(win, right, 2), 0, MPI.LONG, MPI.SUM);
        win.getAccumulate(new long[0], 0, 0, MPI.LONG, result, 0, 0, MPI.LONG, right,
            c.disp(win, right, 2), 0, MPI.LONG, MPI.SUM);
        win.fence(Win.MODE_NOSUCCEED);
        win.lockAll(0);
        win.rAccumulate(new long[0], 0, 0, MPI.LONG, right, c.disp(win, right, 2), 0, MPI.LONG,
            Win.REPLACE).waitFor();
        win.rGetAccumulate(new long[0], 0, 0, MPI.LONG, result, 0, 0, MPI.LONG, right,
            c.disp(win, right, 1), 0, MPI.LONG, Win.NO_OP).waitFor();
        win.unlockAll();
        c.barrier();
        c.checkEquals(-1, result[0], "result array");
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.checkEquals(0, Memory.getLong(c.memory(win), 0), "own long 0");
        c.checkEquals(55, Memory.getLong(c.memory(win), 1), "own long 1");
        win.unlock(c.rank());
    }

    private static void overrunRejected(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 4);
        win.fence(0);
        Memory.setInt(c.memory(win), 0, 100 + c.rank());
        win.fence(0);
        if (c.rank() == c.last())
        {
            c.expectError(ErrorClass.ERR_RMA_RANGE, "put of 2 ints at disp 3 of rank 0",
                () -> win.put(new int[] {-1, -1}, 0, 2, MPI.INT, 0, 3, 2, MPI.INT));
        }
        win.fence(0);
        c.checkEquals(101, Memory.getInt(c.memoryOf(win, 1), 0), "rank 1's first int");
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void zeroSizeTarget(final CaseContext c) throws Exception
    {
        final Win win = c.window(c.isRoot() ? 0 : 8, 1);
        win.fence(0);
        c.expectError(ErrorClass.ERR_RMA_RANGE, "put to rank 0 (size 0)",
            () -> win.put(new byte[] {1}, 0, 1, MPI.BYTE, 0, 0, 1, MPI.BYTE));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void badRank(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_RANK, "put to rank -5",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, -5, 0, 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_RANK, "get from rank " + c.size(),
            () -> win.get(new long[1], 0, 1, MPI.LONG, c.size(), 0, 1, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void negativeCount(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_COUNT, "put count -1",
            () -> win.put(new long[1], 0, -1, MPI.LONG, c.rank(), 0, -1, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void countMismatch(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 4);
        win.fence(0);
        c.expectError(ErrorClass.ERR_COUNT, "put 2 vs 3",
            () -> win.put(new int[3], 0, 2, MPI.INT, c.rank(), 0, 3, MPI.INT));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void bufferTypeMismatch(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_TYPE, "int[] as MPI.LONG",
            () -> win.put(new int[2], 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void nullBuffer(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_BUFFER, "put from null",
            () -> win.put(null, 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void originOffsetOutOfArray(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_ARG, "put offset 3 count 2 of long[4]",
            () -> win.put(new long[4], 3, 2, MPI.LONG, c.rank(), 0, 2, MPI.LONG));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void conflictingPuts(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        win.put(new long[] {c.rank()}, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG);
        win.fence(0);
        final long value = Memory.getLong(c.memoryOf(win, 0), 0);
        c.check(value >= 0 && value < c.size(), "value " + value + " is no rank");
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void getAfterFlushLocal(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        Memory.setLong(c.memory(win), 0, 500 + c.rank());
        win.fence(Win.MODE_NOSUCCEED);
        final int target = (c.rank() + 1) % c.size();
        final long[] got = new long[1];
        win.lock(Win.LOCK_SHARED, target, 0);
        win.get(got, 0, 1, MPI.LONG, target, c.disp(win, target, 0), 1, MPI.LONG);
        win.flushLocal(target);
        c.checkEquals(500 + target, got[0], "value after flushLocal");
        win.unlock(target);
    }

    private static void emptyNullAndMismatched(final CaseContext c) throws Exception
    {
        final int n = 8;
        final Win win = c.window(4L * n, 4);
        final int right = (c.rank() + 1) % c.size();
        final Datatype nothing = Datatype.Contiguous(0, MPI.INT);
        final double[] origin = {-1.5};
        win.fence(0);
        for (int i = 0; i < n; i++)
        {
            Memory.setInt(c.memory(win), i, 100 * c.rank() + i);
        }
        win.fence(0);
        win.put(null, 0, 0, MPI.INT, right, c.disp(win, right, 0), 0, MPI.INT);
        win.put(origin, 0, 0, MPI.DOUBLE, right, c.disp(win, right, 1), 0, MPI.INT);
        win.put(null, 0, 5, nothing, right, c.disp(win, right, 2), 0, MPI.INT);
        win.get(origin, 0, 0, MPI.DOUBLE, right, c.disp(win, right, 3), 0, MPI.INT);
        win.get(null, 0, 0, MPI.INT, right, c.disp(win, right, 1000), 0, MPI.INT);
        win.accumulate(null, 0, 0, MPI.INT, right, c.disp(win, right, 4), 0, MPI.INT, MPI.SUM);
        win.accumulate(origin, 0, 0, MPI.DOUBLE, right, c.disp(win, right, 5), 0, MPI.INT, Win.REPLACE);
        win.getAccumulate(null, 0, 0, MPI.INT, null, 0, 0, MPI.INT, right, c.disp(win, right, 6), 0,
            MPI.INT, MPI.SUM);
        win.getAccumulate(null, 0, 0, MPI.INT, origin, 0, 0, MPI.DOUBLE, right, c.disp(win, right, 7), 2,
            nothing, Win.NO_OP);
        win.put(null, 0, 0, MPI.INT, MPI.PROC_NULL, 0, 0, MPI.DOUBLE);
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < n; i++)
        {
            c.checkEquals(100 * c.rank() + i, Memory.getInt(c.memory(win), i), "own int " + i);
        }
        c.check(origin[0] == -1.5, "the origin double is " + origin[0] + " after empty gets");
    }

    private static void emptyRequestBased(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 8);
        final int right = (c.rank() + 1) % c.size();
        win.fence(0);
        Memory.setLong(c.memory(win), 0, 70 + c.rank());
        Memory.setLong(c.memory(win), 1, 80 + c.rank());
        win.fence(Win.MODE_NOSUCCEED);
        win.lockAll(0);
        final WinRequest[] requests = {
            win.rPut(null, 0, 0, MPI.LONG, right, c.disp(win, right, 0), 0, MPI.LONG),
            win.rGet(null, 0, 0, MPI.INT, right, c.disp(win, right, 1), 0, MPI.LONG),
            win.rAccumulate(new double[1], 0, 0, MPI.DOUBLE, right, c.disp(win, right, 2), 0, MPI.LONG,
                MPI.SUM),
            win.rGetAccumulate(null, 0, 0, MPI.LONG, null, 0, 0, MPI.LONG, right, c.disp(win, right, 0),
                0, MPI.LONG, MPI.SUM)};
        for (int i = 0; i < requests.length; i++)
        {
            c.check(requests[i].test(), "request " + i + " of nothing is not complete at once");
        }
        WinRequest.waitAll(requests);
        win.unlockAll();
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.checkEquals(70 + c.rank(), Memory.getLong(c.memory(win), 0), "own long 0");
        c.checkEquals(80 + c.rank(), Memory.getLong(c.memory(win), 1), "own long 1");
        win.unlock(c.rank());
    }

    private static void emptyStillChecked(final CaseContext c) throws Exception
    {
        final Win win = c.window(16, 4);
        final int right = (c.rank() + 1) % c.size();
        final long disp = c.disp(win, right, 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "empty put outside any epoch",
            () -> win.put(null, 0, 0, MPI.INT, right, disp, 0, MPI.INT));
        win.fence(0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "empty rPut in a fence epoch",
            () -> win.rPut(null, 0, 0, MPI.INT, right, disp, 0, MPI.INT));
        c.expectError(ErrorClass.ERR_RANK, "empty get from rank size",
            () -> win.get(null, 0, 0, MPI.INT, c.size(), 0, 0, MPI.INT));
        c.expectError(ErrorClass.ERR_COUNT, "empty put with targetCount -1",
            () -> win.put(null, 0, 0, MPI.INT, right, disp, -1, MPI.INT));
        c.expectError(ErrorClass.ERR_DISP, "empty accumulate at displacement -1",
            () -> win.accumulate(null, 0, 0, MPI.INT, right, -1, 0, MPI.INT, MPI.SUM));
        c.expectError(ErrorClass.ERR_TYPE, "empty get with a null target type",
            () -> win.get(null, 0, 0, MPI.INT, right, disp, 0, null));
        c.expectError(ErrorClass.ERR_COUNT, "1 origin int against a target count of 0",
            () -> win.put(new int[1], 0, 1, MPI.INT, right, disp, 0, MPI.INT));
        win.fence(Win.MODE_NOSUCCEED);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "empty get after MODE_NOSUCCEED",
            () -> win.get(null, 0, 0, MPI.INT, right, disp, 0, MPI.INT));
        final Win freed = c.unkeptWindow(16, 4, null, c.comm());
        freed.free();
        c.expectError(ErrorClass.ERR_WIN, "empty put on a freed window",
            () -> freed.put(null, 0, 0, MPI.INT, right, 0, 0, MPI.INT));
    }
}
