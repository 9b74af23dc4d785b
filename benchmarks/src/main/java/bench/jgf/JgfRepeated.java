package bench.jgf;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

import mpi.MPI;

/**
 * One of JGF's section 2 kernels run several times in one job, as a long-running program runs its
 * work: MPI is initialised once, then each run makes the kernel's benchmark object afresh and calls
 * its {@code JGFrun}, as JGF's {@code JGF<Kernel>BenchSize<X>} programs do once. JGF's classes are
 * used as compiled, unchanged, through reflection (this module is not compiled against them). Two
 * things JGF assumes of a fresh JVM are restored before each later run, since its programs run once:
 * the kernel timer, which accumulates, is reset ({@code JGFInstrumentor.resetTimer}), and the static
 * sums its validation reads ({@code SOR.Gtotal}, {@code SparseMatmult.ytotal}) are zeroed. Each run
 * prints JGF's own kernel line ({@code Section2:SOR:Kernel:SizeA 0.57 (s) ...}) on rank 0.
 *
 * <p>Arguments after MPI's: runs, the benchmark class ({@code jgf_mpj_benchmarks.section2.sor.JGFSORBench}),
 * JGF's size index (0 for A), the kernel timer's name ({@code Section2:SOR:Kernel}), then the static
 * fields to zero before each later run, as {@code class#field}.
 */
public final class JgfRepeated
{
    private static final String INSTRUMENTOR = "jgf_mpj_benchmarks.jgfutil.JGFInstrumentor";

    private JgfRepeated()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final int runs = Integer.parseInt(appArgs[0]);
        final Class<?> benchmark = Class.forName(appArgs[1]);
        final int size = Integer.parseInt(appArgs[2]);
        final String timer = appArgs[3];
        final int rank = MPI.COMM_WORLD.Rank();
        final int processes = MPI.COMM_WORLD.Size();
        final Method run = benchmark.getMethod("JGFrun", int.class);
        final Method resetTimer = Class.forName(INSTRUMENTOR).getMethod("resetTimer", String.class);
        for (int i = 1; i <= runs; i++)
        {
            if (i > 1)
            {
                // Rank 0 owns the timer (JGF adds it there only).
                if (rank == 0)
                {
                    resetTimer.invoke(null, timer);
                }
                for (int field = 4; field < appArgs.length; field++)
                {
                    zero(appArgs[field]);
                }
            }
            final Object bench = benchmark.getConstructor(int.class, int.class).newInstance(processes, rank);
            run.invoke(bench, size);
        }
        MPI.Finalize();
    }

    private static void zero(final String classAndField) throws ReflectiveOperationException
    {
        final int hash = classAndField.indexOf('#');
        final Field field = Class.forName(classAndField.substring(0, hash)).getField(classAndField.substring(hash + 1));
        field.setDouble(null, 0.0);
    }
}
