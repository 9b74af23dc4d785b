package xdev.shmdev.programs;

import java.nio.file.Files;
import java.nio.file.Path;

import mpi.MPI;

/**
 * An MPI program for the start-up tests: every rank prints {@code pid <rank> <pid>} before
 * {@code MPI.Init}, then one rank ({@code args[1]}) is late, by {@code args[0]}: {@code exit}
 * leaves before {@code MPI.Init} (status 0), {@code sleep} never calls it, {@code gate <file>}
 * calls it once that file exists. Ranks that get through {@code MPI.Init} meet in a barrier and
 * print {@code done}.
 */
public final class LateArrival
{
    private LateArrival()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        // MPI.Init's arguments come first: {rank, conf, device, program arguments...}.
        final int rank = Integer.parseInt(args[0]);
        final String mode = args[3];
        final boolean late = rank == Integer.parseInt(args[4]);
        System.out.println("pid " + rank + " " + ProcessHandle.current().pid());
        System.out.flush();
        if (late)
        {
            switch (mode)
            {
                case "exit" -> System.exit(0);
                case "sleep" -> Thread.sleep(Long.MAX_VALUE);
                case "gate" ->
                {
                    final Path gate = Path.of(args[5]);
                    while (!Files.exists(gate))
                    {
                        Thread.sleep(20);
                    }
                }
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            }
        }
        MPI.Init(args);
        MPI.COMM_WORLD.Barrier();
        System.out.println("done");
        MPI.Finalize();
    }
}
