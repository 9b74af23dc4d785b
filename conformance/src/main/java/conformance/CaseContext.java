package conformance;

import java.lang.foreign.MemorySegment;
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
 * that went wrong cannot mix its messages with the next one's), windows it opens (freed after
 * the case if it did not free them), and checks that record a failure and carry on, so that
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

    CaseContext(final Intracomm comm)
    {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
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

    /** A shared window on the case's communicator, freed after the case if the case does not free it. */
    public Win window(final long bytes, final int dispUnit)
    {
        return window(bytes, dispUnit, null, comm);
    }

    public Win window(final long bytes, final int dispUnit, final Info info)
    {
        return window(bytes, dispUnit, info, comm);
    }

    public Win window(final long bytes, final int dispUnit, final Info info, final Intracomm on)
    {
        final Win win = Win.allocateShared(bytes, dispUnit, info, on);
        windows.add(win);
        return win;
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
        // A fence epoch with RMA pending: end it (collective, and every rank comes here when free failed).
        win.fence(Win.MODE_NOSUCCEED);
    }
}
