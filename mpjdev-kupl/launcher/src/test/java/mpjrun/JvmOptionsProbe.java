package mpjrun;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.stream.Collectors;

import mpi.MPI;

/**
 * A rank that says how its JVM was started, for the tests of the rank JVM defaults: each rank prints
 * {@code rank R jvm options: [...]} (the JVM's input arguments) and {@code rank R collector: ...} (the
 * names of its collectors, which show the one actually running, e.g. {@code Copy} for the serial one).
 */
public final class JvmOptionsProbe
{
    /** Starts the line of the JVM's input arguments. */
    public static final String OPTIONS = "jvm options: ";
    /** Starts the line of the collector's names. */
    public static final String COLLECTOR = "collector: ";

    private JvmOptionsProbe()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        System.out.println("rank " + rank + " " + OPTIONS + ManagementFactory.getRuntimeMXBean().getInputArguments());
        System.out.println("rank " + rank + " " + COLLECTOR + ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName).collect(Collectors.joining(", ")));
        MPI.Finalize();
    }
}
