package mpi.rma.kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.User_function;
import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.RmaException;
import mpi.rma.Shared;
import mpi.rma.SharedSegment;
import mpi.rma.Win;

/**
 * An MPJ Express program that checks every rule of {@code mpi.rma} shared windows on however
 * many processes it runs, on whatever device. Each check prints {@code CHECK <name> ok} or
 * {@code CHECK <name> FAILED: why} on every rank; the program ends with {@code DONE rank r}.
 * {@link RmaRulesTest} runs it and reads those lines.
 *
 * <p>Every check is collective and runs on every rank in the same order; a check that fails
 * on one rank does not stop the others from running the next ones.
 */
public final class RmaRulesProgram
{
    private static final int ITERATIONS = 300;

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final List<String> failures = new ArrayList<>();

    private RmaRulesProgram(final Intracomm comm)
    {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final RmaRulesProgram program = new RmaRulesProgram(MPI.COMM_WORLD);
        program.runAll();
        MPI.Finalize();
    }

    private interface Check
    {
        void run() throws Exception;
    }

    private void runAll()
    {
        check("sizes-differ-and-contiguous", this::sizesDifferAndContiguous);
        check("zero-sizes-and-proc-null", this::zeroSizesAndProcNull);
        check("all-zero-sizes", this::allZeroSizes);
        check("noncontig", this::noncontig);
        check("argument-errors-agreed", this::argumentErrorsAgreed);
        check("shared-split", this::sharedSplit);
        check("attributes-info-name-group", this::attributesInfoNameGroup);
        check("epoch-errors", this::epochErrors);
        check("fence-errors-agreed", this::fenceErrorsAgreed);
        check("free-with-open-epoch", this::freeWithOpenEpoch);
        check("range-errors-write-nothing", this::rangeErrorsWriteNothing);
        check("put-get-ring", this::putGetRing);
        check("accumulate-atomic-under-lockall", this::accumulateAtomicUnderLockAll);
        check("accumulate-under-fence", this::accumulateUnderFence);
        check("get-accumulate-fetch-and-op", this::getAccumulateAndFetchAndOp);
        check("compare-and-swap-counter", this::compareAndSwapCounter);
        check("op-and-type-errors", this::opAndTypeErrors);
        check("exclusive-lock-protects-load-store", this::exclusiveLockProtectsLoadStore);
        check("lockall-sync-barrier-sync", this::lockAllSyncBarrierSync);
        check("proc-null-targets", this::procNullTargets);
        check("freed-window", this::freedWindow);
        System.out.println("DONE rank " + rank + " failures " + failures.size());
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

    // ---- allocation and layout ----

    private void sizesDifferAndContiguous()
    {
        try (Win win = Win.allocateShared(8L * (rank + 1), 8, null, comm))
        {
            for (int peer = 0; peer < size; peer++)
            {
                final SharedSegment segment = win.sharedQuery(peer);
                expect(segment.size() == 8L * (peer + 1), "rank " + peer + " size " + segment.size());
                expect(segment.dispUnit() == 8, "disp unit " + segment.dispUnit());
                if (peer > 0)
                {
                    final SharedSegment previous = win.sharedQuery(peer - 1);
                    expect(segment.memory().address() == previous.memory().address() + previous.size(),
                        "segment " + peer + " does not start where " + (peer - 1) + "'s ends");
                }
            }
            expect(win.sharedQuery(rank).memory().address() == win.base().address(), "own query is not base");
            expect(win.sharedQuery(0).memory().address() % 8 == 0, "first segment not 8-byte aligned");
            expect("false".equals(win.getInfo().get("alloc_shared_noncontig")), "noncontig reported");
        }
    }

    private void zeroSizesAndProcNull()
    {
        // Even ranks (rank 0 too) ask for nothing: PROC_NULL must find rank 1, or nobody on one process.
        try (Win win = Win.allocateShared(rank % 2 == 0 ? 0 : 16, 4, null, comm))
        {
            final SharedSegment first = win.sharedQuery(MPI.PROC_NULL);
            if (size == 1)
            {
                expect(first.size() == 0, "one process of size 0: PROC_NULL size " + first.size());
            }
            else
            {
                expect(first.size() == 16 && first.memory().address() == win.sharedQuery(1).memory().address(),
                    "PROC_NULL should be rank 1's segment, got size " + first.size());
                for (int peer = 2; peer < size; peer++)
                {
                    final SharedSegment segment = win.sharedQuery(peer);
                    final SharedSegment previous = win.sharedQuery(peer - 1);
                    expect(segment.memory().address() == previous.memory().address() + previous.size(),
                        "zero-size ranks must take no room (rank " + peer + ")");
                }
            }
        }
    }

    private void allZeroSizes()
    {
        try (Win win = Win.allocateShared(0, 1, null, comm))
        {
            expect(win.sharedQuery(MPI.PROC_NULL).size() == 0, "PROC_NULL of all-zero window");
            expect(win.size() == 0, "size");
        }
    }

    private void noncontig()
    {
        final Info info = new Info();
        info.set("alloc_shared_noncontig", "true");
        try (Win win = Win.allocateShared(12, 4, info, comm))
        {
            expect("true".equals(win.getInfo().get("alloc_shared_noncontig")), "noncontig not reported");
            for (int peer = 0; peer < size; peer++)
            {
                final SharedSegment segment = win.sharedQuery(peer);
                expect(segment.size() == 12 && segment.memory().address() % 8 == 0, "segment " + peer + " misplaced");
            }
            // Each rank writes its own segment; after a fence every rank reads every segment.
            win.base().set(ValueLayout.JAVA_INT, 8, 1000 + rank);
            win.fence(0);
            for (int peer = 0; peer < size; peer++)
            {
                expect(win.sharedQuery(peer).memory().get(ValueLayout.JAVA_INT, 8) == 1000 + peer, "noncontig value");
            }
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    private void argumentErrorsAgreed()
    {
        final int culprit = size - 1;
        expectError(ErrorClass.ERR_SIZE, () -> Win.allocateShared(rank == culprit ? -8 : 8, 1, null, comm));
        expectError(ErrorClass.ERR_DISP, () -> Win.allocateShared(8, rank == culprit ? 0 : 1, null, comm));
        final Info bad = new Info();
        bad.set("alloc_shared_noncontig", "maybe");
        expectError(ErrorClass.ERR_INFO_VALUE, () -> Win.allocateShared(8, 1, rank == culprit ? bad : null, comm));
        // After agreed failures the communicator still works for windows.
        try (Win win = Win.allocateShared(8, 1, null, comm))
        {
            expectError(ErrorClass.ERR_RANK, () -> win.sharedQuery(size));
            expectError(ErrorClass.ERR_RANK, () -> win.sharedQuery(-7));
        }
    }

    private void sharedSplit()
    {
        final Intracomm node = Shared.split(comm);
        expect(node.Size() == size && node.Rank() == rank, "split of one node: " + node.Rank() + "/" + node.Size());
        try (Win win = Win.allocateShared(8, 8, null, node))
        {
            expect(win.getGroup().Size() == size, "group size");
        }
    }

    private void attributesInfoNameGroup()
    {
        try (Win win = Win.allocateShared(24, 8, null, comm))
        {
            expect(win.getAttr(Win.WIN_BASE).equals(win.base()), "WIN_BASE");
            expect((Long)win.getAttr(Win.WIN_SIZE) == 24L, "WIN_SIZE");
            expect((Integer)win.getAttr(Win.WIN_DISP_UNIT) == 8, "WIN_DISP_UNIT");
            expect((Integer)win.getAttr(Win.WIN_CREATE_FLAVOR) == Win.FLAVOR_SHARED, "flavor");
            expect((Integer)win.getAttr(Win.WIN_MODEL) == Win.UNIFIED, "model");
            expect(win.getName().isEmpty(), "default name");
            win.setName("halo");
            expect(win.getName().equals("halo"), "name");
            expect("rar,raw,war,waw".equals(win.getInfo().get("accumulate_ordering")), "ordering default");
            expect("same_op_no_op".equals(win.getInfo().get("accumulate_ops")), "ops default");
            expect(win.getGroup().Size() == size && win.getGroup().Rank() == rank, "group");
            expectError(ErrorClass.ERR_KEYVAL, () -> win.getAttr(99));
        }
    }

    // ---- epochs ----

    private void epochErrors()
    {
        try (Win win = Win.allocateShared(8, 8, null, comm))
        {
            final long[] one = {1};
            final int right = (rank + 1) % size;
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.put(one, 0, 1, MPI.LONG, right, 0, 1, MPI.LONG));
            win.fence(0);
            win.put(one, 0, 1, MPI.LONG, right, 0, 1, MPI.LONG);
            win.fence(Win.MODE_NOSUCCEED);
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.get(one, 0, 1, MPI.LONG, right, 0, 1, MPI.LONG));
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.unlock(right));
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.unlockAll());
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.flush(right));
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.flushAll());
            win.sync();
            win.lock(Win.LOCK_SHARED, right, 0);
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.lock(Win.LOCK_SHARED, right, 0));
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.lockAll(0));
            if (size > 1)
            {
                final int other = (rank + 2) % size == right ? -1 : (rank + 2) % size;
                if (other >= 0)
                {
                    expectError(ErrorClass.ERR_RMA_SYNC, () -> win.get(one, 0, 1, MPI.LONG, other, 0, 1, MPI.LONG));
                }
            }
            win.get(one, 0, 1, MPI.LONG, right, 0, 1, MPI.LONG);
            win.flush(right);
            win.unlock(right);
            expectError(ErrorClass.ERR_LOCKTYPE, () -> win.lock(7, right, 0));
            expectError(ErrorClass.ERR_ASSERT, () -> win.lock(Win.LOCK_SHARED, right, Win.MODE_NOPUT));
            expectError(ErrorClass.ERR_RANK, () -> win.lock(Win.LOCK_SHARED, size, 0));
            win.lockAll(0);
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.unlock(right));
            win.flushAll();
            win.flushLocalAll();
            win.unlockAll();
            comm.Barrier();
        }
    }

    private void fenceErrorsAgreed()
    {
        try (Win win = Win.allocateShared(8, 8, null, comm))
        {
            final int culprit = size - 1;
            // One process passes MODE_NOCHECK (a lock assertion): every process's fence fails, none hangs.
            final RmaException e = expectError(ErrorClass.ERR_ASSERT,
                () -> win.fence(rank == culprit ? Win.MODE_NOCHECK : 0));
            expect(rank == culprit || e.getMessage().contains("rank " + culprit), "others must name the culprit: " + e);
            // One process holds a lock: its fence is ERR_RMA_SYNC, and so is everyone's.
            if (rank == culprit)
            {
                win.lock(Win.LOCK_SHARED, 0, 0);
            }
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.fence(0));
            if (rank == culprit)
            {
                win.unlock(0);
            }
            win.fence(Win.MODE_NOPRECEDE);
            win.fence(Win.MODE_NOSTORE | Win.MODE_NOPUT | Win.MODE_NOSUCCEED);
        }
    }

    private void freeWithOpenEpoch()
    {
        final Win win = Win.allocateShared(8, 8, null, comm);
        final int culprit = 0;
        if (rank == culprit)
        {
            win.lockAll(0);
        }
        expectError(ErrorClass.ERR_RMA_SYNC, win::free);
        expect(!win.isFreed(), "a failed free must keep the window");
        if (rank == culprit)
        {
            win.unlockAll();
        }
        win.free();
        expect(win.isFreed(), "freed");
    }

    private void rangeErrorsWriteNothing()
    {
        try (Win win = Win.allocateShared(4 * Integer.BYTES, Integer.BYTES, null, comm))
        {
            win.fence(0);
            // A put that would spill from rank 0's segment into rank 1's, in the contiguous layout.
            expectError(ErrorClass.ERR_RMA_RANGE,
                () -> win.put(new int[] {7, 7}, 0, 2, MPI.INT, 0, 3, 2, MPI.INT));
            expectError(ErrorClass.ERR_RMA_RANGE,
                () -> win.get(new int[1], 0, 1, MPI.INT, 0, 4, 1, MPI.INT));
            expectError(ErrorClass.ERR_RMA_RANGE,
                () -> win.accumulate(new int[1], 0, 1, MPI.INT, 0, Long.MAX_VALUE / 2, 1, MPI.INT, MPI.SUM));
            expectError(ErrorClass.ERR_DISP, () -> win.put(new int[1], 0, 1, MPI.INT, 0, -1, 1, MPI.INT));
            expectError(ErrorClass.ERR_COUNT, () -> win.put(new int[1], 0, -1, MPI.INT, 0, 0, -1, MPI.INT));
            expectError(ErrorClass.ERR_RANK, () -> win.put(new int[1], 0, 1, MPI.INT, size, 0, 1, MPI.INT));
            expectError(ErrorClass.ERR_TYPE, () -> win.put(new long[1], 0, 1, MPI.INT, 0, 0, 1, MPI.INT));
            expectError(ErrorClass.ERR_ARG, () -> win.put(new int[1], 1, 1, MPI.INT, 0, 0, 1, MPI.INT));
            win.fence(0);
            if (size > 1)
            {
                expect(win.sharedQuery(1).memory().get(ValueLayout.JAVA_INT, 0) == 0, "rank 1's memory was written");
            }
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    // ---- data movement ----

    private void putGetRing()
    {
        final int count = 1000;
        try (Win win = Win.allocateShared((long)count * Double.BYTES, Double.BYTES, null, comm))
        {
            final double[] mine = new double[count];
            for (int i = 0; i < count; i++)
            {
                mine[i] = rank * 1e6 + i;
            }
            final int right = (rank + 1) % size;
            final int left = (rank + size - 1) % size;
            win.fence(Win.MODE_NOPRECEDE);
            win.put(mine, 0, count, MPI.DOUBLE, right, 0, count, MPI.DOUBLE);
            win.fence(0);
            for (int i = 0; i < count; i += 97)
            {
                expect(win.base().getAtIndex(ValueLayout.JAVA_DOUBLE, i) == left * 1e6 + i, "put from left at " + i);
            }
            final double[] got = new double[10];
            win.get(got, 0, 10, MPI.DOUBLE, right, 5, 10, MPI.DOUBLE);
            win.fence(Win.MODE_NOSUCCEED);
            for (int i = 0; i < 10; i++)
            {
                expect(got[i] == rank * 1e6 + 5 + i, "get from right at " + i + ": " + got[i]);
            }
        }
    }

    private void accumulateAtomicUnderLockAll()
    {
        // Layout of rank 0's segment: long, int, double, short, byte, then an int at an odd address.
        try (Win win = Win.allocateShared(rank == 0 ? 64 : 0, 1, null, comm))
        {
            win.lockAll(0);
            for (int i = 0; i < ITERATIONS; i++)
            {
                win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 0, 0, 1, MPI.LONG, MPI.SUM);
                win.accumulate(new int[] {2}, 0, 1, MPI.INT, 0, 8, 1, MPI.INT, MPI.SUM);
                win.accumulate(new double[] {0.5}, 0, 1, MPI.DOUBLE, 0, 16, 1, MPI.DOUBLE, MPI.SUM);
                win.accumulate(new short[] {1}, 0, 1, MPI.SHORT, 0, 24, 1, MPI.SHORT, MPI.SUM);
                win.accumulate(new byte[] {1}, 0, 1, MPI.BYTE, 0, 26, 1, MPI.BYTE, MPI.BXOR);
                win.accumulate(new int[] {3}, 0, 1, MPI.INT, 0, 29, 1, MPI.INT, MPI.SUM);
            }
            win.unlockAll();
            comm.Barrier();
            win.sync();
            final MemorySegment target = win.sharedQuery(0).memory();
            final long total = (long)size * ITERATIONS;
            expect(target.get(ValueLayout.JAVA_LONG_UNALIGNED, 0) == total, "long sum " + target.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
            expect(target.get(ValueLayout.JAVA_INT_UNALIGNED, 8) == 2 * total, "int sum");
            expect(target.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 16) == 0.5 * total, "double sum");
            expect(target.get(ValueLayout.JAVA_SHORT_UNALIGNED, 24) == (short)total, "short sum");
            expect(target.get(ValueLayout.JAVA_BYTE, 26) == (byte)(total % 2), "byte xor");
            expect(target.get(ValueLayout.JAVA_INT_UNALIGNED, 29) == 3 * total, "misaligned int sum");
            comm.Barrier();
        }
    }

    private void accumulateUnderFence()
    {
        final int count = 16;
        try (Win win = Win.allocateShared((long)count * Integer.BYTES, Integer.BYTES, null, comm))
        {
            final int[] values = new int[count];
            for (int i = 0; i < count; i++)
            {
                values[i] = i + rank;
            }
            win.fence(0);
            win.accumulate(values, 0, count, MPI.INT, 0, 0, count, MPI.INT, MPI.SUM);
            win.accumulate(new int[] {rank}, 0, 1, MPI.INT, (rank + 1) % size, 0, 1, MPI.INT, MPI.MAX);
            win.fence(0);
            if (rank == 0)
            {
                for (int i = 1; i < count; i++)
                {
                    final int expected = i * size + size * (size - 1) / 2;
                    expect(win.base().getAtIndex(ValueLayout.JAVA_INT, i) == expected, "sum at " + i);
                }
            }
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    private void getAccumulateAndFetchAndOp()
    {
        try (Win win = Win.allocateShared(rank == 0 ? 32 : 0, 8, null, comm))
        {
            win.lockAll(0);
            final long[] result = new long[1];
            long seenMax = -1;
            for (int i = 0; i < ITERATIONS; i++)
            {
                win.fetchAndOp(new long[] {1}, 0, result, 0, MPI.LONG, 0, 0, MPI.SUM);
                expect(result[0] > seenMax - 1, "fetched values must grow");
                seenMax = Math.max(seenMax, result[0]);
            }
            win.flush(0);
            win.unlockAll();
            comm.Barrier();
            win.lockAll(0);
            win.fetchAndOp(null, 0, result, 0, MPI.LONG, 0, 0, Win.NO_OP);
            expect(result[0] == (long)size * ITERATIONS, "NO_OP read " + result[0]);
            final long[] old = new long[2];
            win.getAccumulate(null, 0, 0, null, old, 0, 2, MPI.LONG, 0, 0, 2, MPI.LONG, Win.NO_OP);
            expect(old[0] == (long)size * ITERATIONS, "getAccumulate NO_OP");
            win.unlockAll();
            comm.Barrier();
            // REPLACE is an atomic swap: every value written is returned exactly once to some process.
            win.lockAll(0);
            final long[] swapped = new long[1];
            win.getAccumulate(new long[] {rank + 1}, 0, 1, MPI.LONG, swapped, 0, 1, MPI.LONG, 0, 2, 1, MPI.LONG,
                Win.REPLACE);
            win.unlockAll();
            final long[] all = new long[size];
            comm.Allgather(swapped, 0, 1, MPI.LONG, all, 0, 1, MPI.LONG);
            comm.Barrier();
            win.lockAll(0);
            win.fetchAndOp(null, 0, result, 0, MPI.LONG, 0, 2, Win.NO_OP);
            win.unlockAll();
            long sum = result[0];
            for (final long value : all)
            {
                sum += value;
            }
            expect(sum == (long)size * (size + 1) / 2, "swap chain lost a value: " + sum);
            comm.Barrier();
        }
    }

    private void compareAndSwapCounter()
    {
        try (Win win = Win.allocateShared(rank == 0 ? 8 : 0, 4, null, comm))
        {
            win.lockAll(0);
            int successes = 0;
            final int[] result = new int[1];
            while (successes < ITERATIONS / 3)
            {
                win.fetchAndOp(null, 0, result, 0, MPI.INT, 0, 0, Win.NO_OP);
                final int seen = result[0];
                win.compareAndSwap(new int[] {seen + 1}, 0, new int[] {seen}, 0, result, 0, MPI.INT, 0, 0);
                if (result[0] == seen)
                {
                    successes++;
                }
            }
            win.unlockAll();
            comm.Barrier();
            win.sync();
            expect(win.sharedQuery(0).memory().get(ValueLayout.JAVA_INT, 0) == size * (ITERATIONS / 3),
                "CAS counter " + win.sharedQuery(0).memory().get(ValueLayout.JAVA_INT, 0));
            comm.Barrier();
        }
    }

    private void opAndTypeErrors()
    {
        try (Win win = Win.allocateShared(16, 8, null, comm))
        {
            win.fence(0);
            final Op userOp = new Op(new User_function()
            {
                @Override
                public void Call(final Object in, final int inOffset, final Object inOut, final int inOutOffset,
                    final int count, final Datatype datatype)
                {
                }
            }, true);
            expectError(ErrorClass.ERR_OP,
                () -> win.accumulate(new long[1], 0, 1, MPI.LONG, 0, 0, 1, MPI.LONG, Win.NO_OP));
            expectError(ErrorClass.ERR_OP,
                () -> win.accumulate(new double[1], 0, 1, MPI.DOUBLE, 0, 0, 1, MPI.DOUBLE, MPI.BAND));
            expectError(ErrorClass.ERR_OP, () -> win.accumulate(new long[1], 0, 1, MPI.LONG, 0, 0, 1, MPI.LONG, userOp));
            expectError(ErrorClass.ERR_TYPE, () -> win.compareAndSwap(new double[1], 0, new double[1], 0,
                new double[1], 0, MPI.DOUBLE, 0, 0));
            expectError(ErrorClass.ERR_TYPE, () -> win.put(new Object[1], 0, 1, MPI.OBJECT, 0, 0, 1, MPI.OBJECT));
            expectError(ErrorClass.ERR_TYPE, () -> win.put(new long[1], 0, 1, MPI.LONG, 0, 0, 2, MPI.INT));
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    // ---- passive target and load/store ----

    private void exclusiveLockProtectsLoadStore()
    {
        try (Win win = Win.allocateShared(rank == 0 ? 8 : 0, 8, null, comm))
        {
            final MemorySegment counter = win.sharedQuery(0).memory();
            for (int i = 0; i < ITERATIONS; i++)
            {
                win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
                // A plain read-modify-write: only the lock keeps increments from being lost.
                counter.set(ValueLayout.JAVA_LONG, 0, counter.get(ValueLayout.JAVA_LONG, 0) + 1);
                win.unlock(0);
            }
            comm.Barrier();
            win.lock(Win.LOCK_SHARED, 0, 0);
            expect(counter.get(ValueLayout.JAVA_LONG, 0) == (long)size * ITERATIONS,
                "locked increments lost: " + counter.get(ValueLayout.JAVA_LONG, 0));
            win.unlock(0);
            comm.Barrier();
        }
    }

    private void lockAllSyncBarrierSync()
    {
        try (Win win = Win.allocateShared(Long.BYTES, Long.BYTES, null, comm))
        {
            win.lockAll(Win.MODE_NOCHECK);
            win.base().set(ValueLayout.JAVA_LONG, 0, 77L * (rank + 1));
            win.sync();
            comm.Barrier();
            win.sync();
            for (int peer = 0; peer < size; peer++)
            {
                expect(win.sharedQuery(peer).memory().get(ValueLayout.JAVA_LONG, 0) == 77L * (peer + 1),
                    "store of rank " + peer + " not visible");
            }
            win.unlockAll();
            comm.Barrier();
        }
    }

    private void procNullTargets()
    {
        try (Win win = Win.allocateShared(8, 8, null, comm))
        {
            final long[] buffer = {5};
            expectError(ErrorClass.ERR_RMA_SYNC, () -> win.put(buffer, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG));
            win.lock(Win.LOCK_EXCLUSIVE, MPI.PROC_NULL, 0);
            win.put(buffer, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG);
            win.get(buffer, 0, 1, MPI.LONG, MPI.PROC_NULL, 1_000_000, 1, MPI.LONG);
            win.flush(MPI.PROC_NULL);
            win.unlock(MPI.PROC_NULL);
            expect(buffer[0] == 5, "a get from PROC_NULL must not change the buffer");
        }
    }

    private void freedWindow()
    {
        final Win win = Win.allocateShared(8, 8, null, comm);
        final MemorySegment base = win.base();
        win.free();
        expectError(ErrorClass.ERR_WIN, () -> win.fence(0));
        expectError(ErrorClass.ERR_WIN, () -> win.sharedQuery(0));
        expectError(ErrorClass.ERR_WIN, win::free);
        final RmaException attr = expectError(ErrorClass.ERR_WIN, () -> win.getAttr(Win.WIN_SIZE));
        expect(attr.getMessage().contains("Win.getAttr:"), "getAttr after free must name Win.getAttr: " +
            attr.getMessage());
        // try (Win w = ...) { ...; w.free(); } closes a freed window: that must not throw.
        win.close();
        try (Win scoped = Win.allocateShared(8, 8, null, comm))
        {
            scoped.free();
        }
        try
        {
            base.get(ValueLayout.JAVA_LONG, 0);
            fail("reading a freed segment must throw");
        }
        catch (final IllegalStateException expected)
        {
            // The memory is gone; the access failed instead of crashing the JVM.
        }
    }

    // ---- helpers ----

    private interface Action
    {
        void run() throws Exception;
    }

    private RmaException expectError(final ErrorClass errorClass, final Action action)
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
        catch (final Exception e)
        {
            fail("expected " + errorClass + " but got " + e);
        }
        fail("expected " + errorClass + " but the call succeeded");
        return null;
    }

    private static void expect(final boolean condition, final String what)
    {
        if (!condition)
        {
            fail(what);
        }
    }

    private static void fail(final String what)
    {
        throw new AssertionError(what);
    }
}
