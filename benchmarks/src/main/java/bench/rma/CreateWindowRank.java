package bench.rma;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import bench.harness.Samples;
import bench.harness.Stat;
import bench.report.MarkdownReport;
import bench.report.Ratio;
import bench.report.Table;
import mpi.Datatype;
import mpi.Group;
import mpi.MPI;
import mpi.rma.Win;

/**
 * {@code Win.create} over a {@code double[]} (every target reached by messages) against MPJ
 * Express's own ping-pong, measured side by side in one run: rank 0 is the origin, rank 1 the
 * target, which waits in a Barrier meanwhile (its agent thread serves the window). Rounds are
 * interleaved so that every row sees the same phases of the machine's other work; each figure is
 * the median over rounds of microseconds per operation with its completion. The last row is an epoch of
 * generalized active-target synchronisation: rank 1 posts and waits, rank 0 starts, puts 8 B and completes
 * (a post message one way, a complete the other). Then a fence of every rank beside MPJ Express's
 * {@code Barrier} on the same processes, and a put of 1,000 doubles with {@code Vector(1000, 1, 2, MPI.DOUBLE)}
 * on both sides (the halo exchange's strided column: packed at the origin, scattered by the target's agent)
 * beside a contiguous put of the same 8,000 B.
 *
 * <p>Rank 0 prints each row's rounds as a {@link Samples} line (ns) and a Markdown table of them;
 * {@link RmaBenchmark} reads the lines back ({@link #figures}) and makes the same table ({@link #table}) and
 * its ratios ({@link #comparison}).
 *
 * <p>Run: {@code bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.rma.CreateWindowRank [rounds]}
 * (also {@code -dev niodev}, and {@code -dev niodev -nodes 2} across two simulated nodes).
 */
public final class CreateWindowRank
{
    private static final int OPS_PER_ROUND = 500;
    private static final int LARGE_DOUBLES = (1 << 20) / Double.BYTES;
    /** The rows, in the order of {@link #ROWS}. */
    static final int PING_PONG_SMALL = 0;
    static final int PUT_SMALL = 1;
    static final int GET_SMALL = 2;
    static final int ACC_SMALL = 3;
    static final int PING_PONG_LARGE = 4;
    static final int PUT_LARGE = 5;
    static final int PSCW_EPOCH = 6;
    static final int BARRIER = 7;
    static final int FENCE = 8;
    static final int PUT_CONTIGUOUS = 9;
    static final int PUT_VECTOR = 10;
    static final List<String> ROWS = List.of("ping-pong 8 B round trip (MPJ Send/Recv)", "put 8 B + flush", "get 8 B",
        "accumulate 8 B + flush", "ping-pong 1 MiB round trip", "put 1 MiB + flush",
        "post, start, put 8 B, complete, wait (one epoch)", "Barrier (MPJ, reference for the fence)",
        "fence (every rank)", "put of 1,000 doubles contiguous (8,000 B) + flush",
        "put of 1,000 doubles, vector stride 2 both sides + flush");
    /** Doubles of the strided put, and of the contiguous put it is compared with. */
    private static final int COLUMN = 1000;
    private static final String METRIC = "create-window-";

    private CreateWindowRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int rounds = appArgs.length > 0 ? Integer.parseInt(appArgs[0]) : 15;
        final int rank = MPI.COMM_WORLD.Rank();
        final double[][] microseconds = new double[ROWS.size()][rounds];
        final double[] base = new double[LARGE_DOUBLES];
        final double[] small = new double[1];
        final double[] large = new double[LARGE_DOUBLES];
        final Datatype everyOther = Datatype.Vector(COLUMN, 1, 2, MPI.DOUBLE);
        everyOther.Commit();
        try (Win win = Win.create(base, Double.BYTES, null, MPI.COMM_WORLD))
        {
            final Group origin = win.getGroup().Incl(new int[] {0});
            final Group target = win.getGroup().Incl(new int[] {1});
            // Round 0 warms every path up and is not kept.
            for (int round = -1; round < rounds; round++)
            {
                final double[] figures = {
                    pingPong(rank, small, OPS_PER_ROUND),
                    rma(rank, win, OPS_PER_ROUND, () -> win.put(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE), true),
                    rma(rank, win, OPS_PER_ROUND, () -> win.get(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE), false),
                    rma(rank, win, OPS_PER_ROUND, () -> win.accumulate(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE,
                        MPI.SUM), true),
                    pingPong(rank, large, OPS_PER_ROUND / 50),
                    rma(rank, win, OPS_PER_ROUND / 50, () -> win.put(large, 0, LARGE_DOUBLES, MPI.DOUBLE, 1, 0,
                        LARGE_DOUBLES, MPI.DOUBLE), true),
                    pscw(rank, win, OPS_PER_ROUND, small, origin, target),
                    synchronisation(MPI.COMM_WORLD::Barrier, OPS_PER_ROUND),
                    synchronisation(() -> win.fence(0), OPS_PER_ROUND),
                    rma(rank, win, OPS_PER_ROUND, () -> win.put(large, 0, COLUMN, MPI.DOUBLE, 1, 0, COLUMN,
                        MPI.DOUBLE), true),
                    rma(rank, win, OPS_PER_ROUND, () -> win.put(large, 0, 1, everyOther, 1, 0, 1, everyOther), true)};
                for (int row = 0; row < ROWS.size() && round >= 0; row++)
                {
                    microseconds[row][round] = figures[row];
                }
            }
            win.fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED);
        }
        if (rank == 0)
        {
            for (int row = 0; row < ROWS.size(); row++)
            {
                final double[] ns = microseconds[row].clone();
                for (int round = 0; round < ns.length; round++)
                {
                    ns[round] *= 1e3;
                }
                Samples.print(METRIC + row, 0, 1, ns);
            }
            System.out.print(MarkdownReport.table(table(microseconds)));
        }
        MPI.Finalize();
    }

    /** Each row's microseconds per operation, one per round, from rank 0's {@link Samples} lines in {@code output}. */
    static double[][] figures(final String output)
    {
        return Samples.rank0Microseconds(output, METRIC, ROWS.size());
    }

    /**
     * Rank 0's table: each row's median and minimum, and how it compares with the reference measured beside
     * it (median; min): a time against the 8 B round trip or the Barrier, and for the 1 MiB put its
     * bandwidth against one way of the 1 MiB ping-pong (above 1: the put moves the bytes faster).
     */
    static Table table(final double[][] microseconds)
    {
        final Table table = new Table("operation (rank 0 to rank 1)", "median us", "min us",
            "against the reference (median; min)");
        for (int row = 0; row < ROWS.size(); row++)
        {
            final Ratio median = comparison(row, microseconds, Stat::median);
            final String against = median == null ? "reference" : median.text() + "; " +
                comparison(row, microseconds, Stat::min).text() + " " + reference(row);
            table.row(ROWS.get(row), String.format(Locale.ROOT, "%.1f", Stat.median(microseconds[row])),
                String.format(Locale.ROOT, "%.1f", Stat.min(microseconds[row])), against);
        }
        return table;
    }

    /** Row {@code row}'s median against its reference's, as the table's last column gives it; null for a reference. */
    static Ratio comparison(final int row, final double[][] microseconds)
    {
        return comparison(row, microseconds, Stat::median);
    }

    private static Ratio comparison(final int row, final double[][] microseconds,
        final ToDoubleFunction<double[]> statistic)
    {
        final String label = switch (row)
        {
            case PUT_SMALL -> "put 8 B + flush / 8 B round trip";
            case GET_SMALL -> "get 8 B / 8 B round trip";
            case ACC_SMALL -> "accumulate 8 B + flush / 8 B round trip";
            case PSCW_EPOCH -> "post-start-complete-wait / 8 B round trip";
            case PUT_LARGE -> "put 1 MiB + flush, bandwidth / one way's";
            case FENCE -> "fence / Barrier";
            case PUT_VECTOR -> "vector put / contiguous put";
            default -> ROWS.get(row);
        };
        final double figure = statistic.applyAsDouble(microseconds[row]);
        return switch (row)
        {
            case PUT_SMALL, GET_SMALL, ACC_SMALL, PSCW_EPOCH -> Ratio.of(label, figure,
                statistic.applyAsDouble(microseconds[PING_PONG_SMALL]), "us");
            // Bandwidth against one way of the ping-pong (the same bytes in half its round trip): time over time.
            case PUT_LARGE ->
            {
                final double oneWay = statistic.applyAsDouble(microseconds[PING_PONG_LARGE]) / 2;
                yield new Ratio(label, figure, oneWay, "us", oneWay / figure, null);
            }
            case FENCE -> Ratio.of(label, figure, statistic.applyAsDouble(microseconds[BARRIER]), "us");
            case PUT_VECTOR -> Ratio.of(label, figure, statistic.applyAsDouble(microseconds[PUT_CONTIGUOUS]), "us");
            default -> null;
        };
    }

    /** What row {@code row} is compared with, in the words of the table; empty for a reference row. */
    private static String reference(final int row)
    {
        return switch (row)
        {
            case PUT_SMALL, GET_SMALL, ACC_SMALL, PSCW_EPOCH -> "the 8 B round trip";
            case PUT_LARGE -> "the one-way bandwidth";
            case FENCE -> "the Barrier";
            case PUT_VECTOR -> "the contiguous put";
            default -> "";
        };
    }

    /** Microseconds per round trip of {@code buffer} between ranks 0 and 1. */
    private static double pingPong(final int rank, final double[] buffer, final int ops)
    {
        MPI.COMM_WORLD.Barrier();
        final long startNs = System.nanoTime();
        for (int i = 0; i < ops; i++)
        {
            if (rank == 0)
            {
                MPI.COMM_WORLD.Send(buffer, 0, buffer.length, MPI.DOUBLE, 1, 5);
                MPI.COMM_WORLD.Recv(buffer, 0, buffer.length, MPI.DOUBLE, 1, 5);
            }
            else if (rank == 1)
            {
                MPI.COMM_WORLD.Recv(buffer, 0, buffer.length, MPI.DOUBLE, 0, 5);
                MPI.COMM_WORLD.Send(buffer, 0, buffer.length, MPI.DOUBLE, 0, 5);
            }
        }
        return (System.nanoTime() - startNs) / 1e3 / ops;
    }

    /** Microseconds per epoch of rank 0 accessing rank 1 with post, start, a put of 8 B, complete and wait. */
    private static double pscw(final int rank, final Win win, final int epochs, final double[] small,
        final Group origin, final Group target)
    {
        MPI.COMM_WORLD.Barrier();
        final long startNs = System.nanoTime();
        for (int i = 0; i < epochs; i++)
        {
            if (rank == 1)
            {
                win.post(origin, 0);
                win.waitFor();
            }
            else if (rank == 0)
            {
                win.start(target, 0);
                win.put(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE);
                win.complete();
            }
        }
        final long elapsedNs = System.nanoTime() - startNs;
        MPI.COMM_WORLD.Barrier();
        return elapsedNs / 1e3 / epochs;
    }

    /** Microseconds per call of {@code call} made by every rank, {@code ops} times in a row. */
    private static double synchronisation(final Runnable call, final int ops)
    {
        MPI.COMM_WORLD.Barrier();
        final long startNs = System.nanoTime();
        for (int i = 0; i < ops; i++)
        {
            call.run();
        }
        final long elapsedNs = System.nanoTime() - startNs;
        MPI.COMM_WORLD.Barrier();
        return elapsedNs / 1e3 / ops;
    }

    /** Microseconds per operation of rank 0 on rank 1 inside one lock epoch, flushed after each if asked. */
    private static double rma(final int rank, final Win win, final int ops, final Runnable operation,
        final boolean flush)
    {
        MPI.COMM_WORLD.Barrier();
        long elapsedNs = 0;
        if (rank == 0)
        {
            win.lock(Win.LOCK_SHARED, 1, 0);
            final long startNs = System.nanoTime();
            for (int i = 0; i < ops; i++)
            {
                operation.run();
                if (flush)
                {
                    win.flush(1);
                }
            }
            elapsedNs = System.nanoTime() - startNs;
            win.unlock(1);
        }
        MPI.COMM_WORLD.Barrier();
        return elapsedNs / 1e3 / ops;
    }
}
