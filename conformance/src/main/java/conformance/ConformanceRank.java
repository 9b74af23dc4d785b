package conformance;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.spi.MessagePathFault;

/**
 * The program each rank of a conformance job runs: every case of {@link Catalog} (or those
 * chosen), in order, with the outcome of each printed by rank 0 ({@link ResultLines}).
 *
 * <p>Arguments after MPJ Express's own: {@code --provider=NAME} (the {@code mpi.rma.provider}
 * to test, default {@value #DEFAULT_PROVIDER}), {@code --timeout-ms=N} (per case, default
 * {@value #DEFAULT_TIMEOUT_MS}), {@code --only=ID,PREFIX.,...} (cases whose id equals one of
 * them or starts with one ending in a dot), {@code --flavour=allocateShared|create|allocate|createDynamic}
 * (how the cases' windows are made, default allocateShared), {@code --nodes=N} (how many nodes the job
 * spans, default 1: cases about jobs across nodes run only with 2 or more), {@code --message-fault=NAME}
 * (a deliberately broken message path, {@code mpi.rma.spi.MessagePathFault}, for the tests that
 * show the cases can fail).
 */
public final class ConformanceRank
{
    public static final String DEFAULT_PROVIDER = "kupl";
    public static final long DEFAULT_TIMEOUT_MS = 10_000;

    private ConformanceRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        String provider = DEFAULT_PROVIDER;
        long timeoutMs = DEFAULT_TIMEOUT_MS;
        List<String> only = List.of();
        Flavour flavour = Flavour.SHARED;
        int nodes = 1;
        for (final String arg : appArgs)
        {
            if (arg.startsWith("--provider="))
            {
                provider = arg.substring("--provider=".length());
            }
            else if (arg.startsWith("--timeout-ms="))
            {
                timeoutMs = Long.parseLong(arg.substring("--timeout-ms=".length()));
            }
            else if (arg.startsWith("--only="))
            {
                only = Arrays.asList(arg.substring("--only=".length()).split(","));
            }
            else if (arg.startsWith("--flavour="))
            {
                flavour = Flavour.named(arg.substring("--flavour=".length()));
            }
            else if (arg.startsWith("--message-fault="))
            {
                System.setProperty(MessagePathFault.PROPERTY, arg.substring("--message-fault=".length()));
            }
            else if (arg.startsWith("--nodes="))
            {
                nodes = Integer.parseInt(arg.substring("--nodes=".length()));
            }
            else
            {
                throw new IllegalArgumentException("conformance: unknown argument " + arg +
                    ": give --provider=NAME, --timeout-ms=N, --only=ID,..., --flavour=NAME or --nodes=N");
            }
        }
        // Every rank sets the same value (in multicore mode the ranks share the JVM's properties).
        System.setProperty("mpi.rma.provider", provider);
        final Intracomm control = (Intracomm)MPI.COMM_WORLD.clone();
        final PrintStream out = CaseRunner.utf8(System.out);
        new CaseRunner(control, timeoutMs, out, flavour, nodes).runAll(Catalog.select(only));
        control.Barrier();
        MPI.Finalize();
    }
}
