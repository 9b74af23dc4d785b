package bench.apps;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import mpi.Intracomm;
import mpi.MPI;

/**
 * LU's communication alone: for each column k of an n x n factorisation, a {@code Bcast} of
 * {@code n - k - 1} doubles and a {@code Bcast} of one int from rank k mod p, no computation.
 * Runs {@code rounds} sweeps of n columns and rank 0 prints microseconds per column for each
 * (the first sweeps are the warm-up) and the bytes rank 0's thread allocated per column in the last
 * sweep, then, per rank, the JVM's native threads by kind
 * (GC workers, JIT compilers, ...) with the CPU milliseconds each kind used, read from
 * {@code /proc/self/task}: what each rank JVM brings to the cores.
 *
 * <pre>bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.apps.ColumnBroadcast [n [rounds]]</pre>
 */
public final class ColumnBroadcast
{
    /** Linux's USER_HZ is 100 on every architecture the JDK runs on. */
    private static final int MS_PER_TICK = 10;

    private ColumnBroadcast()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int n = appArgs.length > 0 ? Integer.parseInt(appArgs[0]) : 1000;
        final int rounds = appArgs.length > 1 ? Integer.parseInt(appArgs[1]) : 10;
        final Intracomm comm = MPI.COMM_WORLD;
        final int rank = comm.Rank();
        final int ranks = comm.Size();
        final double[] column = new double[n];
        final int[] pivot = new int[1];
        final StringBuilder line = new StringBuilder("column-bcast n=" + n + " us/column:");
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        long allocatedBytes = 0;
        for (int round = 0; round < rounds; round++)
        {
            comm.Barrier();
            allocatedBytes = threads.getCurrentThreadAllocatedBytes();
            final long startNs = System.nanoTime();
            for (int k = 0; k < n - 1; k++)
            {
                final int owner = k % ranks;
                if (owner == rank)
                {
                    column[k] = k;
                    pivot[0] = k;
                }
                comm.Bcast(column, 0, n - k - 1, MPI.DOUBLE, owner);
                comm.Bcast(pivot, 0, 1, MPI.INT, owner);
            }
            comm.Barrier();
            line.append(String.format(Locale.ROOT, " %.1f", (System.nanoTime() - startNs) / 1e3 / (n - 1)));
            allocatedBytes = threads.getCurrentThreadAllocatedBytes() - allocatedBytes;
        }
        if (rank == 0)
        {
            System.out.println(line);
            System.out.printf(Locale.ROOT, "column-bcast allocated %.0f bytes/column on rank 0 in the last sweep%n",
                (double)allocatedBytes / (n - 1));
        }
        // One rank after the other, so that lines of threads of one JVM (multicore) do not mix.
        for (int r = 0; r < ranks; r++)
        {
            if (r == rank)
            {
                System.out.println("rank " + rank + " pid " + ProcessHandle.current().pid() + " threads: " +
                    threadKinds());
            }
            comm.Barrier();
        }
        MPI.Finalize();
    }

    /**
     * This process's threads by name, digits dropped ("GC Thread#0" and "#1" are one kind), as
     * {@code count/cpuMs}: how many, and the user plus system CPU time they used (ms).
     */
    static Map<String, String> threadKinds() throws IOException
    {
        final Map<String, int[]> kinds = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task")))
        {
            for (final Path task : tasks)
            {
                final String name = Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "");
                // /proc/PID/task/TID/stat: fields 14 and 15 (utime, stime) in clock ticks, after the ")" of the name.
                final String stat = Files.readString(task.resolve("stat"));
                final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                final int ticks = Integer.parseInt(fields[11]) + Integer.parseInt(fields[12]);
                final int[] kind = kinds.computeIfAbsent(name, k -> new int[2]);
                kind[0]++;
                kind[1] += ticks * MS_PER_TICK;
            }
        }
        final Map<String, String> shown = new TreeMap<>();
        kinds.forEach((name, kind) -> shown.put(name, kind[0] + "/" + kind[1] + "ms"));
        return shown;
    }
}
