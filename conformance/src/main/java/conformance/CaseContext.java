package conformance;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * What a case sees on one rank: its rank and communicator (a fresh one per case, so that a case
 * that went wrong cannot mix its messages with the next one's), windows it opens, of the
 * configuration's {@link Flavour} (freed after the case if it did not free them), and checks
 * that record a failure and carry on, so that
 * every rank still reaches the collective calls that follow and a failed check does not turn
 * into a hang.
 */
public final class CaseContext
{
    /** A call that is expected to throw. */
    @FunctionalInterface
    public interface Call
    {
        void run() throws Exception;
    }

    private static final int MAX_FAILURES = 5;

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final List<Win> windows = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final DynamicWindows dynamic = new DynamicWindows();
    private final Flavour flavour;
    private final int nodes;

    CaseContext(final Intracomm comm, final Flavour flavour, final int nodes)
    {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
        this.flavour = flavour;
        this.nodes = nodes;
    }

    /** The flavour of the windows {@link #window} makes. */
    public Flavour flavour()
    {
        return flavour;
    }

    /** Whether the other processes' segments are shared memory of this one (allocateShared). */
    public boolean isShared()
    {
        return flavour == Flavour.SHARED;
    }

    /** How many nodes the job's processes are spread over (2 on the simulated cluster). */
    public int nodes()
    {
        return nodes;
    }

    public int rank()
    {
        return rank;
    }

    public int size()
    {
        return size;
    }

    public Intracomm comm()
    {
        return comm;
    }

    public boolean isRoot()
    {
        return rank == 0;
    }

    /** The last rank: the "other end" of most two-party cases. */
    public int last()
    {
        return size - 1;
    }

    /**
     * A communicator of this process alone (MPJ Express's COMM_SELF is typed as a plain Comm):
     * collective over the case's communicator.
     */
    public Intracomm self()
    {
        if (MPI.COMM_SELF instanceof Intracomm intracomm)
        {
            return intracomm;
        }
        return comm.Split(rank, 0);
    }

    /** A window of the configuration's flavour on the case's communicator, freed after the case if it is not. */
    public Win window(final long bytes, final int dispUnit)
    {
        return window(bytes, dispUnit, null, comm);
    }

    public Win window(final long bytes, final int dispUnit, final Info info)
    {
        return window(bytes, dispUnit, info, comm);
    }

    /**
     * A window of {@code bytes} bytes on {@code on}, of the configuration's flavour: allocateShared,
     * allocate, create over a new Java array of the element type {@code dispUnit} suggests
     * ({@link #arrayFor}), or a dynamic window with such an array attached on every process (reach it
     * through {@link #disp} and {@link #memory}).
     */
    public Win window(final long bytes, final int dispUnit, final Info info, final Intracomm on)
    {
        return keep(unkeptWindow(bytes, dispUnit, info, on));
    }

    /** As {@link #window}, for cases about free itself: the case frees it, nothing after the case does. */
    public Win unkeptWindow(final long bytes, final int dispUnit, final Info info, final Intracomm on)
    {
        return switch (flavour)
        {
            case SHARED -> Win.allocateShared(bytes, dispUnit, info, on);
            case ALLOCATE -> Win.allocate(bytes, dispUnit, info, on);
            case CREATE -> Win.create(arrayFor(bytes, dispUnit), dispUnit, info, on);
            case DYNAMIC -> dynamic.make(bytes, dispUnit, info, on);
        };
    }

    /**
     * The target displacement that reaches displacement {@code disp} of {@code target}'s memory in a
     * window of {@link #window}: {@code disp} itself, or on a dynamic window the address of the
     * target's attached array plus {@code disp} times the unit the case gave the target. PROC_NULL
     * has no memory: {@code disp} unchanged.
     */
    public long disp(final Win win, final int target, final long disp)
    {
        return dynamic.contains(win) && target != MPI.PROC_NULL ? dynamic.disp(win, target, disp) : disp;
    }

    /** This process's memory in {@code win}: its base, or on a dynamic window the array it attached. */
    public MemorySegment memory(final Win win)
    {
        return dynamic.contains(win) ? dynamic.memory(win) : win.base();
    }

    /**
     * The displacement unit of {@code target} in {@code win} as the case made it: the unit a dynamic
     * window's process was given (the window's own is 1), else what sharedQuery reports.
     */
    public int dispUnit(final Win win, final int target)
    {
        return dynamic.contains(win) ? dynamic.unit(win, target) : win.sharedQuery(target).dispUnit();
    }

    /** Frees {@code win} after the case if the case does not: for windows a case makes itself. */
    public Win keep(final Win win)
    {
        windows.add(win);
        return win;
    }

    /**
     * A zeroed Java array of exactly {@code bytes} bytes, of the element type a displacement unit of
     * {@code dispUnit} bytes stands for (8: long[], 4: int[], 2: short[]), byte[] when the size is no
     * multiple of it: the array a program written for {@code Win.create} would pass.
     */
    public static Object arrayFor(final long bytes, final int dispUnit)
    {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("a window of " + bytes + " bytes cannot be a Java array");
        }
        final int n = (int)bytes;
        if (dispUnit == Long.BYTES && n % Long.BYTES == 0)
        {
            return new long[n / Long.BYTES];
        }
        if (dispUnit == Integer.BYTES && n % Integer.BYTES == 0)
        {
            return new int[n / Integer.BYTES];
        }
        if (dispUnit == Short.BYTES && n % Short.BYTES == 0)
        {
            return new short[n / Short.BYTES];
        }
        return new byte[n];
    }

    /**
     * The memory of {@code owner}'s segment as it is now, for checks made by every rank: on an
     * allocateShared window the segment itself (a load, as a shared-memory program makes); on the
     * other flavours, whose memory only its owner can load, the owner's bytes sent to every rank.
     * Collective over the case's communicator: every rank calls it at the same point, after the
     * accesses it checks are complete (a fence, or unlock and barrier).
     */
    public MemorySegment memoryOf(final Win win, final int owner)
    {
        if (isShared())
        {
            return win.sharedQuery(owner).memory();
        }
        final MemorySegment own = rank == owner ? memory(win) : MemorySegment.NULL;
        final long[] bytes = {own.byteSize()};
        comm.Bcast(bytes, 0, 1, MPI.LONG, owner);
        final byte[] copy = rank == owner ? own.toArray(ValueLayout.JAVA_BYTE) : new byte[(int)bytes[0]];
        comm.Bcast(copy, 0, copy.length, MPI.BYTE, owner);
        return rank == owner ? own : MemorySegment.ofArray(copy);
    }

    /** An info with one key. */
    public static Info info(final String key, final String value)
    {
        final Info info = new Info();
        info.set(key, value);
        return info;
    }

    /** Records a failure unless {@code condition} holds. */
    public void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            fail(message);
        }
    }

    public void checkEquals(final long expected, final long actual, final String what)
    {
        if (expected != actual)
        {
            fail(what + ": expected " + expected + ", got " + actual);
        }
    }

    public void checkEquals(final Object expected, final Object actual, final String what)
    {
        if (expected == null ? actual != null : !expected.equals(actual))
        {
            fail(what + ": expected " + expected + ", got " + actual);
        }
    }

    /**
     * Runs {@code call} and records a failure unless it throws an {@link RmaException} of class
     * {@code expected}; returns the exception (null if there was none of that class).
     */
    public RmaException expectError(final ErrorClass expected, final String what, final Call call)
    {
        try
        {
            call.run();
        }
        catch (final RmaException e)
        {
            if (e.errorClass() != expected)
            {
                fail(what + ": expected " + expected.mpiName() + ", got " + e.errorClass().mpiName() + " (" +
                    e.getMessage() + ")");
                return null;
            }
            return e;
        }
        catch (final Exception e)
        {
            fail(what + ": expected " + expected.mpiName() + ", got " + e);
            return null;
        }
        fail(what + ": expected " + expected.mpiName() + ", but the call succeeded");
        return null;
    }

    /** Runs {@code call} and records a failure unless it throws {@code expected} (not an MPI error). */
    public void expectThrows(final Class<? extends Throwable> expected, final String what, final Call call)
    {
        try
        {
            call.run();
        }
        catch (final Throwable e)
        {
            if (!expected.isInstance(e))
            {
                fail(what + ": expected " + expected.getSimpleName() + ", got " + e);
            }
            return;
        }
        fail(what + ": expected " + expected.getSimpleName() + ", but the call succeeded");
    }

    public void fail(final String message)
    {
        if (failures.size() < MAX_FAILURES)
        {
            failures.add("rank " + rank + ": " + message);
        }
        else if (failures.size() == MAX_FAILURES)
        {
            failures.add("...");
        }
    }

    /** Process synchronisation only: MPI says a barrier is not memory synchronisation. */
    public void barrier()
    {
        comm.Barrier();
    }

    public long sum(final long value)
    {
        final long[] in = {value};
        final long[] out = new long[1];
        comm.Allreduce(in, 0, out, 0, 1, MPI.LONG, MPI.SUM);
        return out[0];
    }

    /** Every rank's {@code value}, indexed by rank. */
    public long[] gather(final long value)
    {
        final long[] all = new long[size];
        comm.Allgather(new long[] {value}, 0, 1, MPI.LONG, all, 0, 1, MPI.LONG);
        return all;
    }

    /** Whether every rank passes true. */
    public boolean all(final boolean value)
    {
        return sum(value ? 0 : 1) == 0;
    }

    public void send(final int value, final int destination)
    {
        comm.Send(new int[] {value}, 0, 1, MPI.INT, destination, 7);
    }

    public int receive(final int source)
    {
        final int[] value = new int[1];
        comm.Recv(value, 0, 1, MPI.INT, source, 7);
        return value[0];
    }

    public static void sleepMs(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** The address of a segment, for layout checks. */
    public static long address(final MemorySegment segment)
    {
        return segment.address();
    }

    List<String> failures()
    {
        return failures;
    }

    /**
     * Frees the windows the case left open, closing this process's epochs first; collective, like
     * free itself, so it runs on every rank after every case.
     */
    void freeLeftovers()
    {
        for (final Win win : windows)
        {
            if (win.isFreed())
            {
                continue;
            }
            try
            {
                win.free();
            }
            catch (final RmaException e)
            {
                if (e.errorClass() != ErrorClass.ERR_RMA_SYNC)
                {
                    throw e;
                }
                closeEpochs(win);
                win.free();
            }
        }
    }

    private void closeEpochs(final Win win)
    {
        try
        {
            win.unlockAll();
        }
        catch (final RmaException ignored)
        {
            // No lockAll epoch: look for single locks.
        }
        for (int target = 0; target < win.getGroup().Size(); target++)
        {
            try
            {
                win.unlock(target);
            }
            catch (final RmaException ignored)
            {
                // Not locked by this process.
            }
        }
        try
        {
            win.unlock(MPI.PROC_NULL);
        }
        catch (final RmaException ignored)
        {
            // Not locked either.
        }
        try
        {
            win.complete();
        }
        catch (final RmaException ignored)
        {
            // No access epoch from start.
        }
        try
        {
            // Not waitFor: an origin that never completes would hang the case; the free then reports the epoch.
            win.test();
        }
        catch (final RmaException ignored)
        {
            // No exposure epoch from post.
        }
        // A fence epoch with RMA pending: end it (collective, and every rank comes here when free failed).
        win.fence(Win.MODE_NOSUCCEED);
    }
}
