package samples.rma;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Locale;

import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.Win;

/**
 * What each way of synchronising costs on this machine: every rank puts one {@code long} into its
 * right neighbour's window, again and again, completing each put with one of MPI's three kinds
 * of epoch, and rank 0 prints the time per put of each kind:
 * <ul>
 *   <li><b>fence</b>: {@code fence}, put, (the next) {@code fence}: every rank waits for every other;</li>
 *   <li><b>post/start/complete/wait</b>: each rank exposes its memory to its left neighbour only
 *       and accesses its right one only: a rank waits for its two neighbours, not for everyone;</li>
 *   <li><b>lock/unlock</b>: an exclusive lock of the right neighbour, put, unlock: the target takes
 *       no part (passive target), but each epoch takes and gives back a lock;</li>
 *   <li><b>lockAll + flush</b>: one shared lock of every rank for the whole run, each put completed by
 *       {@code flush}: the cheapest way to complete a put when the target need not know when it arrived.</li>
 * </ul>
 *
 * <p>The window is {@link Win#allocateShared} (one node: the puts are stores into shared memory)
 * or, with {@code create} as second argument, {@link Win#create} over a {@code long[]} (every
 * device, across nodes: the puts are messages). Run: {@code bin/sample SyncCosts [puts [shared|create]]}
 * (defaults {@value #DEFAULT_PUTS} puts of each kind per round, 10 rounds to warm up, then 5 rounds whose
 * median is printed).
 */
public final class SyncCosts
{
    public static final int DEFAULT_PUTS = 2000;
    private static final int ROUNDS = 5;
    /** Untimed puts of each kind before the timed rounds, in rounds of {@code puts}. */
    private static final int WARM_UP_ROUNDS = 10;

    /** One way of completing the puts. */
    private interface Epochs
    {
        void putOnce(Win win, long[] value, int right);
    }

    private SyncCosts()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}; then optionally the puts per
     *             round and the window flavour ({@code shared} or {@code create}).
     */
    public static void main(final String[] args)
    {
        final String[] appArgs = MPI.Init(args);
        final int puts = SampleArgs.positive(appArgs, 0, "puts", DEFAULT_PUTS);
        final String flavour = appArgs.length > 1 ? appArgs[1] : "shared";
        if (!flavour.equals("shared") && !flavour.equals("create"))
        {
            throw new IllegalArgumentException("the flavour is 'shared' or 'create', not '" + flavour + "'");
        }
        final Intracomm world = MPI.COMM_WORLD;
        final int rank = world.Rank();
        final int size = world.Size();
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        final Group toRight = world.Group().Incl(new int[] {right});
        final Group fromLeft = world.Group().Incl(new int[] {left});

        final long[] exposed = {-1};
        try (Win win = flavour.equals("shared") ? Win.allocateShared(Long.BYTES, Long.BYTES, null, world) :
            Win.create(exposed, Long.BYTES, null, world))
        {
            final long[] value = {rank};
            final String[] names = {"fence", "post/start/complete/wait", "lock/unlock (exclusive)",
                "lockAll + flush"};
            final Epochs[] kinds = {
                (w, v, r) ->
                {
                    w.put(v, 0, 1, MPI.LONG, r, 0, 1, MPI.LONG);
                    w.fence(0);
                },
                (w, v, r) ->
                {
                    w.post(fromLeft, 0);
                    w.start(toRight, 0);
                    w.put(v, 0, 1, MPI.LONG, r, 0, 1, MPI.LONG);
                    w.complete();
                    w.waitFor();
                },
                (w, v, r) ->
                {
                    w.lock(Win.LOCK_EXCLUSIVE, r, 0);
                    w.put(v, 0, 1, MPI.LONG, r, 0, 1, MPI.LONG);
                    w.unlock(r);
                },
                (w, v, r) ->
                {
                    w.put(v, 0, 1, MPI.LONG, r, 0, 1, MPI.LONG);
                    w.flush(r);
                }};
            final double[] microseconds = new double[kinds.length];
            for (int k = 0; k < kinds.length; k++)
            {
                microseconds[k] = timeKind(win, k, kinds[k], value, right, puts, world);
            }
            // Every put of every kind wrote the left neighbour's rank here; the last epoch has ended.
            final long received = flavour.equals("shared") ? win.base().get(ValueLayout.JAVA_LONG, 0) : exposed[0];
            System.out.printf(Locale.ROOT, "rank %d: holds %d, its left neighbour's rank%s%n", rank, received,
                received == left ? "" : ": WRONG");
            world.Barrier();
            if (rank == 0)
            {
                System.out.printf(Locale.ROOT,
                    "%d ranks, %s window, %d puts of 8 B per round, median of %d rounds after %d untimed%n", size,
                    flavour.equals("shared") ? "Win.allocateShared" : "Win.create", puts, ROUNDS, WARM_UP_ROUNDS);
                System.out.printf(Locale.ROOT, "%-28s %12s%n", "synchronisation", "us per put");
                for (int k = 0; k < kinds.length; k++)
                {
                    System.out.printf(Locale.ROOT, "%-28s %12.2f%n", names[k], microseconds[k]);
                }
            }
        }
        MPI.Finalize();
    }

    /** Rank 0's median time per put of {@code kind} over {@value #ROUNDS} rounds, after the untimed ones. */
    private static double timeKind(final Win win, final int index, final Epochs kind, final long[] value,
        final int right, final int puts, final Intracomm world)
    {
        // The fence kind needs an open fence epoch, lockAll + flush its one lockAll epoch; the other two run
        // outside any epoch.
        if (index == 0)
        {
            win.fence(0);
        }
        if (index == 3)
        {
            win.lockAll(0);
        }
        // A fresh JVM interprets the calls at first and its JIT threads take the cores the ranks wait on:
        // the first ten thousand or so epochs cost many times the later ones, so they are not timed.
        for (int i = 0; i < WARM_UP_ROUNDS * puts; i++)
        {
            kind.putOnce(win, value, right);
        }
        final double[] rounds = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++)
        {
            world.Barrier();
            final long start = System.nanoTime();
            for (int i = 0; i < puts; i++)
            {
                kind.putOnce(win, value, right);
            }
            rounds[round] = (System.nanoTime() - start) / 1000.0 / puts;
        }
        if (index == 0)
        {
            win.fence(Win.MODE_NOSUCCEED);
        }
        if (index == 3)
        {
            win.unlockAll();
        }
        world.Barrier();
        Arrays.sort(rounds);
        return rounds[ROUNDS / 2];
    }
}
