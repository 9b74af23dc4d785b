package mpjrun.agent;

import java.lang.management.ManagementFactory;

import mpi.Intracomm;
import mpi.MPI;
import xdev.shmdev.coll.ShmCollectives;

/**
 * Says how a rank got MPJ Express's collectives through shared memory: whether its JVM has an agent, where its
 * {@code mpi.Intracomm} came from (MPJ Express's {@code mpj.jar}, or the launcher's woven classes), and how many
 * collectives shared memory ran, after a {@code Barrier} and an {@code Allreduce} whose sum it prints too; then
 * how many of them {@code MPI.Finalize} ran.
 */
public final class WovenClassesProbe
{
    static final String LINE = "probe: ";

    private WovenClassesProbe()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        MPI.COMM_WORLD.Barrier();
        final long[] sum = new long[1];
        MPI.COMM_WORLD.Allreduce(new long[] {rank + 1}, 0, sum, 0, 1, MPI.LONG, MPI.SUM);
        final boolean agent = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .anyMatch(option -> option.startsWith("-javaagent:")) ||
            String.valueOf(System.getenv("JAVA_TOOL_OPTIONS")).contains("-javaagent:");
        System.out.println(LINE + "rank " + rank + " agent " + agent + " handled " + ShmCollectives.handledCalls() +
            " sum " + sum[0] + " intracomm " + Intracomm.class.getProtectionDomain().getCodeSource().getLocation()
                .getPath());
        final long beforeFinalize = ShmCollectives.handledCalls();
        MPI.Finalize();
        // MPJ Express's Finalize ends with a Barrier of its own, after the shared memory has gone.
        System.out.println(LINE + "rank " + rank + " finalize handled " +
            (ShmCollectives.handledCalls() - beforeFinalize));
    }
}
