package bench.apps;

import java.util.List;
import java.util.Locale;

import bench.harness.CommandLine;
import bench.harness.Samples;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Runs application kernels on every rank of an MPJ Express job: for each repetition the
 * kernel's input is made, the kernel runs between two barriers (rank 0's clock between them
 * is the kernel time, as the Java Grande benchmarks print it), and its result is checked.
 * All ranks agree on the verdict; a failed check ends every rank with an exception naming the
 * kernel, the size and the repetition, so that launchers and {@code mpjrun.MpjJobs} see a failed job.
 *
 * <p>Arguments after MPI's: {@code KERNEL[,KERNEL...] [SIZE|full|quick] [REPETITIONS]}, kernels
 * by {@link Kernels#shortName()} (a number as size only with one kernel). Rank 0 prints, per
 * kernel, one {@link Samples} line {@code bench app:<kernel>:<size> rank=0 ops=1 <ms> <ms> ...}
 * (one kernel time a repetition, the first being the cold run that JGF prints), one line
 * {@code bench app-comm:<kernel>:<size> rank=0 ops=1 <ms> ...} (per repetition, the time a rank spent in the
 * kernel's own MPI calls, waiting for its peers included, averaged over the ranks: {@link CommunicationClock})
 * and one line {@code check <kernel>:<size> passed: <what was compared>}.
 *
 * <pre>bin/mpjrun -np 2 -dev shm -cp benchmarks/target/classes bench.apps.KernelRank lu,sor quick 3</pre>
 */
public final class KernelRank
{
    /** The prefix of a kernel's {@link Samples} metric. */
    public static final String METRIC_PREFIX = "app:";
    /** The prefix of the metric of the time in a kernel's MPI calls, the mean over ranks. */
    public static final String COMMUNICATION_PREFIX = "app-comm:";
    /** How each check line starts. */
    public static final String CHECK_PREFIX = "check ";
    static final int DEFAULT_REPETITIONS = 5;

    private KernelRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        if (appArgs.length == 0)
        {
            throw new IllegalArgumentException("usage: KernelRank KERNEL[,KERNEL...] [SIZE|full|quick] [REPETITIONS]");
        }
        final List<Kernels> kernels = Kernels.parse(appArgs[0]);
        final String size = appArgs.length > 1 ? appArgs[1] : "full";
        if (kernels.size() > 1 && !size.equals("full") && !size.equals("quick"))
        {
            throw new IllegalArgumentException("size " + size + " with several kernels: give full or quick");
        }
        final int repetitions = appArgs.length > 2 ? CommandLine.positive("repetitions", appArgs[2]) : DEFAULT_REPETITIONS;
        for (final Kernels kernel : kernels)
        {
            runRepetitions(kernel, sizeOf(kernel, size), repetitions);
        }
        MPI.Finalize();
    }

    /** The main of one kernel's own class: arguments after MPI's are {@code [SIZE|full|quick] [REPETITIONS]}. */
    static void main(final Kernels kernel, final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int size = sizeOf(kernel, appArgs.length > 0 ? appArgs[0] : "full");
        final int repetitions = appArgs.length > 1 ? CommandLine.positive("repetitions", appArgs[1]) : DEFAULT_REPETITIONS;
        runRepetitions(kernel, size, repetitions);
        MPI.Finalize();
    }

    private static int sizeOf(final Kernels kernel, final String size)
    {
        return switch (size)
        {
            case "full" -> kernel.fullSize();
            case "quick" -> kernel.quickSize();
            default -> CommandLine.positive("size", size);
        };
    }


    private static void runRepetitions(final Kernels name, final int size, final int repetitions)
        throws MPIException
    {
        final Intracomm comm = MPI.COMM_WORLD;
        final int rank = comm.Rank();
        final Kernel kernel = name.create(size);
        final double[] kernelMs = new double[repetitions];
        final double[] communicationMs = new double[repetitions];
        final double[] mine = new double[1];
        final double[] sum = new double[1];
        final int[] verdict = new int[1];
        String detail = "";
        for (int r = 0; r < repetitions; r++)
        {
            kernel.setUp(comm);
            kernel.communication().takeMs();
            comm.Barrier();
            final long startNs = System.nanoTime();
            kernel.run(comm);
            comm.Barrier();
            kernelMs[r] = (System.nanoTime() - startNs) / 1e6;
            mine[0] = kernel.communication().takeMs();
            comm.Allreduce(mine, 0, sum, 0, 1, MPI.DOUBLE, MPI.SUM);
            communicationMs[r] = sum[0] / comm.Size();
            final Kernel.Check check = kernel.validate(comm);
            verdict[0] = rank == 0 && check.passed() ? 1 : 0;
            comm.Bcast(verdict, 0, 1, MPI.INT, 0);
            if (verdict[0] == 0)
            {
                throw new IllegalStateException(name.describe(size) + " on " + comm.Size() + " ranks, repetition " +
                    (r + 1) + ": the result is wrong" + (rank == 0 ? ": " + check.detail() : " (rank 0 says why)"));
            }
            if (rank == 0)
            {
                detail = check.detail();
            }
        }
        if (rank == 0)
        {
            final String metric = metric(name, size);
            Samples.print(metric, 0, 1, kernelMs);
            Samples.print(COMMUNICATION_PREFIX + metric.substring(METRIC_PREFIX.length()), 0, 1, communicationMs);
            System.out.println(CHECK_PREFIX + metric.substring(METRIC_PREFIX.length()) + " passed: " + detail);
            System.out.printf(Locale.ROOT, "%s on %d ranks: %.3f s first run, %.3f s last%n", name.describe(size),
                comm.Size(), kernelMs[0] / 1e3, kernelMs[repetitions - 1] / 1e3);
        }
    }

    /** The {@link Samples} metric of {@code kernel} at {@code size}. */
    public static String metric(final Kernels kernel, final int size)
    {
        return METRIC_PREFIX + kernel.shortName() + ":" + size;
    }
}
