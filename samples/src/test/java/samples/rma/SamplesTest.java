package samples.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import mpjrun.SimulatedCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import samples.MpjJob;
import samples.SeedExampleOutput;

/**
 * Runs every {@code samples.rma} program once on {@value #RANKS} ranks, with small sizes, as a
 * real MPJ Express job ({@link MpjJob}), and checks its output against a serial reference
 * computed here.
 */
@Tag("slow")
class SamplesTest
{
    private static final int RANKS = 4;

    @Test
    void shouldCheckSuccessOnEveryRankButRankZeroLikeKuplPort() throws Exception
    {
        SeedExampleOutput.assertCheckSuccessOnEveryRankButZero(MpjJob.run(WinAllocExample.class, RANKS));
    }

    @Test
    void shouldShowEveryIncrementAfterEachFenceLikeKuplPort() throws Exception
    {
        SeedExampleOutput.assertEveryFenceOk(MpjJob.run(FenceExample.class, RANKS), FenceExample.ITERS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "multicore"})
    void shouldDiffuseHeatExactlyAsSerialStencil(final String device) throws Exception
    {
        final int cells = 4;
        final int steps = 60;
        final MpjJob.Run run = MpjJob.run(device, HeatStencil.class, RANKS, Integer.toString(cells),
            Integer.toString(steps));

        final double[] expected = serialHeat(cells * RANKS, steps);
        final Pattern cellLine = Pattern.compile("cell +(\\d+) \\(rank (\\d+)\\) +(-?[0-9.]+) \\|#*");
        int printed = 0;
        for (final String line : run.lines())
        {
            final Matcher matcher = cellLine.matcher(line);
            if (matcher.matches())
            {
                final int cell = Integer.parseInt(matcher.group(1));
                assertEquals(cell / cells, Integer.parseInt(matcher.group(2)), run.explain("owner of cell in " + line));
                assertEquals(expected[cell], Double.parseDouble(matcher.group(3)), 1e-4,
                    run.explain("temperature of cell " + cell));
                printed++;
            }
        }
        assertEquals(cells * RANKS, printed, run.explain("every cell printed once"));
        assertEquals(1, run.count(String.format(Locale.ROOT, "mean temperature %.4f", mean(expected))),
            run.explain("mean temperature of the serial run"));
    }

    @Test
    void shouldCountEveryDartOfEveryRank() throws Exception
    {
        final int darts = 30_000;
        final int batch = 4_000;
        final MpjJob.Run run = MpjJob.run(MonteCarloPi.class, RANKS, Integer.toString(darts), Integer.toString(batch));

        long total = 0;
        for (int rank = 0; rank < RANKS; rank++)
        {
            final long hits = MonteCarloPi.hitsOf(new SplittableRandom(MonteCarloPi.SEED + rank), darts);
            total += hits;
            assertEquals(1, run.count(String.format(Locale.ROOT, "rank %d: %d hits of %d darts, added in %d accumulates",
                rank, hits, darts, (darts + batch - 1) / batch)), run.explain("rank " + rank + "'s hits"));
        }
        final long allDarts = (long)darts * RANKS;
        assertEquals(1, run.count(String.format(Locale.ROOT, "total: %d hits of %d darts on %d ranks: pi is about %.6f",
            total, allDarts, RANKS, MonteCarloPi.estimate(total, allDarts))),
            run.explain("the shared counter should hold every rank's hits"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "multicore"})
    void shouldPutEveryRankIntoItsRightNeighboursArray(final String device) throws Exception
    {
        final MpjJob.Run run = MpjJob.run(device, NeighbourPut.class, RANKS);

        for (int rank = 0; rank < RANKS; rank++)
        {
            final int left = (rank + RANKS - 1) % RANKS;
            assertEquals(1, run.count(String.format(Locale.ROOT, "rank %d: inbox[0] = %.1f (the left neighbour is " +
                "rank %d)", rank, (double)left, left)), run.explain("rank " + rank + " holds its left neighbour's " +
                "rank"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "multicore"})
    void shouldRelaxThePlateExactlyAsSerialJacobi(final String device) throws Exception
    {
        checkPlate(MpjJob.run(device, HaloColumns.class, RANKS, "5", "3", "40"), 5, 3, 40);
    }

    @Test
    void shouldRelaxThePlateExactlyAsSerialJacobiAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
        checkPlate(MpjJob.runOnNodes(HaloColumns.class, RANKS, 2, "5", "3", "40"), 5, 3, 40);
    }

    @ParameterizedTest
    @ValueSource(strings = {"shared", "create"})
    void shouldCompleteEveryKindOfEpochAndTimeIt(final String flavour) throws Exception
    {
        final MpjJob.Run run = MpjJob.run("shm", SyncCosts.class, RANKS, "50", flavour);

        for (int rank = 0; rank < RANKS; rank++)
        {
            assertEquals(1, run.count(String.format(Locale.ROOT, "rank %d: holds %d, its left neighbour's rank", rank,
                (rank + RANKS - 1) % RANKS)), run.explain("rank " + rank + " got every put"));
        }
        for (final String kind : List.of("fence", "post/start/complete/wait", "lock/unlock (exclusive)",
            "lockAll + flush"))
        {
            final Pattern row = Pattern.compile(Pattern.quote(kind) + " +(\\d+\\.\\d\\d)");
            assertEquals(1, run.lines().stream().filter(line -> row.matcher(line).matches()
                && Double.parseDouble(line.substring(kind.length()).trim()) > 0).count(),
                run.explain("one positive time for " + kind));
        }
    }

    /** Each rank's printed sum is that of its columns of one serial plate relaxed as many steps, bit for bit. */
    private static void checkPlate(final MpjJob.Run run, final int rows, final int columns, final int steps)
    {
        final int plateColumns = columns * RANKS;
        final double[] plate = new double[(rows + 2) * (plateColumns + 2)];
        java.util.Arrays.fill(plate, 0, plateColumns + 2, HaloColumns.HOT);
        final double[] next = plate.clone();
        for (int step = 0; step < steps; step++)
        {
            HaloColumns.relax(plate, next, rows, plateColumns);
        }
        for (int rank = 0; rank < RANKS; rank++)
        {
            double sum = 0;
            for (int i = 1; i <= rows; i++)
            {
                for (int j = 1 + rank * columns; j <= (rank + 1) * columns; j++)
                {
                    sum += plate[i * (plateColumns + 2) + j];
                }
            }
            assertEquals(1, run.count(String.format(Locale.ROOT, "rank %d: columns %d-%d, sum %.10f", rank,
                rank * columns, (rank + 1) * columns - 1, sum)), run.explain("rank " + rank + "'s columns"));
        }
        assertEquals(1, run.count(String.format(Locale.ROOT, "2-D heat diffusion: %d x %d cells on %d ranks " +
            "(top edge 100, others 0)", rows, plateColumns, RANKS)), run.explain("rank 0's plate"));
    }

    @Test
    void shouldCountEveryDartOfEveryRankAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
        final int darts = 20_000;
        final int batch = 5_000;
        final MpjJob.Run run = MpjJob.runOnNodes(MonteCarloPi.class, RANKS, 2, Integer.toString(darts),
            Integer.toString(batch));

        long total = 0;
        for (int rank = 0; rank < RANKS; rank++)
        {
            total += MonteCarloPi.hitsOf(new SplittableRandom(MonteCarloPi.SEED + rank), darts);
        }
        final long allDarts = (long)darts * RANKS;
        assertEquals(1, run.count(String.format(Locale.ROOT, "total: %d hits of %d darts on %d ranks: pi is about %.6f",
            total, allDarts, RANKS, MonteCarloPi.estimate(total, allDarts))),
            run.explain("rank 0's counter should hold the hits of the ranks of both nodes"));
    }

    /**
     * On hybdev across two simulated nodes (one JVM each, niodev between) the job starts and every rank's
     * {@code Win.allocate} is refused at once, naming the devices to use (hybdev's wildcard receives would make
     * each fence take 2 s): no hang, no partial run.
     */
    @Test
    void shouldRefuseTheCounterWindowOnEveryRankOnHybdevAcrossTwoSimulatedNodes() throws Exception
    {
        final String refusal = SimulatedCluster.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
        final MpjJob.Run run = MpjJob.failOnNodes("hybdev", MonteCarloPi.class, RANKS, 2, "20000", "5000");

        assertEquals(1, run.count("hybdev: one JVM per node, its ranks threads, niodev between them"),
            run.explain("the launcher should say what runs where"));
        // MPJ Express's hybrid starter may end a node's JVM at its first rank's exception, before the others report:
        // every rank that reports was refused, so at least one per node that reported, and none failed otherwise.
        final String refused = "failed: mpi.rma.RmaException: MPI_ERR_UNSUPPORTED_OPERATION: Win.allocate: windows " +
            "are not supported on MPJ Express's -dev hybdev";
        final List<String> failed = run.lines().stream().filter(line -> line.matches("mpjrun: rank \\d+ failed: .*"))
            .toList();
        assertFalse(failed.isEmpty(), run.explain("the ranks should be refused"));
        assertTrue(failed.stream().allMatch(line -> line.contains(refused)), run.explain("every rank should be refused"));
        assertTrue(run.output().contains("run the job with -dev niodev (TCP between all ranks) or -dev shm"),
            run.explain("the refusal should name the devices to use"));
        assertEquals(0, run.count("total: "), run.explain("no rank should count darts"));
    }

    @Test
    void shouldTransposeThroughContiguousWindow() throws Exception
    {
        final int rows = 2;
        final int n = rows * RANKS;
        final MpjJob.Run run = MpjJob.run(MatrixTranspose.class, RANKS, Integer.toString(rows));

        final long segmentBytes = (long)rows * n * Long.BYTES;
        for (int rank = 0; rank < RANKS; rank++)
        {
            assertEquals(1, run.count("rank " + rank + "'s segment: bytes " + rank * segmentBytes + " to " +
                (rank + 1) * segmentBytes + " of the whole matrix"), run.explain("segments back to back"));
        }
        final List<String> lines = run.lines();
        final int title = lines.indexOf("A^T:");
        assertTrue(title >= 0, run.explain("A^T printed"));
        for (int i = 0; i < n; i++)
        {
            final String[] printed = lines.get(title + 1 + i).trim().split(" +");
            for (int j = 0; j < n; j++)
            {
                // A[i][j] = i*n + j, so its transpose holds j*n + i at (i, j).
                assertEquals((long)j * n + i, Long.parseLong(printed[j]), run.explain("A^T(" + i + ", " + j + ")"));
            }
        }
    }

    @Test
    void shouldHandOutEveryTaskExactlyOnce() throws Exception
    {
        final int tasks = 12;
        final MpjJob.Run run = MpjJob.run(WorkQueue.class, RANKS, Integer.toString(tasks));

        final Pattern rankLine = Pattern.compile("rank (\\d+) did (\\d+) tasks: \\[(.*)]");
        final List<Integer> done = new ArrayList<>();
        final int[] doneBy = new int[tasks];
        for (final String line : run.lines())
        {
            final Matcher matcher = rankLine.matcher(line);
            if (matcher.matches() && !matcher.group(3).isEmpty())
            {
                for (final String task : matcher.group(3).split(", "))
                {
                    done.add(Integer.parseInt(task));
                    doneBy[Integer.parseInt(task)] = Integer.parseInt(matcher.group(1));
                }
            }
        }
        assertEquals(tasks, done.size(), run.explain("every task done once"));
        assertEquals(tasks, new TreeSet<>(done).size(), run.explain("no task done twice"));
        long total = 0;
        for (int task = 0; task < tasks; task++)
        {
            final long primes = WorkQueue.primesIn(task);
            total += primes;
            assertEquals(1, run.count(String.format(Locale.ROOT, "task %2d: %4d primes in [%d, %d), done by rank %d",
                task, primes, (long)task * WorkQueue.TASK_WIDTH, (long)(task + 1) * WorkQueue.TASK_WIDTH, doneBy[task])),
                run.explain("result of task " + task));
        }
        assertEquals(1, run.count(total + " primes below " + (long)tasks * WorkQueue.TASK_WIDTH + "; the counter ended " +
            "at " + (tasks + RANKS)), run.explain("total and final counter"));
    }

    @Test
    void shouldLoseNoUpdateAndTearNoRecordUnderLocks() throws Exception
    {
        final int updates = 20;
        final MpjJob.Run run = MpjJob.run(ReadersWriters.class, RANKS, Integer.toString(updates));

        final long last = (long)ReadersWriters.writers(RANKS) * updates;
        final Pattern readerLine = Pattern.compile(
            "reader rank (\\d+): \\d+ reads, (\\d+) torn, saw \\d+ versions from \\d+ to (\\d+), (\\d+) steps backwards");
        int readers = 0;
        for (final String line : run.lines())
        {
            final Matcher matcher = readerLine.matcher(line);
            if (matcher.matches())
            {
                assertEquals("0", matcher.group(2), run.explain("no torn record: " + line));
                assertEquals(Long.toString(last), matcher.group(3), run.explain("reader saw the last version: " + line));
                assertEquals("0", matcher.group(4), run.explain("versions never go backwards: " + line));
                readers++;
            }
        }
        assertEquals(RANKS - ReadersWriters.writers(RANKS), readers, run.explain("one line per reader"));
        assertEquals(1, run.count("version " + last + ", expected " + ReadersWriters.writers(RANKS) + " writers x " +
            updates + " updates = " + last + ": no update lost"), run.explain("final version"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "multicore"})
    void shouldSumEveryBlockAroundThePscwRing(final String device) throws Exception
    {
        final int block = 50;
        final int rounds = 3;
        final MpjJob.Run run = MpjJob.run(device, PscwRing.class, RANKS, Integer.toString(block),
            Integer.toString(rounds));

        for (int rank = 0; rank < RANKS; rank++)
        {
            final String line = String.format(Locale.ROOT, "rank %d: %d steps; now holds the block of rank %d; " +
                "sum of element 0 = %.1f, of element %d = %.1f", rank, rounds * (RANKS - 1), (rank + 1) % RANKS,
                PscwRing.expectedSum(RANKS, block, 0), block - 1, PscwRing.expectedSum(RANKS, block, block - 1));
            assertEquals(1, run.count(line), run.explain(line));
        }
    }

    @Test
    void shouldReportEveryMistakeAsTutorialQuotesIt() throws Exception
    {
        final MpjJob.Run run = MpjJob.run(Mistakes.class, RANKS);

        assertEquals(1, run.count("all 13 mistakes made, every one reported"), run.explain("every mistake made"));
        assertEquals(1, run.count("rank 0: mpi.rma.RmaException: MPI_ERR_RMA_SYNC: Win.put: no access epoch to rank 1 " +
            "is open (no fence has been called on this window yet)"), run.explain("put outside an epoch"));
        assertEquals(1, run.count("rank 0: read 0 before the fence, 42 after it"), run.explain("read before the fence"));
        assertEquals(1, run.count("rank 0: mpi.rma.RmaException: MPI_ERR_RMA_RANGE: Win.put: targetDisp=7"),
            run.explain("out-of-range put"));
        assertEquals(RANKS - 1, run.count("Win.fence failed on every process because rank 0 called it wrongly " +
            "(MPI_ERR_RMA_SYNC"), run.explain("fence inside a lock fails everywhere"));
        assertEquals(1, run.count("rank 0: mpi.rma.RmaException: MPI_ERR_WIN: Win.fence: the window has been freed"),
            run.explain("use after free"));
        // The tutorial quotes this output: every reported line must appear in it, word for word.
        final String tutorial = Files.readString(MpjJob.ROOT.resolve("docs/tutorial.md"));
        for (final String line : run.lines())
        {
            if (line.startsWith("mistake ") || line.startsWith("  rank "))
            {
                assertTrue(tutorial.contains(line.trim()), "docs/tutorial.md should quote Mistakes' line: " + line);
            }
        }
    }

    private static double[] serialHeat(final int cells, final int steps)
    {
        double[] temperature = new double[cells];
        java.util.Arrays.fill(temperature, HeatStencil.COLD);
        for (int step = 0; step < steps; step++)
        {
            final double[] next = new double[cells];
            for (int i = 0; i < cells; i++)
            {
                final double before = i == 0 ? HeatStencil.HOT : temperature[i - 1];
                final double after = i == cells - 1 ? HeatStencil.COLD : temperature[i + 1];
                next[i] = HeatStencil.next(before, temperature[i], after);
            }
            temperature = next;
        }
        return temperature;
    }

    private static double mean(final double[] values)
    {
        double total = 0;
        for (final double value : values)
        {
            total += value;
        }
        return total / values.length;
    }
}
