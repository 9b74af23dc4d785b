package bench.rma;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import bench.harness.Samples;
import bench.harness.Stat;
import bench.report.MarkdownReport;
import bench.report.Ratio;
import bench.report.Table;
import mpi.MPI;
import mpi.rma.Win;

/**
 * {@code Win.allocate} against {@code Win.allocateShared} on processes of one node, measured side
 * by side in one run: both reach the target by loads and stores, so their cost should be the same
 * (target: within 1.5x for put and get of 8 B + flush). Rank 0 is the origin, rank 1 the target;
 * rounds are interleaved so that every row sees the same phases of the machine's other work; each
 * figure is microseconds per operation with its flush, median and minimum over rounds. Rank 0
 * prints each row's rounds as a {@link Samples} line (ns) and a Markdown table of them; {@link RmaBenchmark}
 * reads the lines back ({@link #figures}) and makes the same table ({@link #table}) and its ratios
 * ({@link #ratios}).
 *
 * <p>Run: {@code bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.rma.AllocateWindowRank [rounds]}.
 */
public final class AllocateWindowRank
{
    private static final int OPS_PER_ROUND = 20_000;
    /** The rows in pairs, allocateShared then allocate. */
    static final List<String> ROWS = List.of("allocateShared: put 8 B + flush", "allocate: put 8 B + flush",
        "allocateShared: get 8 B + flush", "allocate: get 8 B + flush");
    private static final String METRIC = "allocate-window-";

    private AllocateWindowRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int rounds = appArgs.length > 0 ? Integer.parseInt(appArgs[0]) : 15;
        final int rank = MPI.COMM_WORLD.Rank();
        final double[][] microseconds = new double[ROWS.size()][rounds];
        final double[] small = new double[1];
        try (Win shared = Win.allocateShared(Double.BYTES, Double.BYTES, null, MPI.COMM_WORLD);
            Win allocated = Win.allocate(Double.BYTES, Double.BYTES, null, MPI.COMM_WORLD))
        {
            // Round -1 warms every path up and is not kept.
            for (int round = -1; round < rounds; round++)
            {
                final double[] figures = {
                    timed(rank, shared, () -> shared.put(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE)),
                    timed(rank, allocated, () -> allocated.put(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE)),
                    timed(rank, shared, () -> shared.get(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE)),
                    timed(rank, allocated, () -> allocated.get(small, 0, 1, MPI.DOUBLE, 1, 0, 1, MPI.DOUBLE))};
                for (int row = 0; row < ROWS.size() && round >= 0; row++)
                {
                    microseconds[row][round] = figures[row];
                }
            }
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
                Samples.print(METRIC + row, 0, OPS_PER_ROUND, ns);
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

    /** Rank 0's table: each row's median and minimum, then allocate against allocateShared (median; min). */
    static Table table(final double[][] microseconds)
    {
        final Table table = new Table("operation (rank 0 to rank 1, one node)", "median us", "min us");
        for (int row = 0; row < ROWS.size(); row++)
        {
            table.row(ROWS.get(row), String.format(Locale.ROOT, "%.3f", Stat.median(microseconds[row])),
                String.format(Locale.ROOT, "%.3f", Stat.min(microseconds[row])));
        }
        final List<Ratio> medians = ratios(microseconds);
        for (int pair = 0; pair < medians.size(); pair++)
        {
            final double[] shared = microseconds[2 * pair];
            final double[] allocated = microseconds[2 * pair + 1];
            table.row("ratio allocate / allocateShared, " + operation(pair), medians.get(pair).text(),
                String.format(Locale.ROOT, "%.2fx", Stat.min(allocated) / Stat.min(shared)));
        }
        return table;
    }

    /** For each pair of rows, allocate's median against allocateShared's. */
    static List<Ratio> ratios(final double[][] microseconds)
    {
        final List<Ratio> ratios = new ArrayList<>();
        for (int row = 0; row < ROWS.size(); row += 2)
        {
            ratios.add(Ratio.of("allocate / allocateShared, " + operation(row / 2),
                Stat.median(microseconds[row + 1]), Stat.median(microseconds[row]), "us"));
        }
        return ratios;
    }

    /** The operation of pair {@code pair}, e.g. {@code "put 8 B + flush"}. */
    private static String operation(final int pair)
    {
        final String row = ROWS.get(2 * pair);
        return row.substring(row.indexOf(':') + 2);
    }

    /** Microseconds per operation of rank 0 on rank 1, each flushed, inside one shared lock epoch. */
    private static double timed(final int rank, final Win win, final Runnable operation)
    {
        MPI.COMM_WORLD.Barrier();
        long elapsedNs = 0;
        if (rank == 0)
        {
            win.lock(Win.LOCK_SHARED, 1, 0);
            final long startNs = System.nanoTime();
            for (int i = 0; i < OPS_PER_ROUND; i++)
            {
                operation.run();
                win.flush(1);
            }
            elapsedNs = System.nanoTime() - startNs;
            win.unlock(1);
        }
        MPI.COMM_WORLD.Barrier();
        return elapsedNs / 1e3 / OPS_PER_ROUND;
    }
}
