package samples.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import mpi.MPI;
import mpi.rma.Win;

/**
 * A work queue without a master: the next task's number is a counter in rank 0's segment, and
 * every rank takes a task with {@link Win#fetchAndOp} ({@code MPI.SUM} of 1): it gets the old
 * value and leaves the counter one higher, atomically, so no two ranks ever get the same task.
 * A rank that gets a number past the last task stops.
 *
 * <p>Task k counts the primes in {@code [k*W, (k+1)*W)} (W = {@value #TASK_WIDTH}); later tasks
 * take longer, so ranks that got cheap tasks simply come back for more: the load balances itself.
 * Each rank puts its result and its rank into rank 0's table with {@link Win#put}.
 *
 * <p>What it shows: a passive-target epoch. {@link Win#lockAll} lets every rank reach rank 0's
 * segment whenever it likes, with no fence among the ranks while they work; {@link Win#unlockAll}
 * completes its calls. The fences before and after only separate the phases (the counter is
 * cleared before anyone takes a task; rank 0 prints only after everyone is done).
 *
 * <p>Rank 0's segment, in longs: {@code [0]} next task, {@code [1 + k]} task k's result,
 * {@code [1 + T + k]} the rank that did task k. Run: {@code bin/sample WorkQueue [tasks]}
 * (default {@value #DEFAULT_TASKS}, on 4 ranks).
 */
public final class WorkQueue
{
    public static final int DEFAULT_TASKS = 24;
    /** Numbers per task. */
    public static final int TASK_WIDTH = 20_000;

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;

    private WorkQueue()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}; then optionally the number of tasks.
     */
    public static void main(final String[] args)
    {
        final String[] appArgs = MPI.Init(args);
        final int tasks = SampleArgs.positive(appArgs, 0, "tasks", DEFAULT_TASKS);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();

        final long tableBytes = rank == 0 ? (1L + 2L * tasks) * Long.BYTES : 0;
        try (Win win = Win.allocateShared(tableBytes, Long.BYTES, null, MPI.COMM_WORLD))
        {
            if (rank == 0)
            {
                win.base().fill((byte)0);
            }
            // A barrier that makes rank 0's zeros visible; NOSUCCEED: no fence epoch follows, locks do.
            win.fence(Win.MODE_NOSUCCEED);

            final List<Integer> mine = new ArrayList<>();
            final long[] one = {1};
            final long[] taken = new long[1];
            win.lockAll(0);
            while (true)
            {
                // taken = counter; counter += 1; in one atomic step.
                win.fetchAndOp(one, 0, taken, 0, MPI.LONG, 0, 0, MPI.SUM);
                final int task = (int)taken[0];
                if (task >= tasks)
                {
                    break;
                }
                final long result = primesIn(task);
                win.put(new long[] {result}, 0, 1, MPI.LONG, 0, 1 + task, 1, MPI.LONG);
                win.put(new long[] {rank}, 0, 1, MPI.LONG, 0, 1L + tasks + task, 1, MPI.LONG);
                mine.add(task);
            }
            win.unlockAll();
            System.out.printf(Locale.ROOT, "rank %d did %d tasks: %s%n", rank, mine.size(), mine);

            // Everyone's puts are complete (unlockAll) and visible to rank 0 after this fence.
            win.fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED);
            if (rank == 0)
            {
                print(win.base(), tasks, size);
            }
        }
        MPI.Finalize();
    }

    /** The work of task {@code task}: how many primes lie in {@code [task*W, (task+1)*W)}. */
    public static long primesIn(final int task)
    {
        long count = 0;
        for (long candidate = (long)task * TASK_WIDTH; candidate < (long)(task + 1) * TASK_WIDTH; candidate++)
        {
            if (isPrime(candidate))
            {
                count++;
            }
        }
        return count;
    }

    private static boolean isPrime(final long candidate)
    {
        if (candidate < 2)
        {
            return false;
        }
        for (long divisor = 2; divisor * divisor <= candidate; divisor++)
        {
            if (candidate % divisor == 0)
            {
                return false;
            }
        }
        return true;
    }

    private static void print(final MemorySegment table, final int tasks, final int size)
    {
        long total = 0;
        for (int task = 0; task < tasks; task++)
        {
            final long result = table.getAtIndex(WORD, 1 + task);
            total += result;
            System.out.printf(Locale.ROOT, "task %2d: %4d primes in [%d, %d), done by rank %d%n", task, result,
                (long)task * TASK_WIDTH, (long)(task + 1) * TASK_WIDTH, table.getAtIndex(WORD, 1L + tasks + task));
        }
        System.out.printf(Locale.ROOT, "%d primes below %d; the counter ended at %d = %d tasks + %d final fetches " +
            "that found the queue empty%n", total, (long)tasks * TASK_WIDTH, table.getAtIndex(WORD, 0), tasks, size);
    }
}
