package bench.rma;

import java.nio.file.Path;
import java.util.function.LongConsumer;

import bench.harness.Samples;
import bench.harness.TmpfsReservation;
import kupl.ShmComm;
import kupl.ShmWin;
import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.Win;
import mpi.rma.kupl.CommunicatorOob;

/**
 * One rank of {@link RmaBenchmark}: times, on whatever MPJ Express device it runs, the engine's
 * raw fence, {@code Win.fence}, MPJ Express's {@code Barrier}, and put/get/accumulate of
 * {@value #SMALL_BYTES} B and {@value #LARGE_BYTES} B from rank 0 to rank 1, completed by a
 * fence (every rank fences) or by a flush inside lockAll (rank 0 alone). Prints one
 * {@link Samples} line per metric and rank; a figure is ns per operation (operation plus its
 * completion). Also {@code Win.allocateShared} + {@code free} of {@link #ALLOC_BYTES} per process
 * (collective), beside the page reservation alone of the same size on rank 0 ({@link TmpfsReservation}).
 * And post, start, complete and wait: a ring of every rank against {@code Win.fence} by turns, and the
 * cost of start alone on rank 0 once rank 1's post is done, without and with {@code MODE_NOCHECK}.
 *
 * <p>App arguments: repetitions, repetitionTargetNs.
 */
public final class RmaBenchRank
{
    static final int SMALL_BYTES = 8;
    static final int LARGE_BYTES = 64 << 10;
    /** Doubles of the strided-put rows: a vector of stride 2 on both sides against a contiguous put of as many. */
    static final int STRIDED_DOUBLES = 1000;
    static final int STRIDE = 2;
    /** Window sizes per process of the allocateShared + free rows. */
    static final long[] ALLOC_BYTES = {4 << 10, 1 << 20};
    /** Where the reference page reservation is made: the engine's default KUPL_SHM_DIR. */
    private static final Path SHM_DIR = Path.of("/dev/shm");
    private static final int WARMUP_OPS = 200;
    /** Epochs per repetition of the start-alone rows: each has a barrier, so a fixed, modest count. */
    private static final int START_EPOCHS = 2000;

    private final Intracomm comm;
    private final int rank;
    private final int repetitions;
    private final long repetitionTargetNs;

    private RmaBenchRank(final Intracomm comm, final int repetitions, final long repetitionTargetNs)
    {
        this.comm = comm;
        this.rank = comm.Rank();
        this.repetitions = repetitions;
        this.repetitionTargetNs = repetitionTargetNs;
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        new RmaBenchRank(MPI.COMM_WORLD, Integer.parseInt(appArgs[0]), Long.parseLong(appArgs[1])).run();
        MPI.Finalize();
    }

    private void run()
    {
        final int target = 1 % comm.Size();
        try (ShmComm engine = ShmComm.create(comm.Size(), rank, ProcessHandle.current().pid(), new CommunicatorOob(),
            comm); ShmWin raw = engine.allocate(8, true); Win win = Win.allocateShared(LARGE_BYTES, 8, null, comm))
        {
            // A first pass compiles every path (4 JVMs compiling on 2 cores would skew the first figures); a second measures.
            for (final boolean report : new boolean[] {false, true})
            {
                // Interleaved repetitions: both fences see the same phases of the machine's other work.
                measurePair(report, "engine-fence", ops -> loop(ops, raw::fence),
                    "win-fence", ops -> loop(ops, () -> win.fence(0)));
                measure(report, "mpj-barrier", true, ops -> loop(ops, comm::Barrier));
                measurePscw(report, win);
                measureRma(report, win, target);
                measureStridedPut(report, win, target);
                measureAllocation(report);
            }
            win.fence(Win.MODE_NOSUCCEED);
        }
    }

    private void measureRma(final boolean report, final Win win, final int target)
    {
        for (final int bytes : new int[] {SMALL_BYTES, LARGE_BYTES})
        {
            final long[] buffer = new long[bytes / Long.BYTES];
            final int count = buffer.length;
            final boolean origin = rank == 0;
            // Opens a fence epoch (the previous size ended in a lockAll epoch).
            win.fence(0);
            measure(report, "put-fence-" + bytes, true, ops -> loop(ops, () ->
            {
                if (origin)
                {
                    win.put(buffer, 0, count, MPI.LONG, target, 0, count, MPI.LONG);
                }
                win.fence(0);
            }));
            measure(report, "get-fence-" + bytes, true, ops -> loop(ops, () ->
            {
                if (origin)
                {
                    win.get(buffer, 0, count, MPI.LONG, target, 0, count, MPI.LONG);
                }
                win.fence(0);
            }));
            measure(report, "acc-fence-" + bytes, true, ops -> loop(ops, () ->
            {
                if (origin)
                {
                    win.accumulate(buffer, 0, count, MPI.LONG, target, 0, count, MPI.LONG, MPI.SUM);
                }
                win.fence(0);
            }));
            win.fence(Win.MODE_NOSUCCEED);
            win.lockAll(0);
            measure(report, "put-flush-" + bytes, false, ops -> loop(ops, () ->
            {
                win.put(buffer, 0, count, MPI.LONG, target, 0, count, MPI.LONG);
                win.flush(target);
            }));
            measure(report, "get-flush-" + bytes, false, ops -> loop(ops, () ->
            {
                win.get(buffer, 0, count, MPI.LONG, target, 0, count, MPI.LONG);
                win.flush(target);
            }));
            measure(report, "acc-flush-" + bytes, false, ops -> loop(ops, () ->
            {
                win.accumulate(buffer, 0, count, MPI.LONG, target, 0, count, MPI.LONG, MPI.SUM);
                win.flush(target);
            }));
            win.unlockAll();
            comm.Barrier();
        }
    }

    /**
     * Post, start, complete and wait with no RMA call, as the fence is measured: every rank exposed to its
     * left neighbour and accessing its right one ("pscw-ring"), by turns with {@code Win.fence(0)}
     * ("pscw-fence"); then {@code start} alone on rank 0 with rank 1's post known done (a barrier between
     * them): "pscw-start", and "pscw-start-nocheck" with {@code MODE_NOCHECK} on both.
     */
    private void measurePscw(final boolean report, final Win win)
    {
        final int size = comm.Size();
        final Group left = win.getGroup().Incl(new int[] {(rank + size - 1) % size});
        final Group right = win.getGroup().Incl(new int[] {(rank + 1) % size});
        measurePair(report, "pscw-fence", ops -> loop(ops, () -> win.fence(0)), "pscw-ring", ops -> loop(ops, () ->
        {
            win.post(left, 0);
            win.start(right, 0);
            win.complete();
            win.waitFor();
        }));
        measureStart(report, win, "pscw-start", 0);
        measureStart(report, win, "pscw-start-nocheck", Win.MODE_NOCHECK);
    }

    /** ns per {@code win.start} on rank 0, to rank 1, called after a barrier that follows rank 1's post. */
    private void measureStart(final boolean report, final Win win, final String metric, final int assertion)
    {
        final boolean origin = rank == 0;
        final boolean target = rank == 1;
        final Group toTarget = win.getGroup().Incl(new int[] {1});
        final Group fromOrigin = win.getGroup().Incl(new int[] {0});
        final double[] nsPerStart = new double[report ? repetitions : 1];
        for (int repetition = 0; repetition < nsPerStart.length; repetition++)
        {
            long startNs = 0;
            for (int epoch = 0; epoch < START_EPOCHS; epoch++)
            {
                if (target)
                {
                    win.post(fromOrigin, assertion);
                }
                // Orders the post before the start, as MODE_NOCHECK requires.
                comm.Barrier();
                if (origin)
                {
                    final long beforeNs = System.nanoTime();
                    win.start(toTarget, assertion);
                    startNs += System.nanoTime() - beforeNs;
                    win.complete();
                }
                if (target)
                {
                    win.waitFor();
                }
            }
            nsPerStart[repetition] = (double)startNs / START_EPOCHS;
        }
        comm.Barrier();
        if (origin && report)
        {
            Samples.print(metric, rank, START_EPOCHS, nsPerStart);
        }
    }

    /**
     * Rank 0 puts {@value #STRIDED_DOUBLES} doubles to rank 1 in a lockAll epoch, completed by a flush:
     * "put-contiguous-8000" as MPI.DOUBLE on both sides, "put-vector-8000" as a vector of stride
     * {@value #STRIDE} on both sides (every other double of the origin array into every other double
     * of the target: a matrix column into a ghost column), measured by turns.
     */
    private void measureStridedPut(final boolean report, final Win win, final int target)
    {
        final double[] contiguous = new double[STRIDED_DOUBLES];
        final double[] strided = new double[STRIDED_DOUBLES * STRIDE];
        final Datatype vector = Datatype.Vector(STRIDED_DOUBLES, 1, STRIDE, MPI.DOUBLE);
        vector.Commit();
        win.lockAll(0);
        measurePairOnRankZero(report, "put-contiguous-" + STRIDED_DOUBLES * Double.BYTES, ops -> loop(ops, () ->
        {
            win.put(contiguous, 0, STRIDED_DOUBLES, MPI.DOUBLE, target, 0, STRIDED_DOUBLES, MPI.DOUBLE);
            win.flush(target);
        }), "put-vector-" + STRIDED_DOUBLES * Double.BYTES, ops -> loop(ops, () ->
        {
            win.put(strided, 0, 1, vector, target, 0, 1, vector);
            win.flush(target);
        }));
        win.unlockAll();
        comm.Barrier();
    }

    /**
     * allocateShared + free of each size on every rank ("alloc-free-BYTES"; the memory untouched, as
     * Open MPI's reference leaves it), and on rank 0 the page reservation alone ("reserve-BYTES": an
     * unnamed tmpfs file, fallocate, close), which a first allocation of that size cannot avoid.
     */
    private void measureAllocation(final boolean report)
    {
        for (final long bytes : ALLOC_BYTES)
        {
            measure(report, "alloc-free-" + bytes, true, ops -> loop(ops, () ->
                Win.allocateShared(bytes, 1, null, comm).free()));
            measure(report, "reserve-" + bytes, false, ops -> loop(ops, () ->
                TmpfsReservation.reserveAndReleaseNs(SHM_DIR, bytes)));
        }
    }

    /** Two collective metrics measured by turns, repetition by repetition. */
    private void measurePair(final boolean report, final String firstMetric, final LongConsumer first,
        final String secondMetric, final LongConsumer second)
    {
        final long firstOps = size(first, true);
        final long secondOps = size(second, true);
        final double[] firstNs = new double[report ? repetitions : 1];
        final double[] secondNs = new double[firstNs.length];
        for (int repetition = 0; repetition < firstNs.length; repetition++)
        {
            firstNs[repetition] = (double)time(first, firstOps) / firstOps;
            secondNs[repetition] = (double)time(second, secondOps) / secondOps;
        }
        comm.Barrier();
        if (report)
        {
            Samples.print(firstMetric, rank, firstOps, firstNs);
            Samples.print(secondMetric, rank, secondOps, secondNs);
        }
    }

    /** Two metrics of rank 0 alone (the others wait), measured by turns, repetition by repetition. */
    private void measurePairOnRankZero(final boolean report, final String firstMetric, final LongConsumer first,
        final String secondMetric, final LongConsumer second)
    {
        final boolean runs = rank == 0;
        final long firstOps = size(first, runs);
        final long secondOps = size(second, runs);
        final double[] firstNs = new double[report ? repetitions : 1];
        final double[] secondNs = new double[firstNs.length];
        for (int repetition = 0; runs && repetition < firstNs.length; repetition++)
        {
            firstNs[repetition] = (double)time(first, firstOps) / firstOps;
            secondNs[repetition] = (double)time(second, secondOps) / secondOps;
        }
        comm.Barrier();
        if (runs && report)
        {
            Samples.print(firstMetric, rank, firstOps, firstNs);
            Samples.print(secondMetric, rank, secondOps, secondNs);
        }
    }

    /**
     * Times {@code body} (which runs the given number of operations) {@link #repetitions} times and,
     * if {@code report}, prints ns per operation. Collective bodies run on every rank with the same
     * count (rank 0 sizes them and broadcasts); the others run on rank 0 only while the rest wait.
     */
    private void measure(final boolean report, final String metric, final boolean collective, final LongConsumer body)
    {
        final boolean runs = collective || rank == 0;
        final long ops = size(body, runs);
        final double[] nsPerOp = new double[report ? repetitions : 1];
        for (int repetition = 0; runs && repetition < nsPerOp.length; repetition++)
        {
            nsPerOp[repetition] = (double)time(body, ops) / ops;
        }
        comm.Barrier();
        if (runs && report)
        {
            Samples.print(metric, rank, ops, nsPerOp);
        }
    }

    /** Operations per repetition of {@code body}, as rank 0 measures them (every rank gets the same count). */
    private long size(final LongConsumer body, final boolean runs)
    {
        final long[] ops = {WARMUP_OPS};
        for (int sizing = 0; sizing < 2; sizing++)
        {
            final long elapsedNs = runs ? time(body, ops[0]) : 0;
            ops[0] = Samples.opsPerRepetition(repetitionTargetNs, ops[0], Math.max(1, elapsedNs));
            comm.Bcast(ops, 0, 1, MPI.LONG, 0);
        }
        return ops[0];
    }

    private static long time(final LongConsumer body, final long ops)
    {
        final long startNs = System.nanoTime();
        body.accept(ops);
        return System.nanoTime() - startNs;
    }

    private static void loop(final long ops, final Runnable op)
    {
        for (long i = 0; i < ops; i++)
        {
            op.run();
        }
    }
}
