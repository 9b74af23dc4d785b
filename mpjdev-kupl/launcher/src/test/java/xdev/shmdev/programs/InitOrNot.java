package xdev.shmdev.programs;

import mpi.MPI;

/**
 * A program for the launcher's fault tests, whose ranks call {@code MPI.Init} or not. Every rank
 * prints {@code pid <rank> <pid>} first, then does what its entry of the first program argument
 * says (one comma-separated entry per rank, e.g. {@code leave,work,work}):
 * <ul>
 * <li>{@code leave}: returns from {@code main} at once, without {@code MPI.Init} (status 0);</li>
 * <li>{@code work}: works for a second and a half (a sleep), prints {@code rank <r> worked} and
 *     returns, without {@code MPI.Init}, as MPJ Express's own {@code BufferTest3} does;</li>
 * <li>{@code leave-later}: returns without {@code MPI.Init} after 3 s, once the others have joined;</li>
 * <li>{@code idle}: never calls {@code MPI.Init}, and never ends;</li>
 * <li>{@code init}: joins ({@code MPI.Init}), prints {@code rank <r> joined}, meets the others in a
 *     barrier, prints {@code rank <r> done} and finalizes;</li>
 * <li>{@code join-idle}: joins, prints {@code rank <r> joined}, and never ends.</li>
 * </ul>
 */
public final class InitOrNot
{
    private static final long WORK_MS = 1_500;
    private static final long LEAVE_LATER_MS = 3_000;

    private InitOrNot()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        // MPI.Init's arguments come first: {rank, conf, device, program arguments...}.
        final int rank = Integer.parseInt(args[0]);
        final String mode = args[3].split(",")[rank];
        System.out.println("pid " + rank + " " + ProcessHandle.current().pid());
        System.out.flush();
        switch (mode)
        {
            case "leave" ->
            {
                // Nothing: the rank ends with 0 without ever joining the job.
            }
            case "work" ->
            {
                Thread.sleep(WORK_MS);
                System.out.println("rank " + rank + " worked");
            }
            case "leave-later" -> Thread.sleep(LEAVE_LATER_MS);
            case "idle" -> Thread.sleep(Long.MAX_VALUE);
            case "init", "join-idle" ->
            {
                MPI.Init(args);
                System.out.println("rank " + rank + " joined");
                System.out.flush();
                if (mode.equals("join-idle"))
                {
                    Thread.sleep(Long.MAX_VALUE);
                }
                MPI.COMM_WORLD.Barrier();
                System.out.println("rank " + rank + " done");
                MPI.Finalize();
            }
            default -> throw new IllegalArgumentException("rank " + rank + ": unknown mode " + mode);
        }
    }
}
