package xdev.shmdev.programs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import mpi.MPI;

/**
 * For the binding tests: every rank prints {@code cpus <rank> <list>}, the CPUs its main thread may run on
 * after {@code MPI.Init} (the kernel's {@code Cpus_allowed_list}, e.g. {@code 1} or {@code 0-1}), then the
 * ranks exchange a message around a ring (a bound rank still moves messages) and finalize.
 */
public final class ReportBinding
{
    private ReportBinding()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        System.out.println("cpus " + rank + " " + allowedCpusOfThisThread());
        final int[] token = {rank};
        final int[] received = new int[1];
        MPI.COMM_WORLD.Sendrecv(token, 0, 1, MPI.INT, (rank + 1) % size, 0, received, 0, 1, MPI.INT,
            (rank + size - 1) % size, 0);
        if (received[0] != (rank + size - 1) % size)
        {
            throw new IllegalStateException("rank " + rank + " received " + received[0]);
        }
        MPI.Finalize();
    }

    /** The CPUs the calling thread may run on, as the kernel lists them ({@code 0-1}). */
    public static String allowedCpusOfThisThread() throws IOException
    {
        return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
            .filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
            .substring("Cpus_allowed_list:".length()).strip();
    }
}
