package bench.scale;

import mpi.MPI;
import xdev.shmdev.ShmDevice;

/**
 * One rank of {@link ShmScaleBenchmark}: the smallest job that uses the device, timed from
 * outside. {@code MPI.Init}, one Barrier (rank 0 then prints {@code FIRST_BARRIER <epoch ms>} and
 * {@code DEVICE_MEMORY <bytes>}, the device's window), a line per rank, {@code MPI.Finalize}.
 */
public final class StartupRank
{
    private StartupRank()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        MPI.COMM_WORLD.Barrier();
        if (rank == 0)
        {
            // Wall-clock time: the benchmark compares it with its own clock at launch (same machine).
            System.out.println("FIRST_BARRIER " + System.currentTimeMillis());
            // Asked here: the benchmark's own JVM has no MPJ Express classes, which the device class needs.
            System.out.println("DEVICE_MEMORY " + ShmDevice.sharedMemoryBytes(MPI.COMM_WORLD.Size()));
        }
        System.out.println("HELLO " + rank + " of " + MPI.COMM_WORLD.Size());
        MPI.Finalize();
    }
}
