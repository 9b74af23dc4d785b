package xdev.shmdev.programs;

import mpi.MPI;

/**
 * An MPI program for the launcher's tests. Every rank prints {@code pid <rank> <pid>}, then,
 * by its first argument: {@code ok} ends normally; {@code exit <rank> <status>} makes that rank
 * exit with that status while the others wait in a barrier; {@code throw <rank>} makes that rank
 * throw; {@code spin} makes every rank run barriers for ever.
 */
public final class Faulty
{
    private Faulty()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] rest = MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        System.out.println("pid " + rank + " " + ProcessHandle.current().pid());
        System.out.flush();
        switch (rest[0])
        {
            case "ok" ->
            {
                MPI.COMM_WORLD.Barrier();
                System.out.println("done");
                MPI.Finalize();
            }
            case "exit" ->
            {
                if (rank == Integer.parseInt(rest[1]))
                {
                    System.exit(Integer.parseInt(rest[2]));
                }
                MPI.COMM_WORLD.Barrier();
            }
            case "throw" ->
            {
                if (rank == Integer.parseInt(rest[1]))
                {
                    throw new IllegalStateException("rank " + rank + " fails on purpose");
                }
                MPI.COMM_WORLD.Barrier();
            }
            case "spin" ->
            {
                while (true)
                {
                    MPI.COMM_WORLD.Barrier();
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + rest[0]);
        }
    }
}
