package mpjrun.agent.progress;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.rma.Win;

/**
 * MPI's progress rule on the shm device: a pending send completes once its receive is posted, whatever call
 * its process is blocked in. Ranks in pairs (0 and 1, 2 and 3, ...) run every cell of
 * {@link Synchronisation} x {@link PendingSend} x {@link Timing}: the sends start, the partner receives them
 * with blocking receives, and the blocking call of the cell runs before the sends are completed, so that a
 * rank waits inside it while its partner waits in a receive for data only the waiting rank's device can move.
 *
 * <p>Each rank prints {@code PROGRESS <rank> ok <cells>} at the end. A cell that lasts longer than the
 * limit is a hang: a watchdog prints {@code PROGRESS <rank> HUNG in <cell>} with the main thread's stack and
 * halts the rank with status 3, which ends the job.
 *
 * <p>Arguments: {@code [limit-seconds [SYNC,SYNC...]]}: the limit of a cell (default {@value #CELL_LIMIT_S};
 * every cell takes milliseconds), and the {@link Synchronisation}s to run (default all). An even number of
 * ranks. Run it with {@code -Dxdev.shmdev.directReads=true} to move the large messages by direct reads
 * instead of the staging rings.
 */
public final class ProgressMatrixProgram
{
    /** Seconds after which a cell counts as hung, by default. */
    static final int CELL_LIMIT_S = 20;
    /** How long a late receiver waits before posting its receive: long enough for its partner to be inside the call. */
    private static final long LATE_RECEIVE_MS = 15;

    /** When the receive is posted: before the sender blocks, or once it is blocked in the cell's call. */
    enum Timing
    {
        /** Both partners send, then receive at once (which of them is inside the call first is a race). */
        EARLY,
        /** Even ranks send and go into the call; their partners post their receives only after a pause. */
        LATE
    }

    private ProgressMatrixProgram()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] own = MPI.Init(args);
        final long limitS = own.length > 0 ? Long.parseLong(own[0]) : CELL_LIMIT_S;
        final List<Synchronisation> syncs = own.length > 1 ?
            Arrays.stream(own[1].split(",")).map(Synchronisation::valueOf).toList() :
            List.of(Synchronisation.values());
        final Intracomm world = MPI.COMM_WORLD;
        if (world.Size() % 2 != 0)
        {
            throw new IllegalArgumentException("the progress matrix runs ranks in pairs: give an even number, not " +
                world.Size());
        }
        PendingSend.attachBuffer();
        final Watchdog watchdog = Watchdog.start(world.Rank(), Thread.currentThread(), limitS);
        int cells = 0;
        try (Win window = Win.allocateShared(Synchronisation.WINDOW_LONGS * 8L, 8, null, world))
        {
            final Synchronisation.Cell cell = new Synchronisation.Cell(world, window);
            for (final Synchronisation sync : syncs)
            {
                for (final PendingSend send : PendingSend.values())
                {
                    for (final Timing timing : Timing.values())
                    {
                        cell.number = ++cells;
                        watchdog.entering(sync + " x " + send + " x " + timing + " (cell " + cells + ")");
                        run(cell, sync, send, timing);
                    }
                }
            }
            watchdog.entering("the window's free");
        }
        watchdog.entering("MPI.Finalize");
        MPI.Buffer_detach();
        System.out.println("PROGRESS " + world.Rank() + " ok " + cells);
        MPI.Finalize();
        watchdog.stop();
    }

    private static void run(final Synchronisation.Cell cell, final Synchronisation sync, final PendingSend send,
        final Timing timing) throws Exception
    {
        final boolean bothWays = timing == Timing.EARLY && sync.bothWays();
        final boolean even = cell.rank % 2 == 0;
        final boolean sending = bothWays || even;
        cell.receiving = bothWays || !even;
        sync.beforeExchange(cell);
        final List<Request> pending = sending ? send.start(cell.world, cell.number, cell.partner) : List.of();
        if (cell.receiving)
        {
            if (timing == Timing.LATE)
            {
                TimeUnit.MILLISECONDS.sleep(LATE_RECEIVE_MS);
            }
            send.receive(cell.world, cell.number, cell.partner);
        }
        sync.run(cell);
        send.complete(pending);
        sync.afterCompletion(cell);
    }

    /** Turns a hung cell into a failure that names it: a daemon thread that watches how long each lasts. */
    private static final class Watchdog implements Runnable
    {
        private final int rank;
        private final Thread watched;
        private final Thread thread;
        private final long limitNs;
        /** Volatile: set by the main thread at each cell, read by the watchdog. */
        private volatile String current = "MPI.Init";
        private volatile long enteredNs = System.nanoTime();
        private volatile boolean stopped;

        private Watchdog(final int rank, final Thread watched, final long limitS)
        {
            this.limitNs = TimeUnit.SECONDS.toNanos(limitS);
            this.rank = rank;
            this.watched = watched;
            this.thread = new Thread(this, "progress-matrix-watchdog");
            thread.setDaemon(true);
        }

        static Watchdog start(final int rank, final Thread watched, final long limitS)
        {
            final Watchdog watchdog = new Watchdog(rank, watched, limitS);
            watchdog.thread.start();
            return watchdog;
        }

        void entering(final String what)
        {
            current = what;
            enteredNs = System.nanoTime();
        }

        void stop()
        {
            stopped = true;
        }

        @Override
        public void run()
        {
            while (!stopped)
            {
                final long inCellNs = System.nanoTime() - enteredNs;
                if (inCellNs > limitNs)
                {
                    final StringBuilder report = new StringBuilder("PROGRESS " + rank + " HUNG in " + current +
                        " for " + TimeUnit.NANOSECONDS.toSeconds(inCellNs) + " s; the main thread:\n");
                    for (final StackTraceElement frame : watched.getStackTrace())
                    {
                        report.append("    at ").append(frame).append('\n');
                    }
                    System.out.print(report);
                    System.out.flush();
                    Runtime.getRuntime().halt(3);
                }
                try
                {
                    TimeUnit.MILLISECONDS.sleep(200);
                }
                catch (final InterruptedException e)
                {
                    return;
                }
            }
        }
    }
}
