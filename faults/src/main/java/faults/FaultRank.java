package faults;

import java.nio.file.Path;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.Win;

/**
 * One rank of a fault trial ({@link FaultInjection}): prepares, then repeats the operations of one
 * {@link Phase} for ever, marking on the {@link RankBoard} whether it is inside one. The job can
 * only end by a fault: the injector kills one rank (with SIGKILL when ranks are processes), and the
 * others must notice and fail. Prints nothing of its own, so that any line naming the dead rank
 * comes from the library's error.
 *
 * <p>When ranks are threads of one JVM (MPJ Express's multicore mode), a thread cannot be killed from
 * outside: the victim checks the board between operations and, once told to, records the time and
 * throws {@link InjectedFault}, an {@link Error} no library code catches, so that its thread ends
 * abruptly as a crashed rank would. The others then wait for a thread that has ended.
 *
 * <p>App arguments: the board file, the phase's {@link Phase#cliName()}, the victim's rank.
 */
public final class FaultRank
{
    /** The size of each message of {@link Phase#LARGE_MESSAGE}: well above every device's eager limit. */
    static final int LARGE_MESSAGE_BYTES = 4 << 20;
    private static final int WINDOW_BYTES = 1 << 20;
    private static final int LOCK_EPOCHS_PER_FENCE = 8;
    /** Bytes of each Bcast of {@link Phase#COLLECTIVES}: longer than one chunk of the shared-memory Bcast. */
    private static final int COLLECTIVE_BCAST_BYTES = 1 << 20;
    private static final int ALLREDUCE_DOUBLES = 8;

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final RankBoard board;
    private final boolean victim;

    private FaultRank(final Intracomm comm, final RankBoard board, final int victimRank)
    {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
        this.board = board;
        this.victim = rank == victimRank;
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        if (appArgs.length != 3)
        {
            throw new IllegalArgumentException("usage: FaultRank BOARD_FILE PHASE VICTIM_RANK (got " + appArgs.length +
                " arguments)");
        }
        final Intracomm comm = MPI.COMM_WORLD;
        final RankBoard board = RankBoard.open(Path.of(appArgs[0]), comm.Size());
        board.announce(comm.Rank(), ProcessHandle.current().pid());
        new FaultRank(comm, board, Integer.parseInt(appArgs[2])).run(Phase.named(appArgs[1]));
    }

    private void run(final Phase phase)
    {
        switch (phase)
        {
            case ALLOCATION -> allocation();
            case FENCE -> fence();
            case LARGE_MESSAGE -> largeMessage();
            case LOCK_EPOCH -> lockEpoch();
            case PASSIVE_SHARED -> passiveAccumulates(Win.allocateShared(Long.BYTES, Long.BYTES, null, comm));
            case PASSIVE_ALLOCATE -> passiveAccumulates(Win.allocate(Long.BYTES, Long.BYTES, null, comm));
            case PASSIVE_CREATE -> passiveAccumulates(Win.create(new long[1], Long.BYTES, null, comm));
            case FREE -> free();
            case COLLECTIVES -> collectives();
        }
    }

    private void allocation()
    {
        while (true)
        {
            inside();
            final Win win = Win.allocateShared(WINDOW_BYTES, 1, null, comm);
            between();
            win.free();
        }
    }

    private void free()
    {
        while (true)
        {
            final Win win = Win.allocateShared(WINDOW_BYTES, 1, null, comm);
            inside();
            win.free();
            between();
        }
    }

    private void fence()
    {
        final Win win = Win.allocateShared(Long.BYTES, Long.BYTES, null, comm);
        final long[] value = {rank};
        win.fence(0);
        while (true)
        {
            inside();
            win.put(value, 0, 1, MPI.LONG, (rank + 1) % size, 0, 1, MPI.LONG);
            win.fence(0);
        }
    }

    private void largeMessage()
    {
        final byte[] out = new byte[LARGE_MESSAGE_BYTES];
        final byte[] in = new byte[LARGE_MESSAGE_BYTES];
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        while (true)
        {
            inside();
            comm.Sendrecv(out, 0, out.length, MPI.BYTE, right, 0, in, 0, in.length, MPI.BYTE, left, 0);
        }
    }

    private void collectives()
    {
        final byte[] block = new byte[COLLECTIVE_BCAST_BYTES];
        final double[] mine = new double[ALLREDUCE_DOUBLES];
        final double[] sum = new double[ALLREDUCE_DOUBLES];
        for (int round = 0; ; round++)
        {
            inside();
            comm.Bcast(block, 0, block.length, MPI.BYTE, round % size);
            comm.Allreduce(mine, 0, sum, 0, mine.length, MPI.DOUBLE, MPI.SUM);
            comm.Barrier();
        }
    }

    private void lockEpoch()
    {
        final Win win = Win.allocateShared(Long.BYTES, Long.BYTES, null, comm);
        final long[] value = {rank};
        while (true)
        {
            for (int epoch = 0; epoch < LOCK_EPOCHS_PER_FENCE; epoch++)
            {
                inside();
                win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
                win.put(value, 0, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
                win.unlock(0);
            }
            // A collective step now and then: without one, a rank that never waits for the dead one runs for ever.
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    /**
     * Passive-target epochs only, as a work queue or a histogram does them: no fence, no collective, so a rank
     * learns of a death only from the lock, accumulate or unlock that involves it. The victim is the passive
     * target: it computes and takes no lock, so it dies holding none, and no survivor ever waits for it.
     */
    private void passiveAccumulates(final Win win)
    {
        final long[] one = {1};
        if (victim)
        {
            computeUntilKilled();
        }
        while (true)
        {
            for (int target = 0; target < size; target++)
            {
                inside();
                win.lock(Win.LOCK_EXCLUSIVE, target, 0);
                win.accumulate(one, 0, 1, MPI.LONG, target, 0, 1, MPI.LONG, MPI.SUM);
                win.unlock(target);
            }
        }
    }

    /** A rank that only computes (and, as a multicore thread, dies when told to). */
    private void computeUntilKilled()
    {
        long sum = 0;
        while (true)
        {
            inside();
            for (int i = 0; i < 1_000; i++)
            {
                sum += i * (long)rank;
            }
            if (sum == Long.MIN_VALUE)
            {
                // Never true: the sum is used, so the loop is not removed.
                return;
            }
        }
    }

    /** Marks this rank inside an operation of the phase; the victim thread dies here when told to. */
    private void inside()
    {
        dieIfTold();
        board.state(rank, RankBoard.INSIDE);
    }

    private void between()
    {
        board.state(rank, RankBoard.BETWEEN);
        dieIfTold();
    }

    private void dieIfTold()
    {
        if (victim && board.dieNow(rank))
        {
            board.died(rank, System.nanoTime());
            throw new InjectedFault();
        }
    }

    /** Ends the victim's thread as a crash would: an Error that no library code catches. */
    static final class InjectedFault extends Error
    {
        private static final long serialVersionUID = 1L;

        InjectedFault()
        {
            // No rank number here: a line naming the dead rank must come from the survivors.
            super("fault injected by bin/faults: this rank thread ends now");
        }
    }
}
