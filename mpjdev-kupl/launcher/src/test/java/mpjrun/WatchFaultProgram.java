package mpjrun;

import java.util.concurrent.TimeUnit;

import mpi.MPI;
import mpi.rma.Win;

/**
 * An MPJ Express program for the job watch's tests ({@link JobWatchJobsTest}, {@link JobWatchClusterTest}):
 * every rank prints {@code pid R PID}, then {@code looping R} once it is inside the loop its first
 * argument picks, and rank {@value #VICTIM} fails there after {@value #FAULT_AFTER_MS} ms, printing
 * {@code fault at <epoch ms>} just before:
 * <ul>
 * <li>{@code barrier}: Barriers for ever; nobody fails by itself (the test kills a rank);</li>
 * <li>{@code halt-barrier}: the victim calls {@code Runtime.halt(9)} between two Barriers;</li>
 * <li>{@code halt-lock}: each rank takes an exclusive lock on rank 0's window, puts, unlocks, for ever;
 *     the victim halts while it holds the lock;</li>
 * <li>{@code exit3}: the victim calls {@code System.exit(3)} between two Barriers;</li>
 * <li>{@code throw}: the victim's {@code main} throws between two Barriers;</li>
 * <li>{@code exit0}: no loop; every rank does a Barrier, {@code Finalize} and {@code System.exit(0)}.</li>
 * </ul>
 */
public final class WatchFaultProgram
{
    /** The rank that fails: on the second node of a 4-rank job over two nodes. */
    static final int VICTIM = 2;
    /** How long the ranks loop before the victim fails: every rank is inside the loop by then. */
    static final long FAULT_AFTER_MS = 1500;

    private WatchFaultProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final String mode = appArgs.length > 0 ? appArgs[0] : "barrier";
        final int rank = MPI.COMM_WORLD.Rank();
        System.out.println("pid " + rank + " " + ProcessHandle.current().pid());
        MPI.COMM_WORLD.Barrier();
        switch (mode)
        {
            case "exit0" ->
            {
                MPI.Finalize();
                System.exit(0);
            }
            case "halt-lock" -> lockLoop(rank);
            default -> barrierLoop(rank, mode);
        }
    }

    private static void barrierLoop(final int rank, final String mode)
    {
        final long failAtNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FAULT_AFTER_MS);
        System.out.println("looping " + rank);
        while (true)
        {
            MPI.COMM_WORLD.Barrier();
            if (rank == VICTIM && System.nanoTime() - failAtNs > 0)
            {
                if (mode.equals("halt-barrier"))
                {
                    fault();
                    Runtime.getRuntime().halt(9);
                }
                if (mode.equals("exit3"))
                {
                    fault();
                    System.exit(3);
                }
                if (mode.equals("throw"))
                {
                    fault();
                    throw new IllegalStateException("rank " + rank + " fails on purpose");
                }
            }
        }
    }

    private static void lockLoop(final int rank) throws Exception
    {
        final long failAtNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FAULT_AFTER_MS);
        final Win win = Win.allocate(Long.BYTES, Long.BYTES, null, MPI.COMM_WORLD);
        System.out.println("looping " + rank);
        final long[] value = {rank};
        while (true)
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            win.put(value, 0, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.flush(0);
            if (rank == VICTIM && System.nanoTime() - failAtNs > 0)
            {
                fault();
                Runtime.getRuntime().halt(9);
            }
            win.unlock(0);
        }
    }

    private static void fault()
    {
        System.out.println("fault at " + System.currentTimeMillis());
        System.out.flush();
    }
}
